import { randomBytes } from 'node:crypto'
import { tokensForBytes } from './prompt'
import type { CacheUsage } from './promptCache'
import type { Turn } from './scenario'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** `prefix` + 24 random base62 characters, the shape of the API's ids (`msg_…`, `toolu_…`, `req_…`). */
export function randomId(prefix: string): string {
  const bytes = randomBytes(24)
  let out = prefix
  for (const byte of bytes) out += BASE62[byte % 62]
  return out
}

/** A text block of an answer. */
export interface TextBlock {
  type: 'text'
  text: string
}
/** A tool call of an answer; `id` is `toolu_` + 24 base62 characters. */
export interface ToolUseBlock {
  type: 'tool_use'
  id: string
  name: string
  input: Record<string, unknown>
}
/** A content block the scripted model produces. */
export type AnswerBlock = TextBlock | ToolUseBlock

/** The `usage` of a response, with the API's field names. Units: tokens. */
export interface ApiUsage {
  input_tokens: number
  output_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number }
  service_tier: 'standard'
}

/** A Messages API `Message` as the scripted model returns it. */
export interface ApiMessage {
  id: string
  type: 'message'
  role: 'assistant'
  model: string
  content: AnswerBlock[]
  stop_reason: string
  stop_sequence: null
  usage: ApiUsage
}

/**
 * Content of an answer (docs/scenarios.md#scripted-model-scenarios): an optional text block, then one tool_use block per scripted
 * tool. `turn` must already have its placeholders filled. An empty `text` adds no block.
 */
export function answerContent(turn: Pick<Turn, 'text' | 'tools'>): AnswerBlock[] {
  const content: AnswerBlock[] = []
  if (turn.text) content.push({ type: 'text', text: turn.text })
  for (const tool of turn.tools ?? [])
    content.push({ type: 'tool_use', id: randomId('toolu_'), name: tool.name, input: tool.input })
  return content
}

/**
 * Output tokens of an answer: ceil(bytes / 4) of its text and of each tool's name and input JSON
 * (ids excluded, so the count is deterministic); at least 1, as the API never reports 0.
 */
export function outputTokens(content: readonly AnswerBlock[]): number {
  let bytes = 0
  for (const block of content) {
    bytes +=
      block.type === 'text'
        ? Buffer.byteLength(block.text)
        : Buffer.byteLength(block.name) + Buffer.byteLength(JSON.stringify(block.input))
  }
  return Math.max(1, tokensForBytes(bytes))
}

/** The API's usage object from the cache simulation's figures. */
export function apiUsage(cache: CacheUsage, output: number): ApiUsage {
  return {
    input_tokens: cache.inputTokens,
    output_tokens: output,
    cache_creation_input_tokens: cache.cacheCreationInputTokens,
    cache_read_input_tokens: cache.cacheReadInputTokens,
    cache_creation: { ephemeral_5m_input_tokens: cache.cacheCreationInputTokens, ephemeral_1h_input_tokens: 0 },
    service_tier: 'standard'
  }
}

/** The full answer message; stop_reason is the turn's, else `tool_use` when it calls tools, else `end_turn`. */
export function answerMessage(model: string, content: AnswerBlock[], usage: ApiUsage, stopReason?: string): ApiMessage {
  return {
    id: randomId('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason ?? (content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage
  }
}
