import type { Session } from 'electron'
import type { AppOrigin } from './origin'

/**
 * The app's Content-Security-Policy. Scripts only from the app itself; `style-src
 * 'unsafe-inline'` because xterm.js and React set inline styles; no plugins, frames, forms or
 * `<base>`. In `electron-vite dev` the React refresh preamble is an inline script and HMR talks
 * over a WebSocket to the dev server, so dev adds exactly those two.
 */
export function contentSecurityPolicy(devServerUrl?: string): string {
  const dev = devServerUrl ? new URL(devServerUrl) : undefined
  const ws = dev ? ` ${dev.protocol === 'https:' ? 'wss:' : 'ws:'}//${dev.host}` : ''
  return [
    "default-src 'none'",
    `script-src 'self'${dev ? " 'unsafe-inline'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${ws}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join('; ')
}

/**
 * Hardens the app's session: every permission request and check is denied (the workspace needs
 * no camera, notifications permission prompt, geolocation, USB…; OS notifications go through
 * main), and the app's own responses carry the CSP header. Responses from any other URL are
 * left alone — the window never navigates there anyway.
 * Over file:// Chromium applies no response headers, so the renderer's index.html should carry
 * the same policy in a `<meta http-equiv>`; the header covers the dev server.
 */
export function hardenSession(session: Session, origin: AppOrigin, devServerUrl?: string): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
  session.setDevicePermissionHandler(() => false)
  const csp = contentSecurityPolicy(devServerUrl)
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!origin.isAppUrl(details.url) && !isDevAsset(details.url, devServerUrl)) return callback({})
    const headers = { ...details.responseHeaders }
    for (const key of Object.keys(headers)) if (key.toLowerCase() === 'content-security-policy') delete headers[key]
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [csp] } })
  })
}

function isDevAsset(url: string, devServerUrl?: string): boolean {
  if (!devServerUrl) return false
  try {
    return new URL(url).origin === new URL(devServerUrl).origin
  } catch {
    return false
  }
}
