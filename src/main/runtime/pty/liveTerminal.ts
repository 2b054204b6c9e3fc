// What the PTY host (ptyHost.ts) keeps of each terminal, and the errors it throws.
import type { KillTreeResult } from '../processes'

/** Thrown by `run`/`spawn` after `dispose()`: the host owns no more terminals. */
export class PtyHostDisposedError extends Error {
  override readonly name = 'PtyHostDisposedError'
  constructor() {
    super('The PTY host is disposed')
  }
}

/**
 * A terminal size outside the bounds of src/shared/terminalSize.ts (whole numbers, 1–2000
 * columns, 1–1000 rows). The message names what was wrong and what is allowed.
 */
export class PtySizeError extends RangeError {
  override readonly name = 'PtySizeError'
}

/** How a terminal's command ended: its exit code, or the signal that ended it. */
export interface ExitInfo {
  exitCode: number | null
  signal: number | null
}

/** One live terminal: `done` settles after exit and after its group was swept and verified gone. */
export interface LivePty {
  /** Its terminal's pid; another one once, when a spare shell died before its command ran and a new terminal took over. */
  pid: number
  /** The command has ended (its completion marker arrived, or the PTY exited). */
  exited: boolean
  done: Promise<ExitInfo>
  kill(): Promise<KillTreeResult>
  /** Stops reading its output (the process blocks once the kernel's buffer fills); false once it has ended. */
  pause(): boolean
  resume(): void
  /** Resizes the terminal (see {@link PtyProcess.resize}); a no-op once it has ended. */
  resize(cols: number, rows: number): void
  /** Types into the terminal (an interactive program's keys); a no-op once it has ended. */
  write(data: string): void
}

/**
 * Flow control over the host's terminals (issue 7 backpressure: "pauses PTY reads when the
 * renderer falls behind"). Output of a PTY reaches its pane synchronously from the PTY's data
 * callback (bus events are delivered synchronously), so whoever writes a pane can ask which PTY is
 * delivering at that moment and pause that one later. A PTY whose command ended (or that is being
 * killed) is resumed and can no longer be paused: node-pty reports an exit only after its socket
 * is drained, so a paused terminal would never finish.
 */
export interface PtyFlowControl {
  /** Pid of the PTY whose `onData` is running right now, else undefined. */
  deliveringPid(): number | undefined
  /** Pauses reading the PTY's output; false for an unknown or ended PTY. */
  pause(pid: number): boolean
  /** Resumes reading; a no-op for an unknown PTY. */
  resume(pid: number): void
}
