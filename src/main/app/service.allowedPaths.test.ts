import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamAllowedPaths, WorkspaceSnapshot } from '../../shared/ipc'
import { openTeamStore, parseTeamTransport } from '../runtime/teamStore'
import { startNatsServer, type NatsServer } from '../runtime/teamStore/natsServer.testkit'
import { editAllowedPaths } from '../runtime/teammates'
import { PushLog } from './pushes.testkit'
import { WorkspaceService } from './service'

// The dashboard's "Allowed paths" (docs/teams.md#allowed-paths, docs/ui.md#team-dashboard): a served
// workspace shows its team's allowed paths in the snapshot, pushes them when they change — from the
// UI or from elsewhere (another store on the same files or server, as `swarmdesk team allow` is) —
// and edits them, with refusals said in full. On the files and on a real nats-server.

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

async function open(teamTransport?: string) {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-shared-')))
  dirs.push(home, work, outside)
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  mkdirSync(join(work, 'docs'))
  const scenario = join(home, 's.yaml')
  writeFileSync(scenario, 'agents:\n  team-lead:\n    - { text: "Noted." }\n')
  const service = await WorkspaceService.start({
    cwd: work,
    home,
    scenario,
    env: {},
    mode: 'bypassPermissions',
    ...(teamTransport ? { teamTransport } : {})
  })
  return { service, home, work, outside }
}

const snapshot = async (service: WorkspaceService): Promise<WorkspaceSnapshot> =>
  (await service.handle('workspace.snapshot', {})) as WorkspaceSnapshot
const edit = (service: WorkspaceService, action: 'add' | 'remove', path: string) =>
  service.handle('team.editAllowedPath', { action, path }) as Promise<TeamAllowedPaths>

describe.each([
  ['files', () => undefined],
  ['a NATS server', () => `nats://127.0.0.1:${server.port}`]
])("a served workspace's team allowed paths on %s", (_, transport) => {
  it('are in the snapshot, edited from the UI and elsewhere, pushed on each change, and refusals say why', async () => {
    const { service, home, work, outside } = await open(transport())
    const pushes = new PushLog()
    service.onPush(pushes.record)
    const elsewhere = await openTeamStore(home, parseTeamTransport(transport() ?? 'files'))
    try {
      expect((await snapshot(service)).allowedPaths).toEqual({ paths: [] })
      await expect(edit(service, 'add', outside)).rejects.toThrow(/leads no team: create one first/)

      await service.handle('team.create', { name: 'crew' })
      await until(() => pushes.of('team.allowedPaths').some((p) => p.team === 'crew'), 'the new team pushed')
      expect((await snapshot(service)).allowedPaths).toEqual({ team: 'crew', paths: [] })

      // a relative path is the workspace's folder
      expect(await edit(service, 'add', 'docs')).toEqual({ team: 'crew', paths: [join(work, 'docs')] })
      expect(await edit(service, 'add', outside)).toEqual({ team: 'crew', paths: [join(work, 'docs'), outside] })
      expect(pushes.of('team.allowedPaths').at(-1)).toEqual({ team: 'crew', paths: [join(work, 'docs'), outside] })
      expect((await elsewhere.config.read('crew')).allowedPaths).toEqual([join(work, 'docs'), outside])

      // refused in full: the message of AllowedPathError
      await expect(edit(service, 'add', '/')).rejects.toThrow(
        '/ would let every teammate edit every file on the machine: give a narrower directory'
      )
      await expect(edit(service, 'add', '  ')).rejects.toThrow('the path is empty: give a directory')

      // changed elsewhere (as `swarmdesk team disallow` does): pushed within about a second
      await editAllowedPaths(elsewhere, 'crew', { remove: join(work, 'docs') })
      await until(
        () => pushes.of('team.allowedPaths').at(-1)?.paths.length === 1,
        'the change made elsewhere pushed',
        15_000
      )
      expect(pushes.of('team.allowedPaths').at(-1)).toEqual({ team: 'crew', paths: [outside] })

      expect(await edit(service, 'remove', outside)).toEqual({ team: 'crew', paths: [] })
      expect((await snapshot(service)).allowedPaths).toEqual({ team: 'crew', paths: [] })
    } finally {
      await elsewhere.close()
      await service.dispose()
    }
  }, 90_000)
})
