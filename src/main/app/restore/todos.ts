import { existsSync } from 'node:fs'
import type { TodoList } from '../../../shared/todos'
import { todoListFromTranscript } from '../../runtime/runner'
import { agentTranscriptPath, leaderTranscriptPath } from '../../runtime/storage'
import { readTranscript } from '../../runtime/transcripts'

/**
 * An agent's todo list read back from its transcript when a session reopens (docs/ui.md#restore,
 * docs/tools.md#todowrite): the transcript, not the restore file, is the list's record. The leader's
 * transcript is the session's; every other agent's is `agents/<agentId>.jsonl`.
 * @returns the list, or undefined when the agent has no transcript or never wrote one.
 * @throws Error naming the file when a transcript exists but cannot be read.
 */
export function readTodoList(
  where: { home: string; cwd: string; sessionId: string },
  agentId: string,
  leaderId: string
): TodoList | undefined {
  const path =
    agentId === leaderId
      ? leaderTranscriptPath(where.home, where.cwd, where.sessionId)
      : agentTranscriptPath(where.home, where.cwd, where.sessionId, agentId)
  if (!existsSync(path)) return undefined
  return todoListFromTranscript(readTranscript(path).entries)
}
