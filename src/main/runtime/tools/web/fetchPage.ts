import { ToolError } from '../types'

/** Largest body WebFetch reads, in bytes: 10 MiB, Claude Code's WebFetch limit (docs/tools.md#web-tools). */
export const WEB_FETCH_MAX_BYTES = 10 * 1024 * 1024

/** How long one fetch may take, headers and body and every redirect, in ms: 60 s, Claude Code's WebFetch timeout. */
export const WEB_FETCH_TIMEOUT_MS = 60_000

/** Same-host redirects followed before giving up: 10, as Claude Code's WebFetch. */
export const WEB_FETCH_MAX_REDIRECTS = 10

/** Longest URL accepted, in characters: 2000, as Claude Code's WebFetch. */
export const WEB_FETCH_MAX_URL_LENGTH = 2000

/** A page as fetched: the URL it came from (after same-host redirects), its status, type and body. */
export interface FetchedPage {
  url: string
  status: number
  statusText: string
  /** The `content-type` header, lower-cased, without parameters ('' when absent). */
  contentType: string
  body: Buffer
}

/** A redirect WebFetch does not follow: to another host, scheme or port. */
export interface CrossHostRedirect {
  redirect: true
  from: string
  to: string
  status: number
  statusText: string
}

/** Limits of one fetch; the defaults are the constants above. */
export interface FetchLimits {
  maxBytes?: number
  timeoutMs?: number
  maxRedirects?: number
}

/**
 * Parses and checks a WebFetch URL: absolute http or https, at most {@link WEB_FETCH_MAX_URL_LENGTH}
 * characters, no user name or password in it. An `http:` URL stays `http:` (a local server rarely
 * speaks TLS).
 * @throws ToolError saying what is wrong with it.
 */
export function parseFetchUrl(raw: string): URL {
  if (raw.length > WEB_FETCH_MAX_URL_LENGTH)
    throw new ToolError(`The URL is ${raw.length} characters long; WebFetch takes at most ${WEB_FETCH_MAX_URL_LENGTH}.`)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ToolError(`"${raw}" is not a URL: give an absolute http:// or https:// address.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolError(`WebFetch fetches http:// and https:// addresses only, not ${url.protocol}`)
  if (url.username || url.password)
    throw new ToolError('A URL with a user name or password in it is refused: WebFetch sends no credentials.')
  return url
}

/**
 * A redirect WebFetch follows on its own: same scheme, same port, and the same host or that host with
 * or without a leading `www.` (Claude Code's rule). Any other is reported to the model instead.
 */
export function isSameSiteRedirect(from: URL, to: URL): boolean {
  if (from.protocol !== to.protocol || from.port !== to.port) return false
  const bare = (host: string): string => host.replace(/^www\./, '')
  return bare(from.hostname) === bare(to.hostname)
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/**
 * GETs `url` as given (no upgrade of http to https), following same-host redirects up to
 * `maxRedirects`; a redirect elsewhere is returned, not followed. The body is read up to `maxBytes`
 * (a larger one is refused, by its `content-length` or while reading), the whole exchange within
 * `timeoutMs`. Loopback and private addresses are fetched like any other: the permission engine
 * decides who may fetch what.
 * @throws ToolError for a network failure, a timeout, too many redirects, an HTTP error status or a body over the cap.
 */
export async function fetchPage(
  url: URL,
  signal: AbortSignal,
  limits: FetchLimits = {}
): Promise<FetchedPage | CrossHostRedirect> {
  const maxBytes = limits.maxBytes ?? WEB_FETCH_MAX_BYTES
  const timeoutMs = limits.timeoutMs ?? WEB_FETCH_TIMEOUT_MS
  const maxRedirects = limits.maxRedirects ?? WEB_FETCH_MAX_REDIRECTS
  const timeout = AbortSignal.timeout(timeoutMs)
  const both = AbortSignal.any([signal, timeout])
  const failed = (error: unknown): ToolError => {
    if (signal.aborted) return new ToolError('The fetch was aborted.')
    if (timeout.aborted) return new ToolError(`Fetching ${url.href} took longer than ${timeoutMs / 1000} s; gave up.`)
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    return new ToolError(`Could not fetch ${url.href}: ${cause?.code ?? cause?.message ?? (error as Error).message}`)
  }
  let current = url
  for (let hops = 0; ; hops++) {
    let response: Response
    try {
      response = await fetch(current, {
        redirect: 'manual',
        signal: both,
        headers: { accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.8' }
      })
    } catch (error) {
      throw failed(error)
    }
    if (REDIRECT_STATUSES.has(response.status)) {
      await response.body?.cancel()
      const location = response.headers.get('location')
      if (!location) throw new ToolError(`${current.href} answered ${response.status} without a Location header.`)
      const next = new URL(location, current)
      if (!isSameSiteRedirect(current, next))
        return {
          redirect: true,
          from: current.href,
          to: next.href,
          status: response.status,
          statusText: response.statusText
        }
      if (hops >= maxRedirects)
        throw new ToolError(`${url.href} redirected more than ${maxRedirects} times; gave up at ${next.href}.`)
      current = next
      continue
    }
    if (!response.ok) {
      await response.body?.cancel()
      throw new ToolError(`${current.href} answered HTTP ${response.status} ${response.statusText}.`.replace(' .', '.'))
    }
    const declared = Number(response.headers.get('content-length') ?? NaN)
    if (declared > maxBytes) {
      await response.body?.cancel()
      throw tooLarge(current, `${declared} bytes`, maxBytes)
    }
    let body: Buffer
    try {
      body = await readCapped(response, maxBytes, current)
    } catch (error) {
      if (error instanceof ToolError) throw error
      throw failed(error)
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
    return { url: current.href, status: response.status, statusText: response.statusText, contentType, body }
  }
}

async function readCapped(response: Response, maxBytes: number, url: URL): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  if (!response.body) return Buffer.alloc(0)
  const reader = response.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw tooLarge(url, `more than ${maxBytes} bytes`, maxBytes)
    }
    chunks.push(Buffer.from(value))
  }
  return Buffer.concat(chunks)
}

function tooLarge(url: URL, size: string, maxBytes: number): ToolError {
  return new ToolError(
    `${url.href} is too large: ${size}, over WebFetch's limit of ${maxBytes / 1024 / 1024} MiB. Fetch a smaller page.`
  )
}
