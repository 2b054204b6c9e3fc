import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PendingPermission, WorkspaceSnapshot } from '../../shared/ipc'
import type { IpcResult } from '../../shared/ipcResult'
import { createDemoWorkspace, demoPaths } from '../app/demoWorkspace'
import { WorkspaceService } from '../app/service'
import { registerWorkspaceIpc } from './ipc'
import { createAppOrigin } from './origin'
import { APP_URL, FakeIpcMain, FakeWebContents, INDEX_HTML } from './electron.testkit'

vi.mock('electron', () => ({}))

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

/** The real workspace runtime on a fresh demo repository, behind the real IPC handlers. */
async function openDemo() {
  const parent = await mkdtemp(join(tmpdir(), 'swarmdesk-ipc-'))
  cleanup.push(() => rm(parent, { recursive: true, force: true }))
  const cwd = await createDemoWorkspace(parent)
  const service = await WorkspaceService.start({
    cwd,
    home: join(parent, 'home'),
    scenario: demoPaths().scenario,
    settingsFiles: [],
    trustProject: false,
    env: { ...process.env, ANTHROPIC_API_KEY: undefined }
  })
  cleanup.push(() => service.dispose())
  const ipcMain = new FakeIpcMain()
  const window = new FakeWebContents()
  const registration = registerWorkspaceIpc({
    ipcMain,
    host: service,
    origin: createAppOrigin(INDEX_HTML),
    targets: () => [window.asWebContents()]
  })
  cleanup.push(async () => registration.dispose())
  const request = async (channel: string, payload: unknown, frame = { url: APP_URL, parent: null }) =>
    (await ipcMain.invoke(channel, payload, frame)) as IpcResult
  return { cwd, service, window, request }
}

function pushed<T>(window: FakeWebContents, channel: string): T[] {
  return window.sent.filter((s) => s.channel === channel).map((s) => s.payload as T)
}

describe('the IPC handlers over the real workspace service', () => {
  it('drives the offline demo: snapshot, prompt, a permission answered over IPC, pushes to the window', async () => {
    const { cwd, service, window, request } = await openDemo()

    const first = await request('workspace.snapshot', {})
    expect(first).toMatchObject({ ok: true, result: { cwd, scripted: true, busy: false } })

    expect(await request('leader.prompt', { text: '' })).toMatchObject({
      ok: false,
      error: { name: 'InvalidPayloadError' }
    })
    expect(await request('leader.prompt', { text: 'go' }, { url: 'https://example.com/', parent: null })).toMatchObject(
      { ok: false, error: { name: 'ForbiddenSenderError' } }
    )
    expect((await request('workspace.snapshot', {})) as { result: WorkspaceSnapshot }).toMatchObject({
      result: { busy: false }
    })

    expect(
      await request('leader.prompt', { text: 'Survey this project, run its tests, and fix whatever makes them fail.' })
    ).toEqual({ ok: true, result: { ok: true } })
    expect(await request('leader.prompt', { text: 'again' })).toMatchObject({
      ok: false,
      error: { name: 'IpcRequestError', message: expect.stringContaining('still working') }
    })

    // The demo's Edit of src/wordfreq.js asks a person; answer it as the UI would.
    let edit: PendingPermission | undefined
    await vi.waitFor(
      () => {
        edit = pushed<{ permissions: PendingPermission[] }>(window, 'permissions.changed')
          .flatMap((p) => p.permissions)
          .find((p) => p.tool === 'Edit')
        expect(edit).toBeDefined()
      },
      { timeout: 60_000, interval: 50 }
    )
    expect(await request('permission.respond', { requestId: edit!.requestId, decision: 'allow' })).toEqual({
      ok: true,
      result: { ok: true }
    })
    expect(await request('permission.respond', { requestId: edit!.requestId, decision: 'deny' })).toEqual({
      ok: true,
      result: { ok: false }
    })

    await service.whenIdle()
    const last = (await request('workspace.snapshot', {})) as { ok: true; result: WorkspaceSnapshot }
    expect(last.result).toMatchObject({ busy: false, permissions: [] })
    const events = pushed<{ seq: number; type: string }>(window, 'runtime.event')
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b))
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['tool_call', 'tool_result', 'permission_request', 'permission_decided'])
    )
    expect(await readFile(join(cwd, 'src', 'wordfreq.js'), 'utf8')).toContain('b.count - a.count')
    expect(pushed(window, 'pane.data').length).toBeGreaterThan(0)

    const pane = (await request('pane.scrollback', { agentId: last.result.agents[0].agentId })) as {
      ok: true
      result: { data: string }
    }
    expect(pane.result.data).toContain('npm test')
  }, 90_000)
})
