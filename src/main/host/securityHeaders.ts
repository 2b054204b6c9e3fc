/**
 * The policy sent when the page has no CSP meta of its own. It matches what the renderer needs:
 * its own scripts only, inline styles (xterm and React set them), WebSocket back to this origin.
 */
export const FALLBACK_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'"

const META_CSP = /<meta\s+[^>]*http-equiv=["']Content-Security-Policy["'][^>]*>/i
const CONTENT_ATTR = /content=(["'])(.*?)\1/i

/**
 * The Content-Security-Policy header for every response: the same policy as the page's
 * `<meta http-equiv="Content-Security-Policy">` (so the header never loosens or contradicts it),
 * plus `frame-ancestors 'none'`, which browsers ignore in a meta tag and which keeps other sites
 * from framing the token-bearing page.
 */
export function cspFromIndexHtml(html: string | undefined): string {
  const meta = html === undefined ? null : META_CSP.exec(html)
  const content = meta ? CONTENT_ATTR.exec(meta[0])?.[2] : undefined
  const policy = (content ?? FALLBACK_CSP)
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .trim()
    .replace(/;\s*$/, '')
  return /frame-ancestors/i.test(policy) ? policy : `${policy}; frame-ancestors 'none'`
}

/** Headers every response carries (docs/events.md#event-stream-and-command-line): the CSP, no MIME sniffing, no Referer (the URL holds the token). */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Resource-Policy': 'same-origin'
  }
}
