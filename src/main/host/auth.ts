import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/**
 * Name of the cookie `GET /?token=T` sets so the page's later requests (assets, /bridge, a reload
 * once the token has left the address bar) carry the token. It names the port: a browser keeps
 * cookies per host, not per port, so two hosts on 127.0.0.1 (two data directories, or the demo
 * beside a workspace) would otherwise overwrite each other's cookie and lock each other's tabs out.
 */
export function tokenCookieName(port: number): string {
  return `swarmdesk_token_${port}`
}

/** A fresh host token: 32 random bytes as 64 hex characters. */
export function newToken(): string {
  return randomBytes(32).toString('hex')
}

/**
 * Compares a presented token with the host's in constant time (docs/events.md#event-stream-and-command-line): both are hashed first,
 * so neither the content nor the length of the secret leaks through timing.
 */
export function tokensMatch(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false
  const a = createHash('sha256').update(presented).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

/** The value of one cookie in a `Cookie` header, or undefined. Malformed pairs are skipped. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=')
    if (eq < 0) continue
    if (pair.slice(0, eq).trim() !== name) continue
    const raw = pair.slice(eq + 1).trim()
    try {
      return decodeURIComponent(raw)
    } catch {
      return undefined
    }
  }
  return undefined
}

/** The `Set-Cookie` value that lets the page's later requests to the host on `port` authenticate. HttpOnly: page scripts never read it. */
export function tokenCookie(token: string, port: number): string {
  return `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`
}

/** How a request presented the token, if it did. */
export type TokenSource = 'query' | 'cookie'

/**
 * Whether the request carries the host's token, in `?token=` or in the cookie of the host's `port`. A wrong query token
 * is not rescued by a right cookie: what the request says explicitly is what is judged.
 */
export function authenticate(req: IncomingMessage, url: URL, token: string, port: number): TokenSource | undefined {
  const fromQuery = url.searchParams.get('token')
  if (fromQuery !== null) return tokensMatch(fromQuery, token) ? 'query' : undefined
  return tokensMatch(readCookie(req.headers.cookie, tokenCookieName(port)), token) ? 'cookie' : undefined
}
