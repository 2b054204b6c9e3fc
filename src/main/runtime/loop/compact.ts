import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '../../../shared/events'
import { ModelError, costOf, type ApiTool } from '../model'
import { applyFold, estimateTokens, foldedPart, historyTokens, nextFold, type FoldPosition } from './foldCut'
import { cutOversized, type CutText } from './fullText'
import type { LoopEvent, QueryParams } from './types'

export { estimateTokens, historyTokens } from './foldCut'

/** Compaction starts when a request would pass this share of the model's context window (docs/loop.md#the-agent-loop). */
export const COMPACT_THRESHOLD = 0.85

/**
 * No request is sent whose estimate passes this share of the window: the rest is the estimate's
 * margin of error (the loop counts ≈4 bytes a token; the model's own tokenizer decides).
 */
export const REQUEST_LIMIT_SHARE = 0.95

/**
 * A compaction must free at least this share of the window; below it (the prompt is mostly system
 * prompt and tools, or the last turn alone is huge) it would only repeat every turn.
 */
const MIN_FREED_SHARE = 0.15

/** Share of the history, by message count, kept verbatim after a compaction (at least the last exchange). */
const KEEP_SHARE = 0.25

/**
 * When the usual compaction leaves the request past the threshold (a burst of messages or a huge
 * newest turn), the oldest of what is left is summarised too, until the request is within this
 * share of the window.
 */
const BURST_GOAL_SHARE = 0.5

/** A summary request's prompt stays within this share of the window (its answer and the estimate's error take the rest). */
const SUMMARY_PROMPT_SHARE = 0.8

/** Output cap of a summary request, tokens. */
const SUMMARY_MAX_TOKENS = 4096

/** A single text (a message, a tool result) over this share of the window is cut when the history is compacted… */
const TEXT_CAP_SHARE = 0.25

/** …to its first this share of the window, the whole text kept on disk (see fullText.ts). */
const TEXT_HEAD_SHARE = 0.05

/** The instruction of a summary request. Scenarios match on its first words. */
export const COMPACT_INSTRUCTION =
  'Compact the conversation: write a summary of everything above that lets you continue the task without it. Keep the goal, decisions made, files read and changed (with paths), commands run and their results, errors met, and what remains to do. Do not call tools; answer with the summary only.'

function summaryBlock(summary: string): TextBlockParam {
  return {
    type: 'text',
    text: `<conversation-summary>\nThe earlier part of this conversation was compacted to save context. Summary:\n${summary}\n</conversation-summary>`
  }
}

/** The summary as it opens the compacted history. */
export function summaryMessage(summary: string): MessageParam {
  return { role: 'user', content: [summaryBlock(summary)] }
}

/**
 * What opens the history when older messages had to leave it without a summary (the summary
 * request failed and the request would not fit otherwise): where they still are.
 */
function leftOutBlock(count: number, transcriptPath: string, why: string): TextBlockParam {
  return {
    type: 'text',
    text: `<conversation-summary>\nThe earlier part of this conversation (${count} messages) did not fit the model's context window and could not be summarised (${why}). The transcript ${transcriptPath} keeps it whole.\n</conversation-summary>`
  }
}

/**
 * Where the usual compaction cuts: the index of an assistant message such that the messages from
 * it on (about the last quarter, never less than the last assistant turn and its results) are
 * kept verbatim and everything before is summarised. Starting the kept part at an assistant
 * message keeps every tool_result next to its tool_use. Undefined when there is nothing worth cutting.
 */
export function compactionCut(messages: readonly MessageParam[]): number | undefined {
  const target = Math.floor(messages.length * (1 - KEEP_SHARE))
  for (let i = target; i >= 2; i--) if (messages[i]?.role === 'assistant') return i
  return undefined
}

/** What a compaction did (see {@link compactHistory}). */
export interface Compaction {
  /** The last summary written; '' when only texts were cut. */
  summary: string
  /** Summary requests made. */
  summaries: number
  /** Old history length − new history length + 1: the messages the new first message stands for. */
  replaced: number
  /** Texts cut to fit, each kept whole on disk. */
  cut: CutText[]
  /** True when the oldest messages left the history with a note instead of a summary (the transcript keeps them). */
  leftOut: boolean
  /** Why the compaction did less than it should (a failed summary request), for a warning. */
  warning?: string
}

/** Tokens of the instruction as a summary request adds it. */
const INSTRUCTION_TOKENS = estimateTokens({ type: 'text', text: COMPACT_INSTRUCTION }) + 8

/**
 * Makes the history fit the context window, in place, oldest first (docs/loop.md#the-agent-loop):
 * 1. every single text over a quarter of the window is cut to its start with a marker naming the
 *    file that keeps it whole ({@link cutOversized});
 * 2. the usual compaction: a model-written summary replaces all but the last quarter of the
 *    messages. Its request reuses the agent's system prompt, tools and history prefix, so it is
 *    mostly read from the prompt cache;
 * 3. when the request is still past the threshold (thousands of messages arrived at once, or one
 *    turn is huge), the oldest of what is left — whole exchanges, then the arrived messages one by
 *    one — is folded into the summary in runs that each fit one summary request, until the request
 *    takes at most half the window. A tool_use is never separated from its tool_result.
 * A summary request that fails stops the summarising; if the request would then not fit, the
 * oldest messages leave the history with a note naming the transcript, which keeps them.
 * Each summary request's usage is emitted (and added to the budget) as it completes.
 * @param window the context window, tokens
 * @returns what was done; undefined when nothing was (nothing worth cutting or summarising).
 * @throws ModelError of kind `aborted` when the signal aborts a summary request (the history is then unchanged).
 */
export async function compactHistory(
  params: QueryParams,
  tools: ApiTool[],
  window: number,
  emit: (event: LoopEvent) => void
): Promise<Compaction | undefined> {
  const base = estimateTokens({ s: params.system, t: tools })
  const cuts: CutText[] = []
  let messages: MessageParam[] = params.messages
  let warning: string | undefined
  try {
    messages = cutOversized(
      messages,
      Math.floor(TEXT_CAP_SHARE * window),
      Math.floor(TEXT_HEAD_SHARE * window),
      params.transcriptPath,
      cuts
    )
  } catch (error) {
    cuts.length = 0
    warning = `the oversized texts could not be kept whole on disk, so none was cut (${(error as Error).message})`
  }
  let summary = ''
  let summaries = 0
  let leftOut = false
  const summariseAt = async (at: FoldPosition): Promise<boolean> => {
    try {
      summary = await summarise(params, tools, foldedPart(messages, at), emit)
    } catch (error) {
      if (!(error instanceof ModelError) || error.kind === 'aborted') throw error
      warning = `a summary request failed: ${error.message}`
      return false
    }
    summaries++
    messages = applyFold(messages, at, summaryBlock(summary))
    return true
  }

  // 2. the usual compaction, exactly as a history that grew turn by turn has always been compacted
  const cut = compactionCut(messages)
  if (cut !== undefined && warning === undefined) {
    const older = historyTokens(messages.slice(0, cut))
    if (older >= MIN_FREED_SHARE * window && base + older + INSTRUCTION_TOKENS <= SUMMARY_PROMPT_SHARE * window)
      await summariseAt({ message: cut, block: 0 })
  }
  // 3. a burst: fold the oldest of what is left, one summary request at a time
  const goal = BURST_GOAL_SHARE * window - base
  while (warning === undefined && base + historyTokens(messages) > COMPACT_THRESHOLD * window) {
    const before = historyTokens(messages)
    const at = nextFold(messages, SUMMARY_PROMPT_SHARE * window - base - INSTRUCTION_TOKENS, goal, SUMMARY_MAX_TOKENS)
    if (at === undefined || !(await summariseAt(at)) || historyTokens(messages) >= before) break
  }
  // without summaries, what still does not fit leaves the history, oldest first; the transcript keeps it
  if (base + historyTokens(messages) > REQUEST_LIMIT_SHARE * window) {
    const at = nextFold(messages, Number.POSITIVE_INFINITY, goal, 200)
    if (at !== undefined) {
      messages = applyFold(
        messages,
        at,
        leftOutBlock(
          at.message + (at.block > 0 ? 1 : 0),
          params.transcriptPath,
          warning ?? 'no summary request could carry them'
        )
      )
      summary = ''
      leftOut = true
    }
  }
  if (messages === params.messages) return undefined
  const replaced = params.messages.length - messages.length + 1
  params.messages.splice(0, params.messages.length, ...messages)
  return { summary, summaries, replaced, cut: cuts, leftOut, ...(warning ? { warning } : {}) }
}

/**
 * One summary request: `part` (a valid conversation, oldest first) with the instruction joined to
 * its last user message (roles keep alternating), on the agent's system prompt and tools.
 * @returns the summary text.
 * @throws ModelError when the request fails or the summary is empty.
 */
async function summarise(
  params: QueryParams,
  tools: ApiTool[],
  part: MessageParam[],
  emit: (event: LoopEvent) => void
): Promise<string> {
  const last = part[part.length - 1]!
  const instruction = { type: 'text' as const, text: COMPACT_INSTRUCTION }
  const request: MessageParam[] =
    last.role === 'user'
      ? [
          ...part.slice(0, -1),
          {
            role: 'user',
            content: [
              ...(typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content),
              instruction
            ]
          }
        ]
      : [...part, { role: 'user', content: [instruction] }]
  let summary = ''
  for await (const event of params.client.stream(
    { model: params.model, maxTokens: SUMMARY_MAX_TOKENS, system: params.system, tools, messages: request },
    { agent: params.agent, signal: params.signal }
  )) {
    if (event.type !== 'response') continue
    summary = event.message.content
      .filter((b) => b.type === 'text')
      .map((b) => b.text)
      .join('\n')
      .trim()
    const costUsd = costOf(event.model, event.usage)
    params.budget?.add(costUsd)
    params.onUsage?.(event.usage, costUsd, event.model)
    emit({ type: 'usage', ...(event.usage as Usage), model: event.model, costUsd })
  }
  if (!summary)
    throw new ModelError('bad_request', 'The model returned an empty summary; the history was not compacted.')
  return summary
}
