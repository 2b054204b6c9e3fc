import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRoot } from './rendererDir'
import { cspFromIndexHtml, FALLBACK_CSP } from './securityHeaders'

describe('the CSP header', () => {
  it("is the renderer page's own meta policy, plus frame-ancestors which a meta tag cannot set", () => {
    const html = readFileSync(join(packageRoot(), 'src', 'renderer', 'index.html'), 'utf8')
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)![1]!
    expect(cspFromIndexHtml(html)).toBe(`${meta}; frame-ancestors 'none'`)
    expect(cspFromIndexHtml(html)).toContain("script-src 'self'")
  })

  it('falls back to a strict policy when the page has none, and never adds frame-ancestors twice', () => {
    expect(cspFromIndexHtml(undefined)).toBe(`${FALLBACK_CSP}; frame-ancestors 'none'`)
    expect(cspFromIndexHtml('<html><head></head></html>')).toBe(`${FALLBACK_CSP}; frame-ancestors 'none'`)
    expect(
      cspFromIndexHtml(
        `<meta content="default-src 'none'; frame-ancestors 'self';" http-equiv="Content-Security-Policy">`
      )
    ).toBe("default-src 'none'; frame-ancestors 'self'")
  })
})
