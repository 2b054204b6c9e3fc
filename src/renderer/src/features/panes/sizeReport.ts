import { MAX_TERMINAL_COLS, MAX_TERMINAL_ROWS, type TerminalSize } from '../../../../shared/terminalSize'

/**
 * Quiet time after a fit that changed the pane's size before the size goes to main (`pane.resize`),
 * ms. A drag of a splitter refits the pane many times; main (and a process teammate, which redraws
 * on SIGWINCH) hears only where it stopped.
 */
export const SIZE_REPORT_DEBOUNCE_MS = 150

/**
 * The pane's size as main last heard it, and the one waiting to go: {@link note} queues a size
 * unless it is the one already sent or waiting, and sends it once the pane has been quiet for the
 * debounce time — if `canSend()` still holds then (the pane is on screen and alive); an off-screen
 * pane reports on show instead.
 */
export class SizeReport {
  private reportedSize: TerminalSize | undefined
  private pendingSize: TerminalSize | undefined
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly debounceMs: number,
    private readonly send: (size: TerminalSize) => void,
    private readonly canSend: () => boolean
  ) {}

  /** Queues `size` (clamped to main's bounds: a pane that big is told the largest it allows) and restarts the quiet time. */
  note(size: TerminalSize): void {
    const next = { cols: Math.min(size.cols, MAX_TERMINAL_COLS), rows: Math.min(size.rows, MAX_TERMINAL_ROWS) }
    if (sameSize(next, this.pendingSize ?? this.reportedSize)) return
    this.pendingSize = next
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = undefined
      const pending = this.pendingSize
      this.pendingSize = undefined
      if (!pending || !this.canSend() || sameSize(pending, this.reportedSize)) return
      this.reportedSize = pending
      this.send(pending)
    }, this.debounceMs)
  }

  /** The size main last heard, as a copy; undefined before the first report or after {@link forget}. */
  reported(): TerminalSize | undefined {
    return this.reportedSize ? { ...this.reportedSize } : undefined
  }

  /** Main may have restarted (a resync): the next fit reports again. */
  forget(): void {
    this.reportedSize = undefined
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }
}

function sameSize(a: TerminalSize | undefined, b: TerminalSize | undefined): boolean {
  return a !== undefined && b !== undefined && a.cols === b.cols && a.rows === b.rows
}
