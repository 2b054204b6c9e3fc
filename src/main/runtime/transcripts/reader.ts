import { readFileSync } from 'node:fs'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
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
    throw new Error(`Cannot read transcript ${path}: ${(error as Error).message}`)
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
      warnings.push(`${path}:${i + 1}: ${torn ? 'torn last line (the process stopped mid-write)' : 'unreadable line'} skipped`)
    }
  })
  return { entries, warnings }
}

/** Text of the placeholder result given to a tool call the transcript shows no result for. */
export const INTERRUPTED_TOOL_RESULT = 'Interrupted: the session stopped before this tool call finished; its effects, if any, are unknown. Check before repeating it.'

/**
 * The conversation to continue from a transcript: the API messages after the last
 * `compact_boundary`, exactly as recorded. A trailing assistant message whose tool calls have no
 * results (the process died mid-tool) gets an error tool_result for each, so the history is valid
 * for the API again; that added message is also returned as `repair`, for the caller to record.
 */
export function messagesForResume(entries: TranscriptEntry[]): { messages: MessageParam[]; repair?: MessageParam } {
  let start = 0
  entries.forEach((e, i) => {
    if (e.type === 'system' && e.subtype === 'compact_boundary') start = i + 1
  })
  const messages = entries
    .slice(start)
    .filter((e) => e.type === 'user' || e.type === 'assistant')
    .map((e) => e.message as MessageParam)
  const last = messages[messages.length - 1]
  if (last?.role === 'assistant' && Array.isArray(last.content)) {
    const ids = last.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id)
    if (ids.length > 0) {
      const repair: MessageParam = {
        role: 'user',
        content: ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, is_error: true, content: INTERRUPTED_TOOL_RESULT }))
      }
      messages.push(repair)
      return { messages, repair }
    }
  }
  return { messages }
}
