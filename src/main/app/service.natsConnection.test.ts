import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import type { WorkspaceSnapshot } from '../../shared/ipc'
import { startNatsServer, type NatsServer } from '../runtime/teamStore/natsServer.testkit'
import { PushLog } from './pushes.testkit'
import { WorkspaceService } from './service'

// A served workspace tells its UI where its team lives and the state of the connection to the
// team's server (docs/nats.md#connection-state, docs/ui.md#team-dashboard): in the snapshot, then
// as `team.transport` pushes and notices in the leader's pane when nats-server dies and comes back.

let server: NatsServer
const dirs: string[] = []
beforeAll(async () => {
  server = await startNatsServer()
}, 60_000)
afterAll(async () => {
  await server?.stop()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const until = async (check: () => boolean, what: string, ms = 30_000): Promise<void> => {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function open(teamTransport?: string): Promise<WorkspaceService> {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  dirs.push(home, work)
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  const scenario = join(home, 's.yaml')
  writeFileSync(scenario, 'agents:\n  team-lead:\n    - { text: "Noted." }\n')
  return WorkspaceService.start({
    cwd: work,
    home,
    scenario,
    env: {},
    mode: 'bypassPermissions',
    ...(teamTransport ? { teamTransport } : {})
  })
}

const snapshot = async (service: WorkspaceService): Promise<WorkspaceSnapshot> =>
  (await service.handle('workspace.snapshot', {})) as WorkspaceSnapshot

describe("a served workspace's team transport", () => {
  it('is files on files', async () => {
    const service = await open()
    try {
      expect((await snapshot(service)).teamTransport).toEqual({ kind: 'files' })
    } finally {
      await service.dispose()
    }
  }, 60_000)

  it('on a server: its URLs without the token and the state, pushed and told in the leader pane through a kill -9 of nats-server', async () => {
    // a token in the URL (the server asks for none): it must never reach the UI
    const service = await open(`nats://s3cret-token@127.0.0.1:${server.port}`)
    const pushes = new PushLog()
    service.onPush(pushes.record)
    const notices = (): string[] =>
      pushes
        .of('runtime.event')
        .flatMap((e: RuntimeEvent) => (e.type === 'notice' && e.agentId === 'team-lead' ? [e.message] : []))
    try {
      expect((await snapshot(service)).teamTransport).toEqual({
        kind: 'nats',
        servers: [`nats://127.0.0.1:${server.port}`],
        state: 'connected'
      })
      await server.kill9()
      await until(
        () => pushes.of('team.transport').some((t) => t.kind === 'nats' && t.state === 'reconnecting'),
        'reconnecting'
      )
      expect(pushes.of('team.transport')[0]).toMatchObject({ kind: 'nats', state: 'disconnected' })
      expect((await snapshot(service)).teamTransport).toMatchObject({ state: 'reconnecting' })
      expect(notices().some((m) => /Lost the connection to the team's server nats:\/\/127\.0\.0\.1/.test(m))).toBe(true)

      await server.restart()
      await until(
        () =>
          pushes.of('team.transport').at(-1)?.kind === 'nats' &&
          (pushes.of('team.transport').at(-1) as { state: string }).state === 'connected',
        'connected'
      )
      expect((await snapshot(service)).teamTransport).toMatchObject({ state: 'connected' })
      // each told once, however many attempts it took to reconnect
      expect(notices().filter((m) => /^Lost the connection to the team's server/.test(m))).toHaveLength(1)
      expect(notices().filter((m) => /^Connected to the team's server .* again/.test(m))).toHaveLength(1)
      // the workspace's team works on the server again
      await service.handle('team.create', { name: 'back' })
      await service.handle('tasks.create', { subject: 'After the restart' })
      expect(JSON.stringify(pushes.all)).not.toContain('s3cret')
      expect(JSON.stringify(await snapshot(service))).not.toContain('s3cret')
    } finally {
      await service.dispose()
    }
  }, 90_000)
})
