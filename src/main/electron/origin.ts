import { pathToFileURL } from 'node:url'

/**
 * Which URLs are the app's own page: the built renderer's `index.html` over file://, or in
 * development the electron-vite dev server (`ELECTRON_RENDERER_URL`). Everything trusted —
 * IPC senders, navigation targets, the pages the CSP header is added to — is decided here, so
 * the three checks cannot drift apart.
 */
export interface AppOrigin {
  /** The URL the window loads. */
  readonly entryUrl: string
  /** True when `url` is the app's page (any hash or query), never another file or host. */
  isAppUrl(url: string): boolean
}

/**
 * @param indexHtml absolute path of out/renderer/index.html.
 * @param devServerUrl `ELECTRON_RENDERER_URL` in `electron-vite dev`; then only that origin is trusted.
 * @throws TypeError when `devServerUrl` is not an http(s) URL.
 */
export function createAppOrigin(indexHtml: string, devServerUrl?: string): AppOrigin {
  if (devServerUrl) {
    const dev = new URL(devServerUrl)
    if (dev.protocol !== 'http:' && dev.protocol !== 'https:')
      throw new TypeError(`ELECTRON_RENDERER_URL must be http(s), got ${devServerUrl}`)
    return { entryUrl: dev.href, isAppUrl: (url) => parse(url)?.origin === dev.origin }
  }
  const entry = pathToFileURL(indexHtml)
  return {
    entryUrl: entry.href,
    isAppUrl: (url) => {
      const u = parse(url)
      return u !== undefined && u.protocol === 'file:' && u.host === entry.host && u.pathname === entry.pathname
    }
  }
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}
