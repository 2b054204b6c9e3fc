import { SessionMetaSchema, type SessionMeta, swarmdeskHome, workspaceDir } from '../../runtime/storage'
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

import { readTranscript } from '../../runtime/transcripts'
import { parseCommandArgs, UsageError } from '../io'

/** One row of `sessions list`. */
export interface SessionSummary extends SessionMeta {
  /** Last write to the transcript, ISO. */
  lastActivity: string
  /** Transcript lines. */
  entries: number
  /** The first user message's text, cut at 80 characters. */
  firstPrompt?: string
  transcriptPath: string
}

/** Lists the sessions of a workspace, newest activity first. Unreadable session folders are skipped. */
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
        { content?: Array<{ type: string; text?: string }> } | undefined
      const text = first?.content?.find((b) => b.type === 'text')?.text
      out.push({
        ...meta,
        lastActivity: statSync(transcriptPath).mtime.toISOString(),
        entries: entries.length,
        transcriptPath,
        ...(text ? { firstPrompt: text.slice(0, 80) } : {})
      })
    } catch {
      // a folder without a readable session.json is not a session
    }
  }
  return out.sort((a, b) => b.lastActivity.localeCompare(a.lastActivity))
}

/** `swarmdesk sessions list [--cwd DIR] [--json]` (docs/events.md#event-stream-and-command-line). */
export async function sessionsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'list')
    throw new UsageError(
      `swarmdesk sessions: unknown subcommand '${sub ?? ''}'. Use: swarmdesk sessions list [--cwd DIR] [--json]`
    )
  const { values } = parseCommandArgs('sessions list', rest, { cwd: { type: 'string' }, json: { type: 'boolean' } })
  const cwd = resolve(values.cwd ?? process.cwd())
  let root: string
  try {
    root = realpathSync(cwd)
    if (!statSync(root).isDirectory()) throw new Error('not a directory')
  } catch {
    // as `run` does: a mistyped --cwd must not look like a workspace without sessions
    throw new UsageError(
      `swarmdesk sessions list: --cwd ${cwd} does not exist or is not a directory. Give the workspace folder (default: the current directory).`
    )
  }
  const sessions = listSessions(swarmdeskHome(), root)
  if (values.json) {
    process.stdout.write(JSON.stringify(sessions) + '\n')
    return 0
  }
  if (sessions.length === 0) {
    process.stdout.write('No sessions for this workspace yet.\n')
    return 0
  }
  for (const s of sessions) {
    process.stdout.write(
      `${s.sessionId}  ${s.lastActivity}  ${String(s.entries).padStart(4)} lines  ${s.firstPrompt ?? ''}\n`
    )
  }
  return 0
}
