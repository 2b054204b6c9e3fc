import { type PtyProcess, PtySizeError } from '../../pty'
import { terminalSizeProblem } from '../../../../shared/terminalSize'
import type { TeammateExitInfo } from '../executor'

/**
 * A teammate that runs in a terminal of the leader's PTY host, as the process and host (ssh)
 * executors keep one: its terminal, whether it still runs, why it was stopped, and its end.
 */
export interface TerminalTeammate {
  proc: PtyProcess
  alive: boolean
  /** Set by a kill while it still ran; its end then says it was killed, and why. */
  killReason: string | undefined
  exited: Promise<TeammateExitInfo>
}

/**
 * Kills a terminal teammate (its terminal and every process of it; `reason` noted, default
 * `killed`) and resolves once it has ended. Resolves at once for an unknown one; idempotent.
 */
export async function killTerminalTeammate(entry: TerminalTeammate | undefined, reason?: string): Promise<void> {
  if (!entry) return
  if (entry.alive) {
    entry.killReason ??= reason ?? 'killed'
    await entry.proc.kill()
  }
  await entry.exited
}

/**
 * Resizes a running terminal teammate's terminal (its pane changed size, docs/ui.md#the-workspace-ui).
 * @returns true when resized; false for an unknown or ended one.
 * @throws PtySizeError for a size outside src/shared/terminalSize.ts's bounds, checked first.
 */
export function resizeTerminalTeammate(entry: TerminalTeammate | undefined, cols: number, rows: number): boolean {
  const problem = terminalSizeProblem(cols, rows)
  if (problem) throw new PtySizeError(problem)
  if (!entry?.alive || !entry.proc.resize) return false
  entry.proc.resize(cols, rows)
  return true
}
