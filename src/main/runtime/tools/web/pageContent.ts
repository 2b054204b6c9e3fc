import type TurndownService from 'turndown'
import { ToolError } from '../types'
import type { FetchedPage } from './fetchPage'

/** Most characters of a page given to the model, after conversion: 100,000, as Claude Code's WebFetch. */
export const WEB_FETCH_MAX_CONTENT_CHARS = 100_000

/** How long a fetched page is reused for the same URL, in ms: 15 minutes, as Claude Code's WebFetch. */
export const WEB_FETCH_CACHE_TTL_MS = 15 * 60_000

/** Most characters the cache holds over all its pages: 50 Mi, as Claude Code's WebFetch cache. */
export const WEB_FETCH_CACHE_MAX_CHARS = 50 * 1024 * 1024

/** A page as the model reads it: Markdown (HTML converted) or the text as sent. */
export interface PageContent {
  /** Where the content came from, after same-host redirects. */
  url: string
  status: number
  contentType: string
  /** Bytes received. */
  bytes: number
  /** The text given to the model, cut at {@link WEB_FETCH_MAX_CONTENT_CHARS}. */
  text: string
  /** True when `text` was cut. */
  truncated: boolean
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-javascript|ld\+json|[\w.+-]+\+(json|xml))$)/
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml'])

let turndown: TurndownService | undefined

/**
 * One converter for the process: turndown holds no state between pages. Loaded on first use, so an
 * agent that never fetches HTML (a worker teammate under its heap cap) never loads it and its DOM.
 */
async function converter(): Promise<TurndownService> {
  if (!turndown) {
    const { default: Turndown } = await import('turndown')
    turndown = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' })
    // what a browser does not show is not the page's content
    turndown.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'head'])
  }
  return turndown
}

/**
 * What the model reads of a fetched page: HTML (by its content type, or by its first bytes when the
 * server named none) converted to Markdown by turndown; other text as sent, decoded as UTF-8;
 * cut at {@link WEB_FETCH_MAX_CONTENT_CHARS} characters.
 * @throws ToolError for content that is not text (an image, a PDF, an archive).
 */
export async function pageContent(page: FetchedPage): Promise<PageContent> {
  const head = page.body.subarray(0, 512).toString('utf8').trimStart().toLowerCase()
  const html =
    HTML_TYPES.has(page.contentType) ||
    (page.contentType === '' && (head.startsWith('<!doctype html') || head.startsWith('<html')))
  const isText = html || TEXT_TYPES.test(page.contentType) || (page.contentType === '' && !page.body.includes(0))
  if (!isText)
    throw new ToolError(
      `${page.url} is ${page.contentType || 'binary content'}, not text: WebFetch reads HTML, Markdown, plain text and JSON.`
    )
  const decoded = page.body.toString('utf8')
  const full = html ? (await converter()).turndown(decoded) : decoded
  const truncated = full.length > WEB_FETCH_MAX_CONTENT_CHARS
  return {
    url: page.url,
    status: page.status,
    contentType: page.contentType,
    bytes: page.body.byteLength,
    text: truncated ? `${full.slice(0, WEB_FETCH_MAX_CONTENT_CHARS)}\n\n[... content truncated ...]` : full,
    truncated
  }
}

/**
 * Fetched pages by the URL asked for, each kept {@link WEB_FETCH_CACHE_TTL_MS} from its fetch, the
 * oldest dropped first once the whole passes {@link WEB_FETCH_CACHE_MAX_CHARS}. `now` is the clock
 * (ms), a parameter so the expiry can be tested without waiting a quarter of an hour.
 */
export class PageCache {
  readonly #entries = new Map<string, { page: PageContent; at: number }>()
  #chars = 0

  constructor(
    private readonly ttlMs = WEB_FETCH_CACHE_TTL_MS,
    private readonly maxChars = WEB_FETCH_CACHE_MAX_CHARS,
    private readonly now: () => number = Date.now
  ) {}

  /** The page fetched for `url` less than the TTL ago, if any. */
  get(url: string): PageContent | undefined {
    const entry = this.#entries.get(url)
    if (!entry) return undefined
    if (this.now() - entry.at >= this.ttlMs) {
      this.#drop(url)
      return undefined
    }
    return entry.page
  }

  /** Keeps `page` as the answer for `url` from now on. */
  set(url: string, page: PageContent): void {
    this.#drop(url)
    this.#entries.set(url, { page, at: this.now() })
    this.#chars += page.text.length
    for (const key of this.#entries.keys()) {
      if (this.#chars <= this.maxChars) break
      this.#drop(key)
    }
  }

  #drop(url: string): void {
    const entry = this.#entries.get(url)
    if (!entry) return
    this.#chars -= entry.page.text.length
    this.#entries.delete(url)
  }
}
