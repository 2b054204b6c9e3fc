import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { contextWindowOf, costOf } from '../model/pricing'
import { ModelError } from '../model/errors'
import type { AssistantMessage } from '../model/types'
import { pumpWhile } from './channel'
import { COMPACT_THRESHOLD, compactHistory, estimateTokens } from './compact'
import { runToolUses, type ToolUse } from './runTools'
import { apiToolOf } from './toolSchemas'
import type { LoopEvent, QueryEnd, QueryParams } from './types'

/**
 * The agent loop (SPEC §2): an async generator over turns. Each turn streams one Messages API
 * request, yields its events as they arrive, runs the response's tool calls (parallel when
 * concurrency-safe, else one by one), appends the tool_result message and loops — until the
 * model ends its turn without tool calls, `maxTurns` is reached, the budget is spent, the signal
 * aborts, or the model fails. Returns how it ended.
 *
 * `params.messages` is appended to in place; every message added is also yielded as a `message`
 * event (the runner writes it to the transcript). Tools run only once a response is complete,
 * so a retried or failed response never runs a tool.
 * @throws only for bugs (an unexpected exception from a tool); every expected failure is a {@link QueryEnd}.
 */
export async function* query(params: QueryParams): AsyncGenerator<LoopEvent, QueryEnd> {
  const tools = params.tools.map(apiToolOf)
  let turns = 0
  let finalText = ''
  // Tokens of the last request plus its answer, and the history length they cover.
  let known: { tokens: number; length: number } | undefined
  const window = params.contextWindow ?? contextWindowOf(params.model)
  for (;;) {
    if (params.signal.aborted) return { reason: 'aborted', finalText, turns }
    if (params.maxTurns !== undefined && turns >= params.maxTurns) return { reason: 'max_turns', finalText, turns }
    if (params.budget?.exhausted) return { reason: 'budget', finalText, turns }
    const pending = params.drainPending?.() ?? []
    if (pending.length > 0) {
      const message: MessageParam = { role: 'user', content: pending.map((text) => ({ type: 'text' as const, text })) }
      params.messages.push(message)
      yield { type: 'message', role: 'user', message }
    }
    const estimate = known ? known.tokens + estimateTokens(params.messages.slice(known.length)) : estimateTokens({ s: params.system, t: tools, m: params.messages })
    if (estimate > COMPACT_THRESHOLD * window) {
      try {
        const compacted = await compactHistory(params, tools, window)
        if (compacted) {
          known = undefined
          yield { type: 'usage', ...compacted.usage, model: compacted.model, costUsd: compacted.costUsd }
          yield { type: 'compacted', summary: compacted.summary, replaced: compacted.replaced, messages: [...params.messages] }
          yield { type: 'notice', level: 'info', message: `Context ${Math.round((estimate / window) * 100)}% full: compacted ${compacted.replaced} earlier messages into a summary.` }
        }
      } catch (error) {
        if (!(error instanceof ModelError)) throw error
        if (error.kind === 'aborted') return { reason: 'aborted', finalText, turns }
        yield { type: 'notice', level: 'warning', message: `Compaction failed, continuing with the full history: ${error.message}` }
      }
    }
    turns++
    let response: { message: AssistantMessage; stopReason: string | null } | undefined
    try {
      for await (const event of params.client.stream(
        { model: params.model, maxTokens: params.maxTokens ?? 8192, system: params.system, tools, messages: params.messages },
        { agent: params.agent, signal: params.signal, ...(params.extraBreakpoint ? { extraBreakpoint: params.extraBreakpoint } : {}) }
      )) {
        if (event.type === 'text_delta') yield event
        else if (event.type === 'retry') yield { type: 'notice', level: 'warning', message: retryNotice(event) }
        else {
          const costUsd = costOf(event.model, event.usage)
          params.budget?.add(costUsd)
          params.onUsage?.(event.usage, costUsd, event.model)
          yield { type: 'usage', ...event.usage, model: event.model, costUsd }
          response = event
          const u = event.usage
          known = { tokens: u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens + u.outputTokens, length: params.messages.length + 1 }
        }
      }
    } catch (error) {
      if (!(error instanceof ModelError)) throw error
      if (error.kind === 'aborted') return { reason: 'aborted', finalText, turns }
      return { reason: 'model_error', error, finalText, turns }
    }
    if (!response) throw new Error('The model stream ended without a response.')
    const assistant = response.message
    params.messages.push(assistant as MessageParam)
    yield { type: 'message', role: 'assistant', message: assistant as MessageParam }
    const text = assistant.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n')
    if (text.trim() !== '') {
      finalText = text
      yield { type: 'assistant_text', text }
    }
    const uses: ToolUse[] = assistant.content.filter((b): b is ToolUse & { type: 'tool_use' } => b.type === 'tool_use')
    if (uses.length === 0) return { reason: 'completed', finalText, turns }
    const results = yield* pumpWhile<LoopEvent, Awaited<ReturnType<typeof runToolUses>>>((emit) => runToolUses(uses, params, emit))
    const resultMessage: MessageParam = { role: 'user', content: results }
    params.messages.push(resultMessage)
    yield { type: 'message', role: 'user', message: resultMessage }
  }
}

/** The notice of one retried attempt: why it failed, and when the next one goes out when known. */
function retryNotice(event: { attempt: number; reason: string; delayMs?: number }): string {
  const when = event.delayMs !== undefined ? ` in ${event.delayMs} ms` : ''
  return `Model request failed (${event.reason}); retry ${event.attempt}${when}.`
}
