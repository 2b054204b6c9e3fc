import { BrowserWindow, shell, type WebContents, type WebPreferences } from 'electron'
import type { AppOrigin } from './origin'

/**
 * The renderer's web preferences. The renderer is untrusted (STYLE.md 3): isolated context,
 * Chromium sandbox, no Node anywhere (main frame, subframes, workers), no `<webview>`, and it
 * reaches main only through the preload's narrow API.
 * @param preload absolute path of out/preload/index.js.
 */
export function appWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true
  }
}

/**
 * Opens `url` in the user's browser when it is a plain http(s) link; anything else (file:,
 * javascript:, custom schemes that launch programs) is dropped.
 * @returns whether the link was handed to the OS.
 */
export function openExternalLink(
  url: string,
  open: (url: string) => Promise<void> = (u) => shell.openExternal(u)
): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false
  if (parsed.username || parsed.password) return false
  void open(parsed.href).catch(() => undefined)
  return true
}

const hardened = new WeakSet<WebContents>()

/**
 * Locks down any web contents: it may not navigate or redirect away from the app's page, never
 * opens a window (http(s) links go to the browser instead), and never attaches a `<webview>`.
 * Applied to every web contents the app creates (`web-contents-created`), not only the window;
 * applying it twice is a no-op.
 */
export function hardenWebContents(contents: WebContents, origin: AppOrigin): void {
  if (hardened.has(contents)) return
  hardened.add(contents)
  contents.on('will-navigate', (event) => {
    if (!origin.isAppUrl(event.url)) event.preventDefault()
  })
  contents.on('will-redirect', (event) => {
    if (!origin.isAppUrl(event.url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    openExternalLink(url)
    return { action: 'deny' }
  })
}

/** Inputs of {@link createAppWindow}. */
export interface AppWindowOptions {
  origin: AppOrigin
  /** Absolute path of out/preload/index.js. */
  preload: string
  /** Absolute path of out/renderer/index.html; loaded unless the origin is a dev server. */
  indexHtml: string
  /** ELECTRON_RENDERER_URL in `electron-vite dev`. */
  devServerUrl?: string
}

/** Creates the workspace window, hardened, and loads the renderer; shown once painted. */
export function createAppWindow(options: AppWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 800,
    minHeight: 500,
    show: false,
    title: 'Swarmdesk',
    backgroundColor: '#1e1e1e',
    webPreferences: appWebPreferences(options.preload)
  })
  hardenWebContents(window.webContents, options.origin)
  window.once('ready-to-show', () => window.show())
  if (options.devServerUrl) void window.loadURL(options.devServerUrl)
  else void window.loadFile(options.indexHtml)
  return window
}
