import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { analysePrompt, promptBlocks } from './prompt'
import { PromptCache } from './promptCache'
import { MessagesRequestSchema } from './request'

/*
 * Hand computation used by every case below (docs/model.md#model-access: canonical JSON, sorted keys, no
 * cache_control; the prefix ending at block i is serialised as `[model, block0, …, blocki]`).
 *
 * Model "m" opens the array with `["m"` = 4 bytes; the closing `]` is 1 byte.
 * Block i is a user text block of 365 copies of one letter, serialised as
 *   `,{"user":{"text":"` (18 bytes) + 365 letters + `","type":"text"}}` (17 bytes) = 400 bytes.
 * So the prefix ending at block i has 4 + 400·(i+1) + 1 bytes, and
 *   tokens(i) = ceil((400·(i+1) + 5) / 4) = 100·(i+1) + 2      (e.g. tokens(5) = 602, tokens(7) = 802).
 * minTokens is 500 here, so prefixes ending at block 4 (502 tokens) or later can be cached.
 */
const SETTINGS = { minTokens: 500, ttlMs: 300_000 }
const text = (i: number) => String.fromCharCode(97 + (i % 26)).repeat(365)

/** A prompt of `count` one-block user messages, with cache_control on the blocks listed in `breakpoints`. */
function prompt(count: number, breakpoints: number[], model = 'm') {
  const messages = Array.from({ length: count }, (_, i) => ({
    role: 'user' as const,
    content: [
      { type: 'text', text: text(i), ...(breakpoints.includes(i) ? { cache_control: { type: 'ephemeral' } } : {}) }
    ]
  }))
  const request = MessagesRequestSchema.parse({ model, max_tokens: 10, messages })
  return analysePrompt(model, promptBlocks(request))
}

function fixture(settings = SETTINGS) {
  const time = { now: 0 }
  return { time, cache: new PromptCache(settings, () => time.now) }
}

describe('prompt cache simulation (hand-computed)', () => {
  it('serialises a prefix canonically: the key is the SHA-256 of the literal JSON, tokens are bytes / 4', () => {
    const request = MessagesRequestSchema.parse({
      model: 'm',
      max_tokens: 1,
      tools: [{ name: 'T', input_schema: { type: 'object' }, description: 'd', cache_control: { type: 'ephemeral' } }],
      system: 'S',
      messages: [{ role: 'user', content: 'U' }]
    })
    const literal =
      '["m",{"tool":{"description":"d","input_schema":{"type":"object"},"name":"T"}},{"system":{"text":"S","type":"text"}},{"user":{"text":"U","type":"text"}}]'
    // `["m",` 5 + `{"tool":` 8 + `{"description":"d",` 19 + `"input_schema":{"type":"object"},` 33
    // + `"name":"T"}}` 12 + `,` 1 + `{"system":` 10 + `{"text":"S","type":"text"}}` 27 + `,` 1
    // + `{"user":` 8 + `{"text":"U","type":"text"}}` 27 + `]` 1 = 152 bytes → ceil(152 / 4) = 38 tokens.
    expect(literal.length).toBe(152)
    const analysed = analysePrompt('m', promptBlocks(request))
    expect(analysed.keys[2]).toBe(createHash('sha256').update(literal).digest('hex'))
    expect(analysed.totalTokens).toBe(38)
    expect(analysed.breakpoints).toEqual([0])
    expect(prompt(8, []).tokens).toEqual([102, 202, 302, 402, 502, 602, 702, 802])
  })

  it('writes the breakpoint prefix on the first request, then reads all of it on an identical one', () => {
    const { cache } = fixture()
    // 8 blocks, breakpoint at 5: total tokens(7) = 802, written tokens(5) = 602, rest 802 − 602 = 200.
    expect(cache.use(prompt(8, [5]))).toEqual({
      inputTokens: 200,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 602,
      entriesWritten: 1
    })
    expect(cache.use(prompt(8, [5]))).toEqual({
      inputTokens: 200,
      cacheReadInputTokens: 602,
      cacheCreationInputTokens: 0,
      entriesWritten: 0
    })
  })

  it('reads the old prefix and writes only the rest when a request extends it', () => {
    const { cache } = fixture()
    cache.use(prompt(8, [7])) // writes tokens(7) = 802
    // 10 blocks, breakpoint at 9: read 802 (block 7 is 2 back), write tokens(9) = 1002 → creation 1002 − 802 = 200, input 0.
    expect(cache.use(prompt(10, [9]))).toEqual({
      inputTokens: 0,
      cacheReadInputTokens: 802,
      cacheCreationInputTokens: 200,
      entriesWritten: 1
    })
  })

  it('neither writes nor reads a prefix under minTokens', () => {
    const { cache } = fixture()
    // 4 blocks, breakpoint at 3: tokens(3) = 402 < 500.
    expect(cache.use(prompt(4, [3]))).toEqual({
      inputTokens: 402,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      entriesWritten: 0
    })
    expect(cache.use(prompt(4, [3]))).toEqual({
      inputTokens: 402,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      entriesWritten: 0
    })
    expect(cache.size).toBe(0)
  })

  it('finds an entry 20 blocks before the breakpoint', () => {
    const { cache } = fixture()
    cache.use(prompt(5, [4])) // writes tokens(4) = 502
    // Breakpoint at 24 looks back to 24 − 20 = 4: hit 502; writes tokens(24) = 2502 → creation 2000.
    expect(cache.use(prompt(25, [24]))).toEqual({
      inputTokens: 0,
      cacheReadInputTokens: 502,
      cacheCreationInputTokens: 2000,
      entriesWritten: 1
    })
  })

  it('misses an entry 21 blocks before the breakpoint', () => {
    const { cache } = fixture()
    cache.use(prompt(5, [4]))
    // Breakpoint at 25 looks back only to 5: miss; writes tokens(25) = 2602.
    expect(cache.use(prompt(26, [25]))).toEqual({
      inputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 2602,
      entriesWritten: 1
    })
  })

  it('expires an entry after ttlMs', () => {
    const { cache, time } = fixture({ minTokens: 500, ttlMs: 1000 })
    cache.use(prompt(8, [5])) // written at t=0, lives until t=1000
    time.now = 1000
    expect(cache.use(prompt(8, [5]))).toMatchObject({ cacheReadInputTokens: 0, cacheCreationInputTokens: 602 })
  })

  it('refreshes an entry each time it is read', () => {
    const { cache, time } = fixture({ minTokens: 500, ttlMs: 1000 })
    cache.use(prompt(8, [5])) // t=0: written, lives until 1000
    time.now = 999
    expect(cache.use(prompt(8, [5])).cacheReadInputTokens).toBe(602) // refreshed: lives until 1999
    time.now = 1998
    expect(cache.use(prompt(8, [5])).cacheReadInputTokens).toBe(602) // refreshed: lives until 2998
    time.now = 2998
    expect(cache.use(prompt(8, [5]))).toMatchObject({ cacheReadInputTokens: 0, cacheCreationInputTokens: 602 })
  })

  it('keeps a prefix key when the breakpoint moves, so a moved breakpoint still reads the old entry', () => {
    expect(prompt(8, [5]).keys).toEqual(prompt(8, [7]).keys)
    expect(prompt(8, [5]).keys).not.toEqual(prompt(8, [5], 'n').keys) // but the model is part of the key
    const { cache } = fixture()
    cache.use(prompt(8, [5]))
    // Breakpoint now at 7: reads tokens(5) = 602 (2 back), writes tokens(7) = 802 → creation 200.
    expect(cache.use(prompt(8, [7]))).toEqual({
      inputTokens: 0,
      cacheReadInputTokens: 602,
      cacheCreationInputTokens: 200,
      entriesWritten: 1
    })
  })

  it('reads the longest hit over several breakpoints and writes only those not cached', () => {
    const { cache } = fixture()
    cache.use(prompt(8, [4])) // writes tokens(4) = 502
    // Breakpoints 4 and 7: 4 hits (502); 7 is new: creation tokens(7) − 502 = 300; total 802 − 502 − 300 = 0.
    expect(cache.use(prompt(8, [4, 7]))).toEqual({
      inputTokens: 0,
      cacheReadInputTokens: 502,
      cacheCreationInputTokens: 300,
      entriesWritten: 1
    })
    // Now both are cached: the longest, 802, is read; nothing written.
    expect(cache.use(prompt(9, [4, 7]))).toEqual({
      inputTokens: 100,
      cacheReadInputTokens: 802,
      cacheCreationInputTokens: 0,
      entriesWritten: 0
    })
  })
})
