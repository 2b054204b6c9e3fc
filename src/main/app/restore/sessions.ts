import type { SessionListEntry } from '../../../shared/ipc'
import { ownerGone } from '../../runtime/locks'
import { listSessions } from '../../runtime/transcripts'
import { readWorkspaceState, restorePaths, type WorkspaceState } from './stateFile'

/**
 * The pid of another live process that has `state`'s session open, else undefined: the session's
 * owner, when it is not this process and still runs as the process that wrote it (locks/owner.ts).
 */
export function otherOwner(state: WorkspaceState | undefined): number | undefined {
  if (!state || state.owner.pid === process.pid || ownerGone(state.owner)) return undefined
  return state.owner.pid
}

/**
 * The sessions of workspace `cwd` as the top bar's Sessions menu lists them (`sessions.list`),
 * most recently active first: each with its first prompt, the team its saved state names
 * (`workspace.json`), whether it is `currentId`, and the pid of another process that has it open.
 * The open session's team is `currentTeam`, the one it leads now: its `workspace.json` is written
 * a moment after a change (recorder.ts), so the file may not name a team TeamCreate just made.
 * A session whose `workspace.json` cannot be read is listed without a team (its transcript is the
 * source of truth; the restore then warns as a start does).
 */
export function listWorkspaceSessions(
  home: string,
  cwd: string,
  currentId: string,
  currentTeam?: string
): SessionListEntry[] {
  return listSessions(home, cwd).map((s) => {
    let state: WorkspaceState | undefined
    try {
      state = readWorkspaceState(restorePaths(home, cwd, s.sessionId))
    } catch {
      state = undefined
    }
    const elsewhere = s.sessionId === currentId ? undefined : otherOwner(state)
    const team = s.sessionId === currentId ? currentTeam : state?.team
    return {
      sessionId: s.sessionId,
      createdAt: s.createdAt,
      lastActivity: s.lastActivity,
      entries: s.entries,
      current: s.sessionId === currentId,
      ...(s.firstPrompt ? { firstPrompt: s.firstPrompt } : {}),
      ...(team ? { team } : {}),
      ...(elsewhere ? { openElsewhere: elsewhere } : {})
    }
  })
}
