import { EventEmitter } from 'node:events'
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { REQUEST_CHANNELS } from '../../shared/ipc'
import type { FakeIpcMain, FakeWorkspaceHost } from './electron.testkit'

const state = vi.hoisted(() => ({
  gotLock: true,
  app: undefined as unknown as EventEmitter & Record<string, unknown>,
  ipcMain: undefined as unknown as FakeIpcMain,
  windows: [] as Array<{ options: Record<string, unknown>; loaded: string[]; focused: number }>,
  dialogAnswer: { canceled: true, filePaths: [] as string[] },
  errorBoxes: [] as string[][],
  started: [] as Array<Record<string, unknown>>,
  service: undefined as unknown as FakeWorkspaceHost & { dispose: () => Promise<void> },
  services: [] as Array<FakeWorkspaceHost & { dispose: () => Promise<void> }>,
  disposed: 0,
  quits: 0
}))

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events')
  const { FakeIpcMain, FakeWebContents } = await import('./electron.testkit')
  state.ipcMain = new FakeIpcMain()
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    requestSingleInstanceLock: () => state.gotLock,
    enableSandbox: vi.fn(),
    getAppPath: () => '/opt/swarmdesk',
    whenReady: () => Promise.resolve(),
    quit: () => {
      state.quits++
      const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) }
      app.emit('will-quit', event)
    },
    exit: vi.fn()
  })
  state.app = app as never
  class BrowserWindow extends EventEmitter {
    static all: BrowserWindow[] = []
    static getAllWindows = () => BrowserWindow.all
    readonly webContents = new FakeWebContents()
    readonly record: { options: Record<string, unknown>; loaded: string[]; focused: number }
    constructor(options: Record<string, unknown>) {
      super()
      this.record = { options, loaded: [], focused: 0 }
      state.windows.push(this.record)
      BrowserWindow.all.push(this)
    }
    loadFile = async (path: string) => void this.record.loaded.push(path)
    loadURL = async (url: string) => void this.record.loaded.push(url)
    isMinimized = () => false
    isDestroyed = () => false
    restore = () => undefined
    focus = () => void this.record.focused++
  }
  const session = {
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
    setDevicePermissionHandler: vi.fn(),
    webRequest: { onHeadersReceived: vi.fn() }
  }
  return {
    app,
    BrowserWindow,
    ipcMain: state.ipcMain,
    dialog: {
      showErrorBox: (...args: string[]) => void state.errorBoxes.push(args),
      showOpenDialog: async () => state.dialogAnswer
    },
    session: { defaultSession: session },
    shell: { openExternal: vi.fn() },
    safeStorage: { isAsyncEncryptionAvailable: async () => false, getSelectedStorageBackend: () => 'unknown' }
  }
})

vi.mock('../app/service', async () => {
  const { FakeWorkspaceHost } = await import('./electron.testkit')
  return {
    WorkspaceService: {
      start: async (options: Record<string, unknown>) => {
        state.started.push(options)
        state.service = Object.assign(new FakeWorkspaceHost(), {
          dispose: async () => {
            await new Promise((resolve) => setTimeout(resolve, 10))
            state.disposed++
          }
        })
        state.services.push(state.service)
        return state.service
      }
    }
  }
})

const { runApp } = await import('./app')
const flush = () => new Promise((resolve) => setTimeout(resolve, 20))

let root: string
const folder = (name: string): string => {
  const path = join(root, name)
  mkdirSync(path, { recursive: true })
  return path
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-app-test-')))
  vi.stubEnv('SWARMDESK_HOME', join(root, 'home'))
  vi.stubEnv('ANTHROPIC_API_KEY', undefined)
  state.app.removeAllListeners()
  state.ipcMain.handlers.clear()
  Object.assign(state, {
    gotLock: true,
    windows: [],
    started: [],
    services: [],
    disposed: 0,
    quits: 0,
    errorBoxes: [],
    dialogAnswer: { canceled: true, filePaths: [] }
  })
})

/** Runs the app as launched with `argv` after the executable. */
async function launch(argv: string[]): Promise<void> {
  const saved = process.argv
  process.argv = ['electron', ...argv]
  try {
    runApp()
    await vi.waitFor(() => expect(state.windows).toHaveLength(1))
  } finally {
    process.argv = saved
  }
}

describe('app boot', () => {
  it('quits at once when another instance holds the lock', async () => {
    state.gotLock = false
    runApp()
    await flush()
    expect(state.quits).toBe(1)
    expect(state.started).toEqual([])
    expect(state.windows).toEqual([])
  })

  it('starts the workspace of --cwd, registers every channel, then opens the sandboxed window', async () => {
    await launch(['.', '--cwd', folder('repo'), '--scenario', '/srv/s.yaml'])
    expect(state.started).toMatchObject([{ cwd: join(root, 'repo'), scenario: '/srv/s.yaml' }])
    expect([...state.ipcMain.handlers.keys()].sort()).toEqual([...REQUEST_CHANNELS].sort())
    expect(state.windows).toHaveLength(1)
    expect(state.windows[0].options.webPreferences).toMatchObject({
      preload: '/opt/swarmdesk/out/preload/index.js',
      sandbox: true,
      contextIsolation: true
    })
    expect(state.windows[0].loaded).toEqual(['/opt/swarmdesk/out/renderer/index.html'])
  })

  it('disposes the workspace before the process is allowed to quit', async () => {
    await launch(['.', '--cwd', folder('repo')])
    state.app.emit('window-all-closed')
    expect(state.disposed).toBe(0)
    expect(state.quits).toBe(1)
    await vi.waitFor(() => expect(state.quits).toBe(2))
    expect(state.disposed).toBe(1)
    expect(state.quits).toBe(2)
    expect(state.ipcMain.handlers.size).toBe(0)
  })

  it('shows why and exits when the launch folder cannot be opened', async () => {
    const saved = process.argv
    process.argv = ['electron', '.', '--cwd', join(root, 'missing')]
    try {
      runApp()
      await vi.waitFor(() => expect(state.errorBoxes).toHaveLength(1))
    } finally {
      process.argv = saved
    }
    expect(state.errorBoxes[0]).toEqual([
      'Swarmdesk cannot open the workspace',
      expect.stringContaining(`${join(root, 'missing')} does not exist`)
    ])
    expect(state.windows).toEqual([])
  })
})

describe('one window per workspace', () => {
  it('a second launch naming another folder opens it in a second window; naming an open one focuses it; naming none focuses the app', async () => {
    await launch(['.', '--cwd', folder('a')])
    folder('b')
    state.app.emit('second-instance', {}, ['electron', '.', '--cwd', 'b'], root)
    await vi.waitFor(() => expect(state.windows).toHaveLength(2))
    expect(state.started.map((s) => s.cwd)).toEqual([join(root, 'a'), join(root, 'b')])
    state.app.emit('second-instance', {}, ['electron', '.', '--cwd', join(root, 'a')], '/')
    await vi.waitFor(() => expect(state.windows[0]!.focused).toBe(1))
    state.app.emit('second-instance', {}, ['electron', '.'], '/')
    await vi.waitFor(() => expect(state.windows[1]!.focused).toBe(1))
    expect(state.windows).toHaveLength(2)
    state.app.emit('second-instance', {}, ['electron', '.', '--cwd', join(root, 'nope')], '/')
    await vi.waitFor(() => expect(state.errorBoxes).toHaveLength(1))
    expect(state.errorBoxes[0]![1]).toContain('does not exist')
  })

  it('a second launch while the first workspace is still starting opens its folder once that one is up', async () => {
    const saved = process.argv
    process.argv = ['electron', '.', '--cwd', folder('a')]
    try {
      runApp()
      state.app.emit('second-instance', {}, ['electron', '.', '--cwd', folder('early')], '/')
      await vi.waitFor(() => expect(state.windows).toHaveLength(2))
    } finally {
      process.argv = saved
    }
    expect(state.started.map((s) => s.cwd)).toEqual([join(root, 'a'), join(root, 'early')])
  })

  it('routes each window’s requests to its own workspace, opens "Open folder…" through main’s dialog, and lists both as recent', async () => {
    await launch(['.', '--cwd', folder('a')])
    state.dialogAnswer = { canceled: false, filePaths: [folder('b')] }
    const { BrowserWindow } = (await import('electron')) as unknown as {
      BrowserWindow: { all: Array<{ webContents: { id: number } }> }
    }
    const [first] = BrowserWindow.all.slice(-1)
    expect(await state.ipcMain.invoke('workspaces.open', {}, undefined, { id: first!.webContents.id })).toEqual({
      ok: true,
      result: { opened: true, path: join(root, 'b'), alreadyOpen: false }
    })
    expect(state.windows).toHaveLength(2)
    const second = BrowserWindow.all.at(-1)!
    await state.ipcMain.invoke('leader.prompt', { text: 'hello b' }, undefined, { id: second.webContents.id })
    expect(state.services[0]!.calls).toEqual([])
    expect(state.services[1]!.calls).toEqual([{ channel: 'leader.prompt', payload: { text: 'hello b' } }])
    expect(await state.ipcMain.invoke('workspaces.menu', {}, undefined, { id: second.webContents.id })).toMatchObject({
      ok: true,
      result: { current: join(root, 'b'), recent: [{ name: 'b' }, { name: 'a' }], picker: 'dialog' }
    })
  })

  it('closing one window disposes only its workspace; the last window closing quits after disposing the rest', async () => {
    await launch(['.', '--cwd', folder('a')])
    state.app.emit('second-instance', {}, ['electron', '.', '--cwd', folder('b')], '/')
    await vi.waitFor(() => expect(state.windows).toHaveLength(2))
    const { BrowserWindow } = (await import('electron')) as unknown as { BrowserWindow: { all: EventEmitter[] } }
    BrowserWindow.all.at(-2)!.emit('closed')
    await vi.waitFor(() => expect(state.disposed).toBe(1))
    expect(state.quits).toBe(0)
    BrowserWindow.all.at(-1)!.emit('closed')
    state.app.emit('window-all-closed')
    await vi.waitFor(() => expect(state.quits).toBe(2))
    expect(state.disposed).toBe(2)
  })
})
