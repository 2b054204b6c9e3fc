import type { ContentBlockParam, MessageParam, ModelRequest, TextBlockParam, ApiTool } from './types'

/**
 * The Messages API body with prompt-cache breakpoints marked (docs/loop.md#the-agent-loop): `cache_control:
 * {type: "ephemeral"}` on the last tool, the last system block and the last content block of the
 * last message, so an unchanged prefix is read from the cache. A fork request adds a fourth, on
 * its last placeholder tool_result (`extraBreakpoint`): four is the API's maximum.
 *
 * The input is not mutated: history kept by the loop never carries cache_control, so moving the
 * breakpoint from turn to turn does not change the bytes of earlier blocks.
 */
export function withCacheBreakpoints(
  request: ModelRequest,
  extraBreakpoint?: { messageIndex: number; blockIndex: number }
): { model: string; max_tokens: number; system: TextBlockParam[]; tools: ApiTool[]; messages: MessageParam[] } {
  const ephemeral = { type: 'ephemeral' as const }
  const tools = request.tools.map((t, i) => (i === request.tools.length - 1 ? { ...t, cache_control: ephemeral } : t))
  const system = request.system.map((b, i) =>
    i === request.system.length - 1 ? { ...b, cache_control: ephemeral } : b
  )
  const lastIndex = request.messages.length - 1
  const messages = request.messages.map((m, mi) => {
    const marks: number[] = []
    if (mi === lastIndex) marks.push(blockCount(m) - 1)
    if (extraBreakpoint && extraBreakpoint.messageIndex === mi) marks.push(extraBreakpoint.blockIndex)
    return marks.length === 0 ? m : markBlocks(m, marks)
  })
  return { model: request.model, max_tokens: request.maxTokens, system, tools, messages }
}

function blockCount(message: MessageParam): number {
  return typeof message.content === 'string' ? 1 : message.content.length
}

function markBlocks(message: MessageParam, indexes: number[]): MessageParam {
  const blocks: ContentBlockParam[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
  return {
    ...message,
    content: blocks.map((b, i) =>
      indexes.includes(i) && b.type !== 'thinking' && b.type !== 'redacted_thinking'
        ? ({ ...b, cache_control: { type: 'ephemeral' } } as ContentBlockParam)
        : b
    )
  } as MessageParam
}
