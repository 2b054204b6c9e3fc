import type { ContentBlockParam, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { blocksOf } from './fullText'

/**
 * Tokens the loop adds to each content block's estimate: the API wraps every block and message
 * in a few tokens of its own (the scripted model counts each block's place tag, about 2.5 tokens),
 * which count once thousands of small messages arrive together.
 */
const BLOCK_OVERHEAD_TOKENS = 3

/** Estimated tokens of a value sent to the model: its JSON's UTF-8 bytes / 4 (the usual ≈4 bytes a token). */
export function estimateTokens(value: unknown): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify(value)) / 4)
}

/** Estimated tokens of one message: {@link estimateTokens} plus the per-block overhead. */
export function messageTokens(message: MessageParam): number {
  return (
    estimateTokens(message) + BLOCK_OVERHEAD_TOKENS * (typeof message.content === 'string' ? 1 : message.content.length)
  )
}

/** Estimated tokens of a history: the sum of its {@link messageTokens}. */
export function historyTokens(messages: readonly MessageParam[]): number {
  let total = 0
  for (const m of messages) total += messageTokens(m)
  return total
}

/**
 * Where a fold ends: messages `[0, message)` and the first `block` blocks of message `message`
 * are summarised; everything after stays verbatim. `block` is 0 for a cut between messages and is
 * only ever > 0 in a user message (an assistant message is never split).
 */
export interface FoldPosition {
  message: number
  block: number
}

/** One step of the history, oldest first: a whole assistant message or one block of a user message. */
interface Step {
  tokens: number
  /** The position just after this step. */
  end: FoldPosition
  /** Whether a fold may end here without separating a tool_use from its tool_result. */
  valid: boolean
}

function steps(messages: readonly MessageParam[]): Step[] {
  const out: Step[] = []
  messages.forEach((message, i) => {
    const wrapper = estimateTokens({ role: message.role, content: [] })
    const blocks = blocksOf(message)
    if (message.role === 'assistant') {
      // an assistant message that calls tools must be folded with (the start of) the next one, which holds the results
      out.push({
        tokens: messageTokens(message),
        end: { message: i + 1, block: 0 },
        valid: !blocks.some((b) => b.type === 'tool_use')
      })
      return
    }
    const lastResult = blocks.findLastIndex((b) => b.type === 'tool_result')
    blocks.forEach((block, j) => {
      const end = j + 1 === blocks.length ? { message: i + 1, block: 0 } : { message: i, block: j + 1 }
      out.push({
        tokens: estimateTokens(block) + BLOCK_OVERHEAD_TOKENS + (j === 0 ? wrapper : 0),
        end,
        valid: j >= lastResult
      })
    })
  })
  // the newest step always stays: a request ends with what the agent is to answer
  if (out.length > 0) out[out.length - 1]!.valid = false
  return out
}

/**
 * The next fold, oldest first: the shortest run of the oldest steps after which the rest of the
 * history fits `goalTokens` (counting `summaryTokens` for the summary that replaces the run), or,
 * when no such run fits `budgetTokens` (what one summary request may carry), the longest run that
 * does. Undefined when not even the first valid run fits the budget.
 */
export function nextFold(
  messages: readonly MessageParam[],
  budgetTokens: number,
  goalTokens: number,
  summaryTokens: number
): FoldPosition | undefined {
  const all = steps(messages)
  const total = all.reduce((sum, s) => sum + s.tokens, 0)
  let taken = 0
  let best: FoldPosition | undefined
  for (const step of all) {
    taken += step.tokens
    if (taken > budgetTokens) break
    if (!step.valid) continue
    best = step.end
    if (total - taken + summaryTokens <= goalTokens) break
  }
  return best
}

/** The part of `messages` a fold at `at` summarises, as a valid conversation. */
export function foldedPart(messages: readonly MessageParam[], at: FoldPosition): MessageParam[] {
  const whole = messages.slice(0, at.message)
  if (at.block === 0) return whole
  return [...whole, { role: 'user', content: blocksOf(messages[at.message]!).slice(0, at.block) }]
}

/**
 * The history after a fold at `at`: `head` (the summary's text block) opens it, joined to the
 * first message kept when that is a user message (so roles still alternate), then everything after
 * the fold verbatim.
 */
export function applyFold(messages: readonly MessageParam[], at: FoldPosition, head: TextBlockParam): MessageParam[] {
  const next = messages[at.message]
  if (next === undefined || next.role === 'assistant')
    return [{ role: 'user', content: [head] }, ...messages.slice(at.message)]
  const rest: ContentBlockParam[] = blocksOf(next).slice(at.block)
  return [{ role: 'user', content: [head, ...rest] }, ...messages.slice(at.message + 1)]
}
