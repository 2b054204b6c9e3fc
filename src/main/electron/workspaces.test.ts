import { EventEmitter } from 'node:events'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RecentWorkspaces } from '../workspaces/recent'
import { registerWorkspaceIpc } from './ipc'
import { createAppOrigin } from './origin'
import { APP_URL, FakeIpcMain, FakeWebContents, FakeWorkspaceHost, INDEX_HTML } from './electron.testkit'
import { secondLaunchFolder, WorkspaceRegistry, type WorkspaceWindow } from './workspaces'

vi.mock('electron', () => ({}))

/** A window with real `once`/`emit`, its own web contents, and recorded focus calls. */
class FakeWindow extends EventEmitter {
  readonly webContents = new FakeWebContents()
  minimized = false
  focused = 0
  restored = 0
  destroyed = false
  focus(): void {
    this.focused++
  }
  isMinimized(): boolean {
    return this.minimized
  }
  restore(): void {
    this.restored++
    this.minimized = false
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  close(): void {
    this.destroyed = true
    this.webContents.destroyed = true
    this.emit('closed')
  }
}

/** A service that answers with its folder and counts its disposal. */
class FakeService extends FakeWorkspaceHost {
  disposed = 0
  constructor(readonly folder: string) {
    super()
    this.answer = async (channel) => ({ folder: this.folder, channel })
  }
  async dispose(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 5))
    this.disposed++
  }
}

let root: string
let services: FakeService[]
let windows: FakeWindow[]
let picked: string | undefined
let pickerParents: unknown[]
let ipcMain: FakeIpcMain
let registry: WorkspaceRegistry
let failStart: string | undefined

const folder = (name: string): string => {
  const path = join(root, name)
  mkdirSync(path, { recursive: true })
  return path
}
const windowOf = (path: string): FakeWindow => windows[services.findIndex((s) => s.folder === path)]!
const invokeFrom = (window: FakeWindow, channel: string, payload: unknown) =>
  ipcMain.invoke(channel, payload, { url: APP_URL, parent: null }, { id: window.webContents.id })

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-registry-')))
  services = []
  windows = []
  picked = undefined
  pickerParents = []
  failStart = undefined
  ipcMain = new FakeIpcMain()
  registry = new WorkspaceRegistry({
    origin: createAppOrigin(INDEX_HTML),
    recent: new RecentWorkspaces(join(root, 'home')),
    startService: async (path) => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (path === failStart) throw new Error('no API key')
      const service = new FakeService(path)
      services.push(service)
      return service
    },
    createWindow: () => {
      const window = new FakeWindow()
      windows.push(window)
      return window as unknown as WorkspaceWindow
    },
    pickFolder: async (parent) => {
      pickerParents.push(parent)
      return picked
    },
    log: () => undefined
  })
  registerWorkspaceIpc({ ipcMain, host: registry.router, origin: createAppOrigin(INDEX_HTML), targets: () => [] })
})
afterEach(async () => {
  await registry.dispose()
  rmSync(root, { recursive: true, force: true })
})

describe('workspace registry', () => {
  it('opens each folder in its own window with its own service, and records it in the recent list', async () => {
    const a = folder('a')
    const b = folder('b')
    expect(await registry.open(a)).toEqual({ path: a, alreadyOpen: false })
    expect(await registry.open(b)).toEqual({ path: b, alreadyOpen: false })
    expect(registry.folders()).toEqual([a, b])
    expect(windows).toHaveLength(2)
    expect(services.map((s) => s.folder)).toEqual([a, b])
    expect((await registry.router.handle('workspaces.menu', {}, windows[0]!.webContents)) as object).toMatchObject({
      current: a,
      recent: [{ path: b }, { path: a }],
      picker: 'dialog'
    })
  })

  it('focuses (and restores) the window of a folder that is already open, also by another path to it, instead of opening a second', async () => {
    const a = folder('a')
    symlinkSync(a, join(root, 'link-to-a'))
    await registry.open(a)
    windows[0]!.minimized = true
    expect(await registry.open(join(root, 'link-to-a'))).toEqual({ path: a, alreadyOpen: true })
    expect(windows).toHaveLength(1)
    expect(services).toHaveLength(1)
    expect(windows[0]).toMatchObject({ restored: 1, focused: 1, minimized: false })
  })

  it('starts one service when the same folder is opened twice at once', async () => {
    const a = folder('a')
    const both = await Promise.all([registry.open(a), registry.open(a)])
    expect(both.map((r) => r.path)).toEqual([a, a])
    expect(services).toHaveLength(1)
    expect(windows).toHaveLength(1)
  })

  it('routes each request to the service of the window that sent it', async () => {
    const a = folder('a')
    const b = folder('b')
    await registry.open(a)
    await registry.open(b)
    expect(await invokeFrom(windowOf(b), 'workspace.snapshot', {})).toEqual({
      ok: true,
      result: { folder: b, channel: 'workspace.snapshot' }
    })
    expect(await invokeFrom(windowOf(a), 'leader.prompt', { text: 'hi' })).toEqual({
      ok: true,
      result: { folder: a, channel: 'leader.prompt' }
    })
    expect(services[0]!.calls).toEqual([{ channel: 'leader.prompt', payload: { text: 'hi' } }])
    expect(services[1]!.calls).toEqual([{ channel: 'workspace.snapshot', payload: {} }])
  })

  it('refuses a request from web contents that show no workspace, and still checks the sender frame first', async () => {
    await registry.open(folder('a'))
    expect(await ipcMain.invoke('workspace.snapshot', {}, { url: APP_URL, parent: null }, { id: 987654 })).toEqual({
      ok: false,
      error: { name: 'NoWorkspaceError', message: expect.stringContaining('no open workspace') }
    })
    expect(
      await ipcMain.invoke(
        'workspace.snapshot',
        {},
        { url: 'https://example.com/', parent: null },
        { id: windows[0]!.webContents.id }
      )
    ).toMatchObject({ ok: false, error: { name: 'ForbiddenSenderError' } })
    expect(services[0]!.calls).toEqual([])
  })

  it("pushes each service's events to its own window only", async () => {
    await registry.open(folder('a'))
    await registry.open(folder('b'))
    services[0]!.push('pane.data', { agentId: 'team-lead', data: 'from a', chunk: 1 })
    services[1]!.push('pane.data', { agentId: 'team-lead', data: 'from b', chunk: 1 })
    expect(windows[0]!.webContents.sent).toEqual([
      { channel: 'pane.data', payload: { agentId: 'team-lead', data: 'from a', chunk: 1 } }
    ])
    expect(windows[1]!.webContents.sent).toEqual([
      { channel: 'pane.data', payload: { agentId: 'team-lead', data: 'from b', chunk: 1 } }
    ])
  })

  it('mutes a pane for the window that asks (pane.mute), acknowledging in its name what it leaves out, and resumes it on unmute', async () => {
    await registry.open(folder('a'))
    await registry.open(folder('b'))
    const [wa, wb] = windows as [FakeWindow, FakeWindow]
    const data = (sent: FakeWebContents['sent']) => sent.filter((s) => s.channel === 'pane.data').map((s) => s.payload)
    expect(await invokeFrom(wa, 'pane.mute', { agentId: 'team-lead', muted: true })).toEqual({
      ok: true,
      result: { ok: true }
    })
    expect(services[0]!.calls).toEqual([]) // the window's own forwarder took it
    for (const chunk of [1, 2, 3]) services[0]!.push('pane.data', { agentId: 'team-lead', data: `a${chunk}`, chunk })
    services[0]!.push('pane.data', { agentId: 'carol', data: 'c1', chunk: 1 })
    services[1]!.push('pane.data', { agentId: 'team-lead', data: 'b1', chunk: 1 })
    expect(data(wa.webContents.sent)).toEqual([{ agentId: 'carol', data: 'c1', chunk: 1 }])
    expect(data(wb.webContents.sent)).toEqual([{ agentId: 'team-lead', data: 'b1', chunk: 1 }])
    // the page acknowledges to the service what it is sent; what it is not sent, main acknowledges for it, once per macrotask
    await new Promise((resolve) => setImmediate(resolve))
    expect(services[0]!.calls).toEqual([
      { channel: 'pane.ack', payload: { acks: [{ agentId: 'team-lead', chunk: 3 }] } }
    ])
    expect(await invokeFrom(wa, 'pane.mute', { agentId: 'team-lead', muted: false })).toEqual({
      ok: true,
      result: { ok: true }
    })
    services[0]!.push('pane.data', { agentId: 'team-lead', data: 'a4', chunk: 4 })
    expect(data(wa.webContents.sent).at(-1)).toEqual({ agentId: 'team-lead', data: 'a4', chunk: 4 })
    expect(await invokeFrom(wa, 'pane.mute', { agentId: '', muted: 'yes' })).toMatchObject({
      ok: false,
      error: { name: 'InvalidPayloadError', message: expect.stringMatching(/agentId.*muted/s) }
    })
    await expect(registry.router.handle('pane.mute', { agentId: 'x' }, wa.webContents)).rejects.toThrow(/muted/)
  })

  it('disposes the service of a closed window, stops its pushes, and forgets the folder so it can be opened again', async () => {
    const a = folder('a')
    const b = folder('b')
    await registry.open(a)
    await registry.open(b)
    const [first] = windows
    first!.close()
    expect(registry.folders()).toEqual([b])
    expect(services[0]!.listenerCount).toBe(0)
    await vi.waitFor(() => expect(services[0]!.disposed).toBe(1))
    expect(services[1]!.disposed).toBe(0)
    expect(await invokeFrom(first!, 'workspace.snapshot', {})).toMatchObject({
      ok: false,
      error: { name: 'NoWorkspaceError' }
    })
    expect(await registry.open(a)).toEqual({ path: a, alreadyOpen: false })
    expect(services).toHaveLength(3)
  })

  it('dispose() waits for every service, including those of windows closed just before, and refuses later opens', async () => {
    await registry.open(folder('a'))
    await registry.open(folder('b'))
    windows[0]!.close()
    await registry.dispose()
    expect(services.map((s) => s.disposed)).toEqual([1, 1])
    await expect(registry.open(folder('c'))).rejects.toThrow(/quitting/)
  })

  it('refuses a folder that does not exist or is a file with a clear error, and opens no window', async () => {
    await registry.open(folder('a'))
    const answer = await invokeFrom(windows[0]!, 'workspaces.open', { path: join(root, 'nope') })
    expect(answer).toEqual({
      ok: false,
      error: {
        name: 'NotAFolderError',
        message: `${join(root, 'nope')} does not exist: check the path, or create the folder first.`
      }
    })
    expect(windows).toHaveLength(1)
  })

  it('reports a runtime that cannot start, creating no window and recording nothing', async () => {
    await registry.open(folder('a'))
    failStart = folder('broken')
    expect(await invokeFrom(windows[0]!, 'workspaces.open', { path: failStart })).toEqual({
      ok: false,
      error: { name: 'Error', message: 'no API key' }
    })
    expect(windows).toHaveLength(1)
    expect((await new RecentWorkspaces(join(root, 'home')).list()).map((e) => e.name)).toEqual(['a'])
  })

  it('"Open folder…" asks main’s folder picker, parented to the asking window; a cancel opens nothing', async () => {
    await registry.open(folder('a'))
    expect(await invokeFrom(windows[0]!, 'workspaces.open', {})).toEqual({ ok: true, result: { opened: false } })
    expect(pickerParents).toEqual([windows[0]])
    picked = folder('picked')
    expect(await invokeFrom(windows[0]!, 'workspaces.open', {})).toEqual({
      ok: true,
      result: { opened: true, path: picked, alreadyOpen: false }
    })
    expect(registry.folders()).toEqual([join(root, 'a'), picked])
  })

  it('answers the menu from the recent list, marks a missing folder, forgets it on request, and reports a corrupt list instead of failing', async () => {
    const gone = folder('gone')
    await registry.open(gone)
    await registry.open(folder('a'))
    windows[0]!.close()
    rmSync(gone, { recursive: true })
    const fromA = windows[1]!
    const menu = (await invokeFrom(fromA, 'workspaces.menu', {})) as {
      result: { recent: Array<{ name: string; missing: boolean }> }
    }
    expect(menu.result.recent.map((e) => [e.name, e.missing])).toEqual([
      ['a', false],
      ['gone', true]
    ])
    expect(await invokeFrom(fromA, 'workspaces.forget', { path: gone })).toMatchObject({
      ok: true,
      result: { recent: [{ name: 'a' }] }
    })
    const { writeFileSync } = await import('node:fs')
    writeFileSync(join(root, 'home', 'recent.json'), 'not json')
    expect(await invokeFrom(fromA, 'workspaces.menu', {})).toMatchObject({
      ok: true,
      result: { current: join(root, 'a'), recent: [], problem: expect.stringContaining('is not valid JSON') }
    })
  })
})

describe('second launch arguments', () => {
  it('takes --cwd, relative to the second launch’s directory', () => {
    expect(secondLaunchFolder(['/opt/Swarmdesk/swarmdesk', '--cwd', 'repo'], '/home/me', true)).toEqual({
      folder: '/home/me/repo'
    })
    expect(secondLaunchFolder(['electron', '.', '--cwd=/srv/x'], '/home/me', false)).toEqual({ folder: '/srv/x' })
  })

  it('takes a positional folder only in a packaged app (in development it is the app path)', () => {
    expect(secondLaunchFolder(['/opt/Swarmdesk/swarmdesk', '--no-sandbox', '/srv/project'], '/home/me', true)).toEqual({
      folder: '/srv/project'
    })
    expect(secondLaunchFolder(['electron', '.'], '/home/me', false)).toEqual({ folder: undefined })
    expect(secondLaunchFolder(['/opt/Swarmdesk/swarmdesk'], '/home/me', true)).toEqual({ folder: undefined })
  })
})
