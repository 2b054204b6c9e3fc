import { findPidsWithEnv, killProcessTree, readProcEntry, snapshotProcesses } from '../../runtime/processes'
import { ownerGone } from '../../runtime/locks'

import { RUN_TAG_VARIABLE, type RecordedProcess, type WorkspaceState } from './stateFile'

/** What {@link cleanUpOrphans} found: every pid it killed, and those that outlived SIGKILL. */
export interface OrphanCleanup {
  killed: number[]
  survivors: number[]
}

/** Whether the process recorded as `p` still runs as that same process (same pid and start time). */
function stillTheSame(p: RecordedProcess): boolean {
  const row = readProcEntry(p.pid)
  if (!row || row.state === 'Z' || row.state === 'X') return false
  return p.startTime !== null && String(row.startTime) === p.startTime
}

/**
 * Kills what a workspace run that died (`kill -9`, a crash, power cut short of a reboot) left
 * running: its shells and commands, its `process` teammates and their children. A process is
 * only ever killed when it is provably the dead run's: it carries the run's tag variable
 * ({@link RUN_TAG_VARIABLE}) in its environment, or it is a PTY recorded with its pid *and* its
 * start time. Nothing is done while the recorded owner still lives (another window or `serve`
 * has the session open: its processes are its own).
 * @returns the pids killed (each with its process tree) and any that outlived SIGKILL; never throws.
 */
export async function cleanUpOrphans(state: WorkspaceState): Promise<OrphanCleanup> {
  if (state.owner.pid === process.pid || !ownerGone({ pid: state.owner.pid, startTime: state.owner.startTime }))
    return { killed: [], survivors: [] }
  const roots = new Set<number>(findPidsWithEnv(RUN_TAG_VARIABLE, state.runTag, snapshotProcesses()))
  for (const p of state.ptys) if (stillTheSame(p)) roots.add(p.pid)
  roots.delete(process.pid)
  const killed = new Set<number>()
  const survivors = new Set<number>()
  for (const root of roots) {
    const result = await killProcessTree(root, { envTag: { name: RUN_TAG_VARIABLE, value: state.runTag } })
    for (const pid of result.killed) killed.add(pid)
    for (const pid of result.survivors) survivors.add(pid)
  }
  return { killed: [...killed], survivors: [...survivors] }
}
