import { createHash } from 'node:crypto'
import { canonicalJson } from './canonical'
import type { MessagesRequest } from './request'

/** Bytes per token of the scripted model's tokenizer: ≈4, the usual rule of thumb for English text. */
export const BYTES_PER_TOKEN = 4

/** Tokens for a byte count: `ceil(bytes / 4)`. Deterministic so tests can compute it by hand. */
export function tokensForBytes(bytes: number): number {
  return Math.ceil(bytes / BYTES_PER_TOKEN)
}

/**
 * A prompt block as it enters the cache key: tagged by where it sits (`tool`, `system`, `user`,
 * `assistant`) so that equal text in two places never shares a key.
 */
export interface PromptBlock {
  tagged: Record<string, unknown>
  /** True when the block carries `cache_control` (a cache breakpoint). */
  breakpoint: boolean
}

/**
 * The prompt as the API caches it (docs/model.md#model-access): tools, then system blocks, then every message's
 * content blocks, in order. A string `system` or message `content` is one text block.
 */
export function promptBlocks(request: MessagesRequest): PromptBlock[] {
  const blocks: PromptBlock[] = []
  const push = (place: string, block: Record<string, unknown>) =>
    blocks.push({ tagged: { [place]: block }, breakpoint: block.cache_control != null })
  for (const tool of request.tools ?? []) push('tool', tool)
  if (typeof request.system === 'string') push('system', { type: 'text', text: request.system })
  else for (const block of request.system ?? []) push('system', block)
  for (const message of request.messages) {
    if (typeof message.content === 'string') push(message.role, { type: 'text', text: message.content })
    else for (const block of message.content) push(message.role, block)
  }
  return blocks
}

/**
 * Keys and sizes of every prefix of a prompt. The canonical serialisation of the prefix ending at
 * block i is the JSON array `[model, block0, …, blocki]` (keys sorted, `cache_control` removed,
 * see {@link canonicalJson}); its SHA-256 (hex) is the prefix's cache key and its UTF-8 byte
 * length gives its tokens.
 */
export interface PromptPrefixes {
  /** keys[i]: cache key of the prefix ending at block i. */
  keys: string[]
  /** tokens[i]: tokens of the prefix ending at block i (ceil(bytes / 4)). */
  tokens: number[]
  /** Indexes of the blocks carrying `cache_control`, ascending. */
  breakpoints: number[]
  /** Tokens of the whole prompt (the model alone when there are no blocks). */
  totalTokens: number
}

/**
 * Computes {@link PromptPrefixes} in one pass: the hash state is copied at each block, so the
 * cost is linear in the prompt's bytes rather than quadratic.
 */
export function analysePrompt(model: string, blocks: readonly PromptBlock[]): PromptPrefixes {
  const hash = createHash('sha256')
  const head = `[${JSON.stringify(model)}`
  hash.update(head)
  let bytes = Buffer.byteLength(head)
  const keys: string[] = []
  const tokens: number[] = []
  const breakpoints: number[] = []
  blocks.forEach((block, i) => {
    const part = `,${canonicalJson(block.tagged)}`
    hash.update(part)
    bytes += Buffer.byteLength(part)
    keys.push(hash.copy().update(']').digest('hex'))
    tokens.push(tokensForBytes(bytes + 1))
    if (block.breakpoint) breakpoints.push(i)
  })
  return { keys, tokens, breakpoints, totalTokens: tokensForBytes(bytes + 1) }
}
