import { readFileSync } from 'node:fs'
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { TranscriptEntrySchema, type TranscriptEntry } from './schema'

/** A transcript read back: its lines, and problems met (a torn last line, a corrupt line). */
export interface ReadTranscript {
  entries: TranscriptEntry[]
  warnings: string[]
}

/**
 * Reads a JSONL transcript. A line that does not parse is skipped with a warning naming its line
 * number (a process killed mid-write tears at most the last line).
 * @throws Error with the path when the file cannot be read at all.
 */
export function readTranscript(path: string): ReadTranscript {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new Error(`Cannot read transcript ${path}: ${(error as Error).message}`, { cause: error })
  }
  const entries: TranscriptEntry[] = []
  const warnings: string[] = []
  const lines = text.split('\n')
  lines.forEach((line, i) => {
    if (line.trim() === '') return
    try {
      entries.push(TranscriptEntrySchema.parse(JSON.parse(line)))
    } catch {
      const torn = i === lines.length - 1 || (i === lines.length - 2 && lines[lines.length - 1] === '')
      warnings.push(
        `${path}:${i + 1}: ${torn ? 'torn last line (the process stopped mid-write)' : 'unreadable line'} skipped`
      )
    }
  })
  return { entries, warnings }
}

/** Text of the placeholder result given to a tool call the transcript shows no result for. */
export const INTERRUPTED_TOOL_RESULT =
  'Interrupted: the session stopped before this tool call finished; its effects, if any, are unknown. Check before repeating it.'

/**
 * The conversation to continue from a transcript: the API messages after the last
 * `compact_boundary`, as recorded, made valid for the Messages API, which rejects a `tool_use`
 * whose next message has no `tool_result` for it ("tool_use ids were found without tool_result
 * blocks"):
 * - a trailing assistant message whose tool calls have no results (the process died mid-tool)
 *   gets an error tool_result ({@link INTERRUPTED_TOOL_RESULT}) for each, in a new user message
 *   also returned as `repair`, for the caller to record (once) before its next request;
 * - an earlier assistant message whose calls the next user message does not answer (a transcript
 *   written with that shape, e.g. a wake message recorded right after an interrupted turn) gets
 *   the missing placeholder results placed first in that user message, as the API requires.
 *   This is recomputed on every read, the same way each time, so nothing is rewritten on disk.
 * The entries are not modified.
 */
export function messagesForResume(entries: TranscriptEntry[]): { messages: MessageParam[]; repair?: MessageParam } {
  let start = 0
  entries.forEach((e, i) => {
    if (e.type === 'system' && e.subtype === 'compact_boundary') start = i + 1
  })
  const recorded = entries
    .slice(start)
    .filter((e) => e.type === 'user' || e.type === 'assistant')
    .map((e) => e.message as MessageParam)
  const messages: MessageParam[] = []
  recorded.forEach((message, i) => {
    const previous = recorded[i - 1]
    const calls = previous?.role === 'assistant' ? toolUseIds(previous) : []
    messages.push(message.role === 'user' && calls.length > 0 ? answerCalls(message, calls) : message)
  })
  const calls = recorded.at(-1)?.role === 'assistant' ? toolUseIds(recorded.at(-1)!) : []
  if (calls.length === 0) return { messages }
  const repair: MessageParam = { role: 'user', content: calls.map(interruptedResult) }
  messages.push(repair)
  return { messages, repair }
}

/** Ids of a message's `tool_use` blocks, in order. */
function toolUseIds(message: MessageParam): string[] {
  return Array.isArray(message.content)
    ? message.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id)
    : []
}

function interruptedResult(id: string): ToolResultBlockParam {
  return { type: 'tool_result', tool_use_id: id, is_error: true, content: INTERRUPTED_TOOL_RESULT }
}

/**
 * `message` (a user message after an assistant message with tool calls `ids`) with a placeholder
 * result for each call it does not answer, and every tool_result ahead of its other blocks; the
 * message itself when it already answers them all in that order.
 */
function answerCalls(message: MessageParam, ids: string[]): MessageParam {
  const blocks: ContentBlockParam[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
  const results = blocks.filter((b): b is ToolResultBlockParam => b.type === 'tool_result')
  const others = blocks.filter((b) => b.type !== 'tool_result')
  const answered = new Set(results.map((r) => r.tool_use_id))
  const missing = ids.filter((id) => !answered.has(id))
  const firstOther = blocks.findIndex((b) => b.type !== 'tool_result')
  const ordered = firstOther === -1 || blocks.slice(firstOther).every((b) => b.type !== 'tool_result')
  if (missing.length === 0 && ordered) return message
  return { role: 'user', content: [...results, ...missing.map(interruptedResult), ...others] }
}
