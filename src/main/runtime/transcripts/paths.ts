import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * Swarmdesk's data directory (SPEC §12): `SWARMDESK_HOME`, else `~/.swarmdesk`.
 */
export function swarmdeskHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.SWARMDESK_HOME ? resolve(env.SWARMDESK_HOME) : join(homedir(), '.swarmdesk')
}

/**
 * A workspace's folder name under `<home>/projects/`: its absolute path with every character
 * outside `[A-Za-z0-9]` replaced by `-` (the convention of Claude Code's project folders).
 */
export function workspaceSlug(cwd: string): string {
  return resolve(cwd).replace(/[^A-Za-z0-9]/g, '-')
}

/** `<home>/projects/{slug}/{sessionId}`: everything one session writes. */
export function sessionDir(home: string, cwd: string, sessionId: string): string {
  return join(home, 'projects', workspaceSlug(cwd), sessionId)
}

/** The leader's transcript of a session. */
export function leaderTranscriptPath(home: string, cwd: string, sessionId: string): string {
  return join(sessionDir(home, cwd, sessionId), 'transcript.jsonl')
}

/** A subagent's or teammate's transcript (SPEC §12). */
export function agentTranscriptPath(home: string, cwd: string, sessionId: string, agentId: string): string {
  return join(sessionDir(home, cwd, sessionId), 'agents', `${agentId}.jsonl`)
}
