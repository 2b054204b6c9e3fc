import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { workspaceKey } from './workspaceKey'
import { workspaceStoreDir } from './workspaceStore'

/**
 * Swarmdesk's data directory (docs/storage.md#layout): `SWARMDESK_HOME`, else `~/.swarmdesk`.
 */
export function swarmdeskHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.SWARMDESK_HOME ? resolve(env.SWARMDESK_HOME) : join(homedir(), '.swarmdesk')
}

/**
 * A workspace's folder name under `<home>/projects/`: a readable slug of its canonical path and a
 * short hash of it, so two folders never share one (storage/workspaceKey.ts).
 */
export function workspaceSlug(cwd: string): string {
  return workspaceKey(cwd)
}

/**
 * `<home>/projects/{slug}`: every session of one workspace, with the sessions an earlier version
 * stored for it adopted (storage/workspaceStore.ts).
 */
export function workspaceDir(home: string, cwd: string): string {
  return workspaceStoreDir(home, cwd)
}

/** `<home>/projects/{slug}/{sessionId}`: everything one session writes. */
export function sessionDir(home: string, cwd: string, sessionId: string): string {
  return join(workspaceDir(home, cwd), sessionId)
}

/** The leader's transcript of a session. */
export function leaderTranscriptPath(home: string, cwd: string, sessionId: string): string {
  return join(sessionDir(home, cwd, sessionId), 'transcript.jsonl')
}

/** A subagent's or teammate's transcript (docs/storage.md#layout). */
export function agentTranscriptPath(home: string, cwd: string, sessionId: string, agentId: string): string {
  return join(sessionDir(home, cwd, sessionId), 'agents', `${agentId}.jsonl`)
}
