// Runs the built main bundle (argv[2]) in plain Node with a stand-in for the 'electron' module,
// since no Electron binary can run here: it boots the app, asks the workspace for a snapshot and
// a prompt through the registered IPC handlers as the window's page would, then quits and
// reports each step as one JSON line on stdout. Remaining argv go to the app (--cwd, --scenario).
const Module = require('node:module')
const { EventEmitter } = require('node:events')
const { join } = require('node:path')
const { pathToFileURL } = require('node:url')

const [bundle, appPath, ...appArgs] = process.argv.slice(2)
process.argv = [process.argv[0], '.', ...appArgs]
const report = (step, data) => process.stdout.write(`${JSON.stringify({ step, ...data })}\n`)
const pageUrl = pathToFileURL(join(appPath, 'out', 'renderer', 'index.html')).href
const handlers = new Map()
const windows = []
const pushes = {}

const app = Object.assign(new EventEmitter(), {
  isPackaged: false,
  requestSingleInstanceLock: () => true,
  enableSandbox: () => report('enableSandbox', {}),
  getAppPath: () => appPath,
  whenReady: () => Promise.resolve(),
  quit() {
    const event = { prevented: false, preventDefault: () => (event.prevented = true) }
    app.emit('will-quit', event)
    if (!event.prevented) {
      report('quit', { handlersLeft: handlers.size })
      process.exit(0)
    }
  },
  exit: (code) => {
    report('exit', { code })
    process.exit(code)
  }
})

class BrowserWindow extends EventEmitter {
  static getAllWindows = () => windows
  constructor(options) {
    super()
    this.options = options
    this.webContents = Object.assign(new EventEmitter(), {
      id: windows.length + 1,
      setWindowOpenHandler() {},
      isDestroyed: () => false,
      getURL: () => pageUrl,
      send: (channel) => (pushes[channel] = (pushes[channel] ?? 0) + 1)
    })
    windows.push(this)
  }
  loadFile(file) {
    report('loadFile', { file, webPreferences: this.options.webPreferences })
    return Promise.resolve()
  }
}

const electron = {
  app,
  BrowserWindow,
  ipcMain: {
    handle: (channel, handler) => handlers.set(channel, handler),
    removeHandler: (channel) => handlers.delete(channel)
  },
  dialog: { showErrorBox: (title, message) => report('errorBox', { title, message }) },
  session: {
    defaultSession: {
      setPermissionRequestHandler() {},
      setPermissionCheckHandler() {},
      setDevicePermissionHandler() {},
      webRequest: { onHeadersReceived() {} }
    }
  },
  shell: {},
  safeStorage: { isAsyncEncryptionAvailable: async () => false, getSelectedStorageBackend: () => 'unknown' }
}
const load = Module._load
Module._load = function (request, ...rest) {
  return request === 'electron' ? electron : load.call(this, request, ...rest)
}

require(bundle)

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
// sent by the first window's page: main routes a request to the workspace of its sender
const invoke = (channel, payload) =>
  handlers.get(channel)({ senderFrame: { url: pageUrl, parent: null }, sender: windows[0].webContents }, payload)
;(async () => {
  while (windows.length === 0) await sleep(20)
  report('channels', { channels: [...handlers.keys()] })
  report('snapshot', { answer: await invoke('workspace.snapshot', {}) })
  report('prompt', { answer: await invoke('leader.prompt', { text: 'Survey this project.' }) })
  while (!pushes['pane.data']) await sleep(20)
  report('pushes', { pushes })
  app.emit('window-all-closed')
  app.quit()
})()
