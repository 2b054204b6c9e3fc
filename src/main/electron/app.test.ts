import { EventEmitter } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { REQUEST_CHANNELS } from '../../shared/ipc'
import type { FakeIpcMain, FakeWorkspaceHost } from './testing'

const state = vi.hoisted(() => ({
  gotLock: true,
  app: undefined as unknown as EventEmitter & Record<string, unknown>,
  ipcMain: undefined as unknown as FakeIpcMain,
  windows: [] as Array<{ options: Record<string, unknown>; loaded: string[] }>,
  started: [] as Array<Record<string, unknown>>,
  service: undefined as unknown as FakeWorkspaceHost & { dispose: () => Promise<void> },
  disposed: 0,
  quits: 0
}))

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events')
  const { FakeIpcMain, FakeWebContents } = await import('./testing')
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
    readonly record: { options: Record<string, unknown>; loaded: string[] }
    constructor(options: Record<string, unknown>) {
      super()
      this.record = { options, loaded: [] }
      state.windows.push(this.record)
      BrowserWindow.all.push(this)
    }
    loadFile = async (path: string) => void this.record.loaded.push(path)
    loadURL = async (url: string) => void this.record.loaded.push(url)
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
    dialog: { showErrorBox: vi.fn() },
    session: { defaultSession: session },
    shell: { openExternal: vi.fn() },
    safeStorage: { isAsyncEncryptionAvailable: async () => false, getSelectedStorageBackend: () => 'unknown' }
  }
})

vi.mock('../runtime/workspace/service', async () => {
  const { FakeWorkspaceHost } = await import('./testing')
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
        return state.service
      }
    }
  }
})

const { runApp } = await import('./app')
const flush = () => new Promise((resolve) => setTimeout(resolve, 20))

beforeEach(() => {
  vi.stubEnv('SWARMDESK_HOME', join(tmpdir(), 'swarmdesk-app-test-home-unused'))
  vi.stubEnv('ANTHROPIC_API_KEY', undefined)
  state.app.removeAllListeners()
  state.ipcMain.handlers.clear()
  Object.assign(state, { gotLock: true, windows: [], started: [], disposed: 0, quits: 0 })
})

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
    const argv = process.argv
    process.argv = ['electron', '.', '--cwd', '/srv/repo', '--scenario', '/srv/s.yaml']
    try {
      runApp()
      await vi.waitFor(() => expect(state.windows).toHaveLength(1))
    } finally {
      process.argv = argv
    }
    expect(state.started).toMatchObject([{ cwd: '/srv/repo', scenario: '/srv/s.yaml' }])
    expect([...state.ipcMain.handlers.keys()].sort()).toEqual([...REQUEST_CHANNELS].sort())
    expect(state.windows).toHaveLength(1)
    expect(state.windows[0].options.webPreferences).toMatchObject({ preload: '/opt/swarmdesk/out/preload/index.js', sandbox: true, contextIsolation: true })
    expect(state.windows[0].loaded).toEqual(['/opt/swarmdesk/out/renderer/index.html'])
  })

  it('disposes the workspace before the process is allowed to quit', async () => {
    runApp()
    await vi.waitFor(() => expect(state.windows).toHaveLength(1))
    state.app.emit('window-all-closed')
    expect(state.disposed).toBe(0)
    expect(state.quits).toBe(1)
    await vi.waitFor(() => expect(state.quits).toBe(2))
    expect(state.disposed).toBe(1)
    expect(state.quits).toBe(2)
    expect(state.ipcMain.handlers.size).toBe(0)
  })
})
