import type { CacheSettings } from './scenario'
import type { PromptPrefixes } from './prompt'

/** Milliseconds since the epoch; injectable so TTL tests are exact. */
export type Clock = () => number

/**
 * How far before a breakpoint a lookup searches: "the system automatically checks for cache hits
 * at all previous content block boundaries (up to approximately 20 blocks before your explicit
 * breakpoint)" (Anthropic prompt-caching docs). Positions b, b-1, …, b-20 are checked.
 */
export const LOOKBACK_BLOCKS = 20

/** The cache fields of a response's usage, in tokens. */
export interface CacheUsage {
  /** Tokens neither read from nor written to the cache. */
  inputTokens: number
  cacheReadInputTokens: number
  cacheCreationInputTokens: number
  /** Entries written by this request (0–4). */
  entriesWritten: number
}

interface Entry {
  expiresAt: number
}

/**
 * The prompt cache of the scripted model (docs/model.md#model-access), shared by every agent of one server, as the
 * real cache is shared by every request of one organisation. Entries are written only at
 * breakpoints, only for prefixes of at least `minTokens` tokens, and live `ttlMs`, refreshed
 * each time they are read.
 */
export class PromptCache {
  readonly #entries = new Map<string, Entry>()

  constructor(
    private readonly settings: CacheSettings,
    private readonly clock: Clock = Date.now
  ) {}

  /** Number of live entries. */
  get size(): number {
    this.#sweep()
    return this.#entries.size
  }

  clear(): void {
    this.#entries.clear()
  }

  /**
   * Serves one request: finds the longest cached prefix reachable from a breakpoint (read, TTL
   * refreshed), then writes an entry at every breakpoint not yet cached.
   * `cacheCreationInputTokens` = tokens of the longest written prefix − tokens read (never < 0).
   */
  use(prompt: PromptPrefixes): CacheUsage {
    const now = this.clock()
    this.#sweep()
    const hit = this.#longestHit(prompt)
    const read = hit === undefined ? 0 : prompt.tokens[hit]
    if (hit !== undefined) this.#entries.set(prompt.keys[hit], { expiresAt: now + this.settings.ttlMs })

    let longestWritten: number | undefined
    let entriesWritten = 0
    for (const b of prompt.breakpoints) {
      if (prompt.tokens[b] < this.settings.minTokens || this.#entries.has(prompt.keys[b])) continue
      this.#entries.set(prompt.keys[b], { expiresAt: now + this.settings.ttlMs })
      entriesWritten++
      longestWritten = b
    }
    const creation = longestWritten === undefined ? 0 : Math.max(0, prompt.tokens[longestWritten] - read)
    return {
      inputTokens: prompt.totalTokens - read - creation,
      cacheReadInputTokens: read,
      cacheCreationInputTokens: creation,
      entriesWritten
    }
  }

  #longestHit(prompt: PromptPrefixes): number | undefined {
    let best: number | undefined
    for (const b of prompt.breakpoints) {
      for (let i = b; i >= Math.max(0, b - LOOKBACK_BLOCKS); i--) {
        if (best !== undefined && i <= best) break
        if (prompt.tokens[i] >= this.settings.minTokens && this.#entries.has(prompt.keys[i])) {
          best = i
          break
        }
      }
    }
    return best
  }

  #sweep(): void {
    const now = this.clock()
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key)
  }
}
