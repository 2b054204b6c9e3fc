/**
 * Reading the parts of a transcript line another process wrote (docs/storage.md#transcripts): content blocks,
 * tool-result text and usage, each checked, since the line is not trusted to be well formed.
 */

/** Anthropic Messages API usage, as it would appear on an assistant message (snake_case). */
export interface ApiUsage {
  input_tokens?: unknown
  output_tokens?: unknown
  cache_creation_input_tokens?: unknown
  cache_read_input_tokens?: unknown
}

/** `Omit` applied to each member of a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

export /** A content block as read from a transcript line: any object, its `type` unchecked. */
type Block = Record<string, unknown> & { type?: unknown }

/** A message's content as blocks: a string content is one text block. */
export function contentBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  if (!Array.isArray(content)) return []
  return content.filter((b): b is Block => typeof b === 'object' && b !== null)
}

/** A tool_result's content as the text the agent loop reported: a string as is, text blocks joined. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  return contentBlocks(content)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n')
}

/** The runtime's usage from an API usage object, or undefined when there is none or it is malformed. */
export function usageOf(
  usage: ApiUsage | undefined
):
  | { inputTokens: number; outputTokens: number; cacheCreationInputTokens: number; cacheReadInputTokens: number }
  | undefined {
  if (!usage || typeof usage !== 'object') return undefined
  const count = (v: unknown): number | undefined =>
    typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : v === undefined || v === null ? 0 : undefined
  const input = count(usage.input_tokens)
  const output = count(usage.output_tokens)
  const creation = count(usage.cache_creation_input_tokens)
  const read = count(usage.cache_read_input_tokens)
  if (input === undefined || output === undefined || creation === undefined || read === undefined) return undefined
  if (usage.input_tokens === undefined && usage.output_tokens === undefined) return undefined
  return { inputTokens: input, outputTokens: output, cacheCreationInputTokens: creation, cacheReadInputTokens: read }
}
