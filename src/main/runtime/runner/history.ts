import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { existsSync } from 'node:fs'
import { messagesForResume, readTranscript, TranscriptWriter } from '../transcripts'

/** An agent's history as its transcript left it, made valid to continue (docs/storage.md#transcripts). */
export interface ResumedHistory {
  /** The conversation to send, without the repair (it leads the next user message). */
  messages: MessageParam[]
  /**
   * Placeholder results (INTERRUPTED_TOOL_RESULT) of the tool calls a dead process left
   * unanswered; undefined when none. They lead the next turn's first user message, recorded once,
   * because the Messages API rejects a `tool_use` whose next message has no matching `tool_result`.
   */
  repair: ContentBlockParam[] | undefined
  /** The writer that continues the transcript, chained to its last line. */
  transcript: TranscriptWriter
  /** The transcript's warnings (lines skipped as torn or unreadable). */
  warnings: string[]
}

/**
 * Opens an agent's transcript to continue it (a resumed session, a subagent resumed by
 * SendMessage or after a restart, a teammate started again): its messages since the last
 * compaction and the repair of calls it left unanswered. A missing file is an empty history.
 */
export function resumeHistory(path: string, agentId: string): ResumedHistory {
  const { entries, warnings } = existsSync(path) ? readTranscript(path) : { entries: [], warnings: [] }
  const { messages, repair } = messagesForResume(entries)
  if (repair) messages.pop()
  return {
    messages,
    repair: repair?.content as ContentBlockParam[] | undefined,
    transcript: new TranscriptWriter(path, agentId, entries.at(-1)?.uuid ?? null),
    warnings
  }
}

/**
 * The user message that opens a turn: the repair's placeholder results first (the API requires
 * tool results before any text), then each text its own block, so a burst of messages can be
 * compacted message by message.
 */
export function openingMessage(
  repair: readonly ContentBlockParam[] | undefined,
  texts: readonly string[]
): MessageParam {
  return { role: 'user', content: [...(repair ?? []), ...texts.map((text) => ({ type: 'text' as const, text }))] }
}
