import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { SessionMetaSchema, type SessionMeta, workspaceDir } from '../storage'
import { readTranscript } from './reader'

/** Characters of a session's first prompt a listing keeps. */
export const FIRST_PROMPT_CHARS = 80

/** One session of a workspace as `swarmdesk sessions list` and the workspace's Sessions menu show it. */
export interface SessionSummary extends SessionMeta {
  /** Last write to the transcript, ISO. */
  lastActivity: string
  /** Transcript lines. */
  entries: number
  /** The first user message's text, cut at {@link FIRST_PROMPT_CHARS} characters; absent before one. */
  firstPrompt?: string
  transcriptPath: string
}

/**
 * Lists the sessions of a workspace (docs/storage.md#layout: `<home>/projects/{slug}/{sessionId}/`), newest
 * activity first. A folder without a readable `session.json` and transcript is not a session and
 * is skipped; a workspace with no folder yet has none.
 */
export function listSessions(home: string, cwd: string): SessionSummary[] {
  const dir = workspaceDir(home, cwd)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const out: SessionSummary[] = []
  for (const name of names) {
    try {
      const meta = SessionMetaSchema.parse(JSON.parse(readFileSync(join(dir, name, 'session.json'), 'utf8')))
      const transcriptPath = join(dir, name, 'transcript.jsonl')
      const { entries } = readTranscript(transcriptPath)
      const first = entries.find((e) => e.type === 'user')?.message as
        { content?: string | Array<{ type: string; text?: string }> } | undefined
      const text =
        typeof first?.content === 'string' ? first.content : first?.content?.find((b) => b.type === 'text')?.text
      out.push({
        ...meta,
        lastActivity: statSync(transcriptPath).mtime.toISOString(),
        entries: entries.length,
        transcriptPath,
        ...(text ? { firstPrompt: text.slice(0, FIRST_PROMPT_CHARS) } : {})
      })
    } catch {
      // a folder without a readable session.json is not a session
    }
  }
  return out.sort((a, b) => b.lastActivity.localeCompare(a.lastActivity))
}
