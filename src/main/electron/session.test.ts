import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { Session } from 'electron'
import { createAppOrigin } from './origin'
import { contentSecurityPolicy, hardenSession } from './session'
import { APP_URL, INDEX_HTML } from './electron.testkit'

vi.mock('electron', () => ({}))

type Handlers = {
  request?: (contents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void
  check?: (...args: unknown[]) => boolean
  device?: (...args: unknown[]) => boolean
  headers?: (
    details: { url: string; responseHeaders?: Record<string, string[]> },
    callback: (response: { responseHeaders?: Record<string, string[]> }) => void
  ) => void
}

function fakeSession(): { session: Session; handlers: Handlers } {
  const handlers: Handlers = {}
  const session = {
    setPermissionRequestHandler: (h: Handlers['request']) => (handlers.request = h),
    setPermissionCheckHandler: (h: Handlers['check']) => (handlers.check = h),
    setDevicePermissionHandler: (h: Handlers['device']) => (handlers.device = h),
    webRequest: { onHeadersReceived: (h: Handlers['headers']) => (handlers.headers = h) }
  }
  return { session: session as unknown as Session, handlers }
}

function headersFor(
  handlers: Handlers,
  url: string,
  responseHeaders?: Record<string, string[]>
): Record<string, string[]> | undefined {
  let answer: { responseHeaders?: Record<string, string[]> } | undefined
  handlers.headers?.({ url, responseHeaders }, (r) => (answer = r))
  return answer?.responseHeaders
}

describe('the app session', () => {
  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'unknown'])(
    'denies a %s permission request and check',
    (permission) => {
      const { session, handlers } = fakeSession()
      hardenSession(session, createAppOrigin(INDEX_HTML))
      const callback = vi.fn()
      handlers.request?.({}, permission, callback, { requestingUrl: APP_URL })
      expect(callback).toHaveBeenCalledExactlyOnceWith(false)
      expect(handlers.check?.(null, permission, 'file://', {})).toBe(false)
      expect(handlers.device?.({ deviceType: 'usb', origin: 'file://' })).toBe(false)
    }
  )

  it("puts the CSP on the app's responses, replacing any the response had", () => {
    const { session, handlers } = fakeSession()
    hardenSession(session, createAppOrigin(INDEX_HTML))
    const headers = headersFor(handlers, APP_URL, { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] })
    expect(headers).toEqual({ 'X-Other': ['1'], 'Content-Security-Policy': [contentSecurityPolicy()] })
  })

  it('leaves responses of other URLs untouched', () => {
    const { session, handlers } = fakeSession()
    hardenSession(session, createAppOrigin(INDEX_HTML))
    expect(headersFor(handlers, 'https://example.com/')).toBeUndefined()
  })

  it('allows no inline or remote script in production, and only the dev server in development', () => {
    expect(contentSecurityPolicy()).toContain("script-src 'self';")
    expect(contentSecurityPolicy()).toContain("object-src 'none'")
    const dev = contentSecurityPolicy('http://localhost:5173/')
    expect(dev).toContain("script-src 'self' 'unsafe-inline';")
    expect(dev).toContain("connect-src 'self' ws://localhost:5173")
  })
})

describe("the renderer page's own policy", () => {
  it('is the header policy: over file:// the <meta> in index.html is the only CSP Chromium applies', () => {
    const html = readFileSync(join(__dirname, '..', '..', 'renderer', 'index.html'), 'utf8')
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1]
    // frame-ancestors is ignored in a <meta>; the window is never framed anyway (no webviews, no frames)
    const header = contentSecurityPolicy()
      .split('; ')
      .filter((d) => !d.startsWith('frame-ancestors'))
    expect(meta?.split('; ')).toEqual(header)
  })
})
