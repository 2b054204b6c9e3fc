import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTeamStore, TeamStoreUnavailableError } from '../runtime/teamStore'
import { startNatsServer, type NatsServer } from '../runtime/teamStore/natsServer.testkit'
import { WorkspaceService } from './service'

// A served workspace whose team is on NATS JetStream (docs/nats.md#configuration): the dashboard's
// team and task board work on the server and nothing of the team is written to the data directory.

let server: NatsServer
beforeAll(async () => {
  server = await startNatsServer()
}, 60_000)
afterAll(async () => {
  await server?.stop()
})

describe('a served workspace on a NATS team store', () => {
  it('creates its team and tasks on the server, lists its live team as not stale, closes the connection with the workspace; the team then stale to another, which deletes it', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
    const scenario = join(home, 's.yaml')
    writeFileSync(scenario, 'agents:\n  team-lead:\n    - { text: "Noted." }\n')
    const start = (teamTransport: string) =>
      WorkspaceService.start({ cwd: work, home, scenario, env: {}, mode: 'bypassPermissions', teamTransport })
    try {
      const service = await start(server.url)
      try {
        await service.handle('team.create', { name: 'served' })
        await service.handle('tasks.create', { subject: 'On the server' })
        expect(await service.handle('teams.stale', {})).toEqual({ teams: [] })
      } finally {
        await service.dispose()
      }
      const store = await openTeamStore(home, { kind: 'nats', servers: [server.url] })
      try {
        expect((await store.config.read('served')).name).toBe('served')
        expect((await store.tasks.list('served')).map((t) => t.subject)).toEqual(['On the server'])
      } finally {
        await store.close()
      }
      expect(existsSync(join(home, 'teams'))).toBe(false)
      expect(existsSync(join(home, 'tasks'))).toBe(false)
      // its session ended: another workspace on the server lists the team as stale, and deletes it
      const other = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
      const second = await WorkspaceService.start({
        cwd: work,
        home: other,
        scenario,
        env: {},
        mode: 'bypassPermissions',
        teamTransport: server.url
      })
      try {
        expect(await second.handle('teams.stale', {})).toEqual({
          teams: [
            expect.objectContaining({ name: 'served', members: 1, reason: expect.stringMatching(/no leader session/) })
          ]
        })
        await second.handle('teams.deleteStale', { team: 'served' })
        expect(await second.handle('teams.stale', {})).toEqual({ teams: [] })
      } finally {
        await second.dispose()
        rmSync(other, { recursive: true, force: true })
      }
      // a server that is not there stops the workspace from opening, with the reason
      await expect(start('nats://127.0.0.1:1')).rejects.toBeInstanceOf(TeamStoreUnavailableError)
    } finally {
      rmSync(home, { recursive: true, force: true })
      rmSync(work, { recursive: true, force: true })
    }
  }, 60_000)
})
