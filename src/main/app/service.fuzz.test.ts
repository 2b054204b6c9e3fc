import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../runtime/pty/pty.testkit'
import { requestChannels, type PushChannel, type WorkspaceSnapshot } from '../../shared/ipc'
import { fuzzCases } from '../testkit/ipcFuzz.testkit'
import { IpcRequestError, WorkspaceService } from './service'

// Issue 10: 10,000 random and malformed payloads against every request channel of the workspace
// service (what Electron's IPC handlers and the web bridge call) → each refused with a typed
// error naming the channel, nothing pushed, nothing changed, no prototype polluted, and the
// service still answers a valid request afterwards.

let home: string
let work: string
let service: WorkspaceService

beforeAll(async () => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-fuzz-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-fuzz-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  const scenario = join(home, 's.yaml')
  writeFileSync(scenario, 'agents:\n  team-lead:\n    - text: "still answering"\n')
  service = await WorkspaceService.start({ cwd: work, home, scenario, env: {} })
})
afterAll(async () => {
  await service?.dispose()
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

/** The service validates `payload ?? {}` (a missing payload is an empty one). */
const serviceRejects = (channel: keyof typeof requestChannels, payload: unknown) =>
  !requestChannels[channel].request.safeParse(payload ?? {}).success

describe('workspace service under malformed requests', () => {
  it('refuses 10,000 malformed payloads on every channel with a typed error, and changes nothing', async () => {
    const cases = fuzzCases(10_000, 20261201, serviceRejects)
    // every channel gets its share (the generator is built from each channel's schema)
    for (const channel of Object.keys(requestChannels))
      expect(cases.filter((c) => c.channel === channel).length, channel).toBeGreaterThan(100)
    const before = (await service.handle('workspace.snapshot', {})) as WorkspaceSnapshot
    // the workspace's own restore files (workspace/restore) are written shortly after start, fuzz or not
    await waitFor(
      () =>
        readdirSync(home, { recursive: true })
          .map(String)
          .some((f) => f.endsWith('workspace.json')) &&
        readdirSync(home, { recursive: true })
          .map(String)
          .some((f) => /\/panes\/[0-9a-f]{32}\.[01]\.out$/.test(f)),
      30_000
    )
    const files = readdirSync(home, { recursive: true }).sort()
    const pushes: PushChannel[] = []
    const sub = service.onPush((channel) => pushes.push(channel))
    const surprises: string[] = []
    for (const c of cases) {
      try {
        await service.handle(c.channel, c.payload)
        surprises.push(`${c.channel} (${c.mutation}) was accepted`)
      } catch (error) {
        const named =
          c.mutation === 'unknown channel'
            ? /^Unknown request channel/
            : new RegExp(`^Bad payload for '${c.channel.replace(/\./g, '\\.')}'`)
        if (!(error instanceof IpcRequestError) || !named.test(error.message))
          surprises.push(`${c.channel} (${c.mutation}): ${String(error)}`.slice(0, 300))
      }
    }
    sub.dispose()
    expect(surprises).toEqual([])
    expect(pushes).toEqual([])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect(await service.handle('workspace.snapshot', {})).toEqual(before)
    expect(readdirSync(home, { recursive: true }).sort()).toEqual(files)
    // and it still works
    const events: unknown[] = []
    const after = service.onPush((channel, payload) => channel === 'runtime.event' && events.push(payload))
    await service.handle('leader.prompt', { text: 'are you there?' })
    await service.whenIdle()
    after.dispose()
    expect(events).toContainEqual(expect.objectContaining({ type: 'assistant_text', text: 'still answering' }))
  }, 120_000)
})
