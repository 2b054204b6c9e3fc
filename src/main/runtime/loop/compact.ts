import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '../../../shared/events'
import { ModelError } from '../model/errors'
import { costOf } from '../model/pricing'
import type { ApiTool } from '../model/types'
import type { QueryParams } from './types'

/** Compaction starts when a request would pass this share of the model's context window (SPEC §2). */
export const COMPACT_THRESHOLD = 0.85

/**
 * A compaction must free at least this share of the window; below it (the prompt is mostly system
 * prompt and tools, or the last turn alone is huge) it would only repeat every turn.
 */
const MIN_FREED_SHARE = 0.15

/** Share of the history, by message count, kept verbatim after a compaction (at least the last exchange). */
const KEEP_SHARE = 0.25

/** The instruction of a summary request. Scenarios match on its first words. */
export const COMPACT_INSTRUCTION =
  'Compact the conversation: write a summary of everything above that lets you continue the task without it. Keep the goal, decisions made, files read and changed (with paths), commands run and their results, errors met, and what remains to do. Do not call tools; answer with the summary only.'

/** The summary as it opens the compacted history. */
export function summaryMessage(summary: string): MessageParam {
  return {
    role: 'user',
    content: [{ type: 'text', text: `<conversation-summary>\nThe earlier part of this conversation was compacted to save context. Summary:\n${summary}\n</conversation-summary>` }]
  }
}

/** Estimated tokens of a request (≈4 bytes a token), used only before any usage is known. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4)
}

/**
 * Where to cut: the index of an assistant message such that the messages from it on (about the
 * last quarter, never less than the last assistant turn and its results) are kept verbatim and
 * everything before is summarised. Starting the kept part at an assistant message keeps every
 * tool_result next to its tool_use. Undefined when there is nothing worth cutting.
 */
export function compactionCut(messages: readonly MessageParam[]): number | undefined {
  const target = Math.floor(messages.length * (1 - KEEP_SHARE))
  for (let i = target; i >= 2; i--) if (messages[i]?.role === 'assistant') return i
  return undefined
}

/**
 * Replaces the older part of `params.messages` (in place) with a model-written summary.
 * The summary request reuses the agent's system prompt, tools and history prefix, so it is
 * mostly read from the prompt cache.
 * @returns the summary, how many messages it replaced, and the summary request's usage and cost
 *   (already added to the budget); undefined when there was nothing to cut.
 * @throws ModelError when the summary request fails (the history is then left unchanged).
 */
export async function compactHistory(
  params: QueryParams,
  tools: ApiTool[],
  window: number
): Promise<{ summary: string; replaced: number; usage: Usage; costUsd: number; model: string } | undefined> {
  const cut = compactionCut(params.messages)
  if (cut === undefined) return undefined
  const older = params.messages.slice(0, cut)
  if (estimateTokens(older) < MIN_FREED_SHARE * window) return undefined
  const last = older[older.length - 1]!
  const instruction = { type: 'text' as const, text: COMPACT_INSTRUCTION }
  // Keep roles alternating: the instruction joins the last user message when there is one.
  const request: MessageParam[] =
    last.role === 'user'
      ? [...older.slice(0, -1), { role: 'user', content: [...(typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content), instruction] }]
      : [...older, { role: 'user', content: [instruction] }]
  let summary = ''
  let spent: { usage: Usage; costUsd: number; model: string } | undefined
  for await (const event of params.client.stream(
    { model: params.model, maxTokens: 4096, system: params.system, tools, messages: request },
    { agent: params.agent, signal: params.signal }
  )) {
    if (event.type === 'response') {
      summary = event.message.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n').trim()
      const costUsd = costOf(event.model, event.usage)
      params.budget?.add(costUsd)
      params.onUsage?.(event.usage, costUsd, event.model)
      spent = { usage: event.usage, costUsd, model: event.model }
    }
  }
  if (!summary) throw new ModelError('bad_request', 'The model returned an empty summary; the history was not compacted.')
  params.messages.splice(0, cut, summaryMessage(summary))
  return { summary, replaced: cut, ...spent! }
}
