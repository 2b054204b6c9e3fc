import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { contextWindowOf, costOf, ModelError, type AssistantMessage } from '../model'
import { pumpWhile } from './channel'
import {
  COMPACT_THRESHOLD,
  REQUEST_LIMIT_SHARE,
  compactHistory,
  estimateTokens,
  historyTokens,
  type Compaction
} from './compact'
import { runToolUses, type ToolUse } from './runTools'
import { apiToolOf } from './toolSchemas'
import type { LoopEvent, QueryEnd, QueryParams } from './types'

/** Times one turn compacts on the model's count and sends again after a "prompt is too long" refusal. */
const MAX_TOO_LONG_RETRIES = 2

/**
 * The tokens and window of the API's refusal of an over-long prompt (HTTP 400 "prompt is too
 * long: 212345 tokens > 200000 maximum"); undefined for any other error.
 */
function tooLongCount(error: ModelError): { tokens: number; window: number } | undefined {
  if (error.kind !== 'bad_request') return undefined
  const match = /prompt is too long: (\d+) tokens > (\d+) maximum/.exec(error.message)
  return match ? { tokens: Number(match[1]), window: Number(match[2]) } : undefined
}

/** What a compaction did, in the words of the agent's notice. */
function compactionSummary(c: Compaction): string {
  const parts: string[] = []
  if (c.leftOut) parts.push(`left ${c.replaced} earlier messages out (the transcript keeps them)`)
  else if (c.summaries > 0) parts.push(`compacted ${c.replaced} earlier messages into a summary`)
  if (c.cut.length > 0)
    parts.push(
      `cut ${c.cut.length} oversized text${c.cut.length === 1 ? '' : 's'} (whole text kept in ${c.cut.map((t) => t.file).join(', ')})`
    )
  return `${parts.join('; ')}.`
}

/**
 * The agent loop (docs/loop.md#the-agent-loop): an async generator over turns. Each turn streams one Messages API
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
  let tools = params.tools.map(apiToolOf)
  let turns = 0
  let finalText = ''
  // Tokens of the last request plus its answer, and the history length they cover.
  let known: { tokens: number; length: number } | undefined
  const window = params.contextWindow ?? contextWindowOf(params.model)
  let extraBreakpoint = params.extraBreakpoint
  // the model's token count over the loop's estimate, once the model refused a prompt as too long
  let scale = 1
  let refusedAsTooLong = 0
  const requestTokens = () => estimateTokens({ s: params.system, t: tools }) + historyTokens(params.messages)
  for (;;) {
    if (params.signal.aborted) return { reason: 'aborted', finalText, turns }
    if (params.maxTurns !== undefined && turns >= params.maxTurns) return { reason: 'max_turns', finalText, turns }
    if (params.budget?.exhausted) return { reason: 'budget', finalText, turns }
    const fresh = await params.refreshTools?.()
    if (fresh) {
      params.tools = fresh
      tools = fresh.map(apiToolOf)
      known = undefined
    }
    const pending = params.drainPending?.() ?? []
    if (pending.length > 0) {
      const message: MessageParam = { role: 'user', content: pending.map((text) => ({ type: 'text' as const, text })) }
      params.messages.push(message)
      yield { type: 'message', role: 'user', message }
    }
    // the window as the loop's estimates see it: smaller once the model counted more tokens than they did
    const fit = window / scale
    const estimate = known ? known.tokens + historyTokens(params.messages.slice(known.length)) : requestTokens()
    if (estimate > COMPACT_THRESHOLD * fit) {
      try {
        const compacted = yield* pumpWhile<LoopEvent, Compaction | undefined>((emit) =>
          compactHistory(params, tools, fit, emit)
        )
        if (compacted) {
          known = undefined
          // the fork's placeholder breakpoint pointed into the history that was replaced
          extraBreakpoint = undefined
          yield {
            type: 'compacted',
            summary: compacted.summary,
            replaced: compacted.replaced,
            cut: compacted.cut,
            messages: [...params.messages]
          }
          yield {
            type: 'notice',
            level: 'info',
            message: `Context ${Math.round((estimate / fit) * 100)}% full: ${compactionSummary(compacted)}`
          }
          if (compacted.warning)
            yield {
              type: 'notice',
              level: 'warning',
              message: `Compaction did less than it should: ${compacted.warning}.`
            }
        }
      } catch (error) {
        if (!(error instanceof ModelError)) throw error
        if (error.kind === 'aborted') return { reason: 'aborted', finalText, turns }
        throw error
      }
      // docs/loop.md#the-agent-loop: no request passes the window; one that still would is not sent
      const after = requestTokens()
      if (after > REQUEST_LIMIT_SHARE * fit) {
        const error = new ModelError(
          'bad_request',
          `The next request would take about ${after} tokens, more than the model's context window of ${Math.floor(fit)} allows, even after compaction (the system prompt and tools alone take about ${estimateTokens({ s: params.system, t: tools })}); it was not sent. The transcript ${params.transcriptPath} keeps the whole conversation.`
        )
        return { reason: 'model_error', error, finalText, turns }
      }
    }
    turns++
    let response: { message: AssistantMessage; stopReason: string | null } | undefined
    try {
      for await (const event of params.client.stream(
        {
          model: params.model,
          maxTokens: params.maxTokens ?? 8192,
          system: params.system,
          tools,
          messages: params.messages
        },
        { agent: params.agent, signal: params.signal, ...(extraBreakpoint ? { extraBreakpoint } : {}) }
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
          known = {
            tokens: u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens + u.outputTokens,
            length: params.messages.length + 1
          }
        }
      }
    } catch (error) {
      if (!(error instanceof ModelError)) throw error
      if (error.kind === 'aborted') return { reason: 'aborted', finalText, turns }
      // the model counts tokens its own way: a prompt it found too long is compacted on its count and sent again
      const counted = tooLongCount(error)
      if (counted !== undefined && refusedAsTooLong < MAX_TOO_LONG_RETRIES) {
        refusedAsTooLong++
        scale = Math.max(scale, (counted.tokens / requestTokens()) * (window / counted.window)) * 1.05
        known = undefined
        turns--
        yield {
          type: 'notice',
          level: 'warning',
          message: `The model found the prompt too long (${counted.tokens} tokens > ${counted.window}); compacting on its count and sending again.`
        }
        continue
      }
      return { reason: 'model_error', error, finalText, turns }
    }
    if (!response) throw new Error('The model stream ended without a response.')
    const assistant = response.message
    params.messages.push(assistant as MessageParam)
    yield { type: 'message', role: 'assistant', message: assistant as MessageParam }
    const text = assistant.content
      .filter((b) => b.type === 'text')
      .map((b) => b.text)
      .join('\n')
    if (text.trim() !== '') {
      finalText = text
      yield { type: 'assistant_text', text }
    }
    const uses: ToolUse[] = assistant.content.filter((b): b is ToolUse & { type: 'tool_use' } => b.type === 'tool_use')
    if (uses.length === 0) return { reason: 'completed', finalText, turns }
    const results = yield* pumpWhile<LoopEvent, Awaited<ReturnType<typeof runToolUses>>>((emit) =>
      runToolUses(uses, params, emit)
    )
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
