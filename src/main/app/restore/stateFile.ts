import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { AgentViewSchema } from '../../../shared/ipc'
import { writeFileAtomicSync } from '../../runtime/locks'
import {
  LAST_SESSION_FILE,
  LastSessionSchema,
  type LastSession,
  leaderTranscriptPath,
  sessionDir,
  workspaceDir
} from '../../runtime/storage'
import { PANE_RESTORE_MAX_CHARS } from '../panes'
import { PANE_JOURNAL_DIR, readPaneJournal, tailFromLineStart } from './paneJournal'

/**
 * What a workspace keeps on disk so a restart (or a crash: `kill -9` of the app or of `swarmdesk
 * serve`) reopens it as it was (issue 8 "Restore"). Two files, each written whole by temp +
 * rename, so a reader sees the previous or the next version, never a torn one, and a journal:
 *
 * - `<home>/projects/{slug}/last-session.json`: which session the workspace reopens.
 * - `<home>/projects/{slug}/{sessionId}/workspace.json`: the agents as the UI showed them, the
 *   team, and who ran the session (the process and its PTYs), for orphan clean-up.
 * - `<home>/projects/{slug}/{sessionId}/panes/`: each pane's output, an append-only journal per
 *   pane (paneJournal.ts; records are appended whole). Earlier versions kept one `panes.json` of
 *   serialized scrollback instead: it is still read for their sessions.
 *
 * Transcripts, the team config, inboxes and the task list already live on disk (docs/storage.md#layout); these
 * files add only what the UI needs on top of them.
 */

/** File names, beside the session's transcript (docs/storage.md#layout layout); `last-session.json` is the store's (storage/workspaceStore.ts). */
export { LAST_SESSION_FILE, LastSessionSchema, type LastSession }
export const WORKSPACE_STATE_FILE = 'workspace.json'
export const PANES_FILE = 'panes.json'

/**
 * The environment variable every PTY command of one workspace run carries (value: the run's
 * `runTag`). Descendants inherit it, so after a crash the next start finds exactly the processes
 * that run left behind, however they were re-parented, and never an unrelated one.
 */
export const RUN_TAG_VARIABLE = 'SWARMDESK_WORKSPACE_RUN'

/** A process that ran the session or one of its PTYs, told apart from a later process reusing its pid by its start time. */
export const RecordedProcessSchema = z.object({
  pid: z.number().int().positive(),
  /** Field 22 of `/proc/<pid>/stat` (clock ticks since boot) as text; null where /proc is missing. */
  startTime: z.string().nullable()
})
export type RecordedProcess = z.infer<typeof RecordedProcessSchema>

/** `workspace.json`: the session's agents and who ran them. */
export const WorkspaceStateSchema = z.object({
  schemaVersion: z.literal(1),
  sessionId: z.string().min(1),
  cwd: z.string(),
  /** ISO time of this write. */
  updatedAt: z.string(),
  /** The process that ran the session (the app's main process or `swarmdesk serve`). */
  owner: RecordedProcessSchema,
  /** Value of {@link RUN_TAG_VARIABLE} in every PTY the run started. */
  runTag: z.string().min(1),
  /** The PTYs alive at the time of this write (commands, process teammates' terminals). */
  ptys: z.array(RecordedProcessSchema),
  /** Every agent as the UI showed it: leader, teammates, subagents (name, type, backend, state, parent, usage). */
  agents: z.array(AgentViewSchema),
  /** The session's team (docs/teams.md#team-config), when it leads one. */
  team: z.string().optional()
})
export type WorkspaceState = z.infer<typeof WorkspaceStateSchema>

/** `panes.json`: per agent id, its pane's scrollback serialized as ANSI (xterm's serialize addon). */
export const PanesFileSchema = z.object({
  schemaVersion: z.literal(1),
  updatedAt: z.string(),
  panes: z.record(z.string(), z.string())
})
export type PanesFile = z.infer<typeof PanesFileSchema>

/** Where one workspace's restore files are. */
export interface RestorePaths {
  lastSession: string
  state: string
  /** `panes.json`, written by earlier versions (read only, for their sessions). */
  panes: string
  /** The pane journal's folder (paneJournal.ts). */
  paneJournal: string
}

/** The restore files of `sessionId` in workspace `cwd` under `home`. */
export function restorePaths(home: string, cwd: string, sessionId: string): RestorePaths {
  const dir = sessionDir(home, cwd, sessionId)
  return {
    lastSession: join(workspaceDir(home, cwd), LAST_SESSION_FILE),
    state: join(dir, WORKSPACE_STATE_FILE),
    panes: join(dir, PANES_FILE),
    paneJournal: join(dir, PANE_JOURNAL_DIR)
  }
}

/**
 * Reads and validates a JSON file; undefined when it does not exist.
 * @throws Error naming the file and what is wrong with it, when it exists but is unreadable or invalid.
 */
function readJson<T>(path: string, schema: z.ZodType<T>): T | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`, { cause: error })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`${path} is not JSON (${(error as Error).message}); delete it to start without it.`, {
      cause: error
    })
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success)
    throw new Error(
      `${path} does not match its schema (${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}); delete it to start without it.`
    )
  return parsed.data
}

/** Writes `value` as JSON atomically (temp + rename), creating the folder. */
function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileAtomicSync(path, JSON.stringify(value) + '\n')
}

/**
 * The session workspace `cwd` reopens: the one `last-session.json` names, when its leader
 * transcript still exists; undefined for a workspace never opened, or whose last session is gone.
 * @throws Error when `last-session.json` exists but is invalid (the message says which file).
 */
export function readLastSession(home: string, cwd: string): string | undefined {
  const last = readJson(join(workspaceDir(home, cwd), LAST_SESSION_FILE), LastSessionSchema)
  if (!last) return undefined
  return existsSync(leaderTranscriptPath(home, cwd, last.sessionId)) ? last.sessionId : undefined
}

/** Records `sessionId` as the session workspace `cwd` reopens at its next start. */
export function writeLastSession(home: string, cwd: string, sessionId: string): void {
  writeJson(
    restorePaths(home, cwd, sessionId).lastSession,
    LastSessionSchema.parse({ schemaVersion: 1, sessionId, updatedAt: new Date().toISOString() })
  )
}

/** `workspace.json` of a session; undefined when the session never wrote one. @throws Error for an invalid file. */
export function readWorkspaceState(paths: RestorePaths): WorkspaceState | undefined {
  return readJson(paths.state, WorkspaceStateSchema)
}

/** Writes `workspace.json` atomically. @throws ZodError when `state` breaks the schema (a bug). */
export function writeWorkspaceState(paths: RestorePaths, state: WorkspaceState): void {
  writeJson(paths.state, WorkspaceStateSchema.parse(state))
}

/** `panes.json` of a session of an earlier version; undefined when there is none. @throws Error for an invalid file. */
export function readPanes(paths: RestorePaths): PanesFile | undefined {
  return readJson(paths.panes, PanesFileSchema)
}

/**
 * The output to refill each pane with when the session reopens: its pane journal's tail, after
 * what an earlier version's `panes.json` held for it (at most {@link PANE_RESTORE_MAX_CHARS}
 * characters in all, from a line start).
 * @throws Error for an invalid `panes.json` (the journal alone is never an error).
 */
export function readSavedPanes(paths: RestorePaths): Record<string, string> {
  const legacy = readPanes(paths)?.panes ?? {}
  const journal = readPaneJournal(paths.paneJournal)
  const panes: Record<string, string> = { ...legacy }
  for (const [agentId, text] of Object.entries(journal))
    panes[agentId] = tailFromLineStart((legacy[agentId] ?? '') + text, PANE_RESTORE_MAX_CHARS)
  return panes
}
