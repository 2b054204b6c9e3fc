import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppOrigin } from './origin'
import { APP_URL, FakeWebContents, fakeEvent, INDEX_HTML } from './electron.testkit'

const electron = vi.hoisted(() => {
  const windows: Array<{ options: Record<string, unknown>; loaded: Array<[string, string]> }> = []
  return { windows, openExternal: async (_url: string) => undefined }
})

vi.mock('electron', async () => {
  const { FakeWebContents } = await import('./electron.testkit')
  class BrowserWindow {
    readonly webContents = new FakeWebContents()
    readonly record: { options: Record<string, unknown>; loaded: Array<[string, string]> }
    constructor(options: Record<string, unknown>) {
      this.record = { options, loaded: [] }
      electron.windows.push(this.record)
    }
    once(): void {}
    loadFile(path: string): Promise<void> {
      this.record.loaded.push(['file', path])
      return Promise.resolve()
    }
    loadURL(url: string): Promise<void> {
      this.record.loaded.push(['url', url])
      return Promise.resolve()
    }
  }
  return { BrowserWindow, shell: { openExternal: (url: string) => electron.openExternal(url) } }
})

const { createAppWindow, hardenWebContents, openExternalLink } = await import('./window')
const origin = createAppOrigin(INDEX_HTML)

beforeEach(() => {
  electron.windows.length = 0
})

describe('the app window', () => {
  it('isolates and sandboxes the renderer, without Node, with the preload', () => {
    createAppWindow({ origin, preload: '/opt/swarmdesk/out/preload/index.js', indexHtml: INDEX_HTML })
    const prefs = electron.windows[0].options.webPreferences as Record<string, unknown>
    expect(prefs).toMatchObject({
      preload: '/opt/swarmdesk/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false
    })
  })

  it('loads the built index.html from disk, or the dev server URL in development', () => {
    createAppWindow({ origin, preload: '/p.js', indexHtml: INDEX_HTML })
    createAppWindow({
      origin: createAppOrigin(INDEX_HTML, 'http://localhost:5173/'),
      preload: '/p.js',
      indexHtml: INDEX_HTML,
      devServerUrl: 'http://localhost:5173/'
    })
    expect(electron.windows.map((w) => w.loaded)).toEqual([[['file', INDEX_HTML]], [['url', 'http://localhost:5173/']]])
  })
})

describe('hardened web contents', () => {
  function hardened(): FakeWebContents {
    const contents = new FakeWebContents()
    hardenWebContents(contents.asWebContents(), origin)
    return contents
  }

  it.each(['https://example.com/', 'file:///etc/passwd', 'file:///opt/swarmdesk/out/renderer/other.html'])(
    'blocks navigation to %s',
    (url) => {
      const contents = hardened()
      const event = fakeEvent({ url })
      contents.emit('will-navigate', event)
      expect(event.defaultPrevented).toBe(true)
    }
  )

  it('lets the app page navigate to itself (hash routes, reload)', () => {
    const contents = hardened()
    const event = fakeEvent({ url: `${APP_URL}#tasks` })
    contents.emit('will-navigate', event)
    expect(event.defaultPrevented).toBe(false)
  })

  it('blocks redirects away from the app and every <webview>', () => {
    const contents = hardened()
    const redirect = fakeEvent({ url: 'https://example.com/' })
    const webview = fakeEvent()
    contents.emit('will-redirect', redirect)
    contents.emit('will-attach-webview', webview, {}, {})
    expect(redirect.defaultPrevented).toBe(true)
    expect(webview.defaultPrevented).toBe(true)
  })

  it('denies every window.open, handing only http(s) links to the browser', () => {
    const opened: string[] = []
    electron.openExternal = async (url) => void opened.push(url)
    const contents = hardened()
    for (const url of [
      'https://docs.anthropic.com/x',
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'not a url'
    ]) {
      expect(contents.windowOpenHandler?.({ url })).toEqual({ action: 'deny' })
    }
    expect(opened).toEqual(['https://docs.anthropic.com/x', 'http://example.com/'])
  })

  it('registers its guards once even when applied twice', () => {
    const contents = new FakeWebContents()
    hardenWebContents(contents.asWebContents(), origin)
    hardenWebContents(contents.asWebContents(), origin)
    expect(contents.listenerCount('will-navigate')).toBe(1)
  })

  it('refuses links that carry credentials', () => {
    const open = vi.fn(async () => undefined)
    expect(openExternalLink('https://user:pw@example.com/', open)).toBe(false)
    expect(open).not.toHaveBeenCalled()
  })
})
