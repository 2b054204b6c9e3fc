import { SerializeAddon } from '@xterm/addon-serialize'
import { Terminal } from '@xterm/headless'
import type { PaneScrollback } from '../../../shared/ipc'
import { terminalSizeProblem, type TerminalSize } from '../../../shared/terminalSize'
import { toDisposable, type Disposable } from '../lifecycle/disposable'

/**
 * Pane geometry and scrollback kept in main (SPEC §11). A pane starts at PANE_COLS × PANE_ROWS
 * cells until its page reports its size (`pane.resize`); lines of scrollback per pane.
 */
export const PANE_COLS = 120
export const PANE_ROWS = 40
export const PANE_SCROLLBACK_LINES = 10_000
/** Most output kept per pane for a restart (UTF-16 units, ≈ 1 MiB of ANSI text): the tail of its pane journal (restore/paneJournal.ts). */
export const PANE_RESTORE_MAX_CHARS = 1 << 20

interface Pane {
  terminal: Terminal
  serializer: SerializeAddon
  /** Chunks handed out so far. */
  written: number
  /** Chunks the headless terminal has applied (xterm writes are asynchronous). */
  applied: number
}

/** Options of {@link PaneTerminals}. */
export interface PaneTerminalsOptions {
  /**
   * The size a pane reported before main had a terminal for it (workspace/paneSizes.ts), in
   * cells; undefined: PANE_COLS × PANE_ROWS.
   */
  sizeOf?: (agentId: string) => TerminalSize | undefined
}

/**
 * Every agent's pane as a headless terminal in main (SPEC §11: scrollback lives in main so a
 * reloaded or reopened pane is restored). Output is numbered per pane; a restored pane writes the
 * serialized buffer, then applies only chunks numbered after the one the snapshot includes.
 *
 * Size: each terminal follows the size its pane last reported ({@link resize}), so the
 * serialization — whose final cursor moves count rows and columns of this terminal — is for the
 * page's width; `scrollback` says which size it was made at, and a page whose pane measures
 * otherwise writes it at that size first (PaneOwner.restore).
 */
export class PaneTerminals implements Disposable {
  private readonly panes = new Map<string, Pane>()
  private readonly listeners = new Set<(agentId: string, data: string, chunk: number) => void>()

  constructor(private readonly options: PaneTerminalsOptions = {}) {}

  /** Appends output to an agent's pane; returns its chunk number. */
  write(agentId: string, data: string): number {
    const pane = this.pane(agentId)
    const chunk = ++pane.written
    pane.terminal.write(data, () => {
      pane.applied = chunk
    })
    for (const l of [...this.listeners]) l(agentId, data, chunk)
    return chunk
  }

  /** The pane's scrollback as ANSI, once every chunk written so far is applied. */
  async scrollback(agentId: string): Promise<PaneScrollback> {
    const pane = this.pane(agentId)
    await new Promise<void>((resolve) => pane.terminal.write('', resolve))
    const { cols, rows } = pane.terminal
    return { agentId, data: pane.serializer.serialize({ scrollback: PANE_SCROLLBACK_LINES }), chunk: pane.applied, cols, rows }
  }

  /**
   * Resizes an agent's pane terminal to `size` (cells; its pane reported it, `pane.resize`),
   * reflowing wrapped lines as the page's terminal does. Output written before the call is applied
   * at the old size first. A pane main has no terminal for yet is left alone: it starts at the size
   * `sizeOf` gives. Throws an Error naming the bounds when `size` is outside them
   * (src/shared/terminalSize.ts).
   */
  resize(agentId: string, size: TerminalSize): void {
    const problem = terminalSizeProblem(size.cols, size.rows)
    if (problem) throw new Error(`${problem} Report the pane's size in whole character cells.`)
    const pane = this.panes.get(agentId)
    if (!pane) return
    const { cols, rows } = size
    // xterm parses writes later; resizing now would apply output written before at the new size
    pane.terminal.write('', () => {
      if (this.panes.get(agentId) === pane && (pane.terminal.cols !== cols || pane.terminal.rows !== rows)) pane.terminal.resize(cols, rows)
    })
  }

  /** Refills a pane with the output saved for it (a restored workspace: restore/paneJournal.ts); it counts as the pane's first chunk. */
  restore(agentId: string, data: string): void {
    this.write(agentId, data)
  }

  /** Forgets an agent's pane (its session ended); a later write starts it empty. */
  drop(agentId: string): void {
    this.panes.get(agentId)?.terminal.dispose()
    this.panes.delete(agentId)
  }

  /** Called with every chunk written to any pane. */
  onDidWrite(listener: (agentId: string, data: string, chunk: number) => void): Disposable {
    this.listeners.add(listener)
    return toDisposable(() => this.listeners.delete(listener))
  }

  dispose(): void {
    for (const pane of this.panes.values()) pane.terminal.dispose()
    this.panes.clear()
    this.listeners.clear()
  }

  private pane(agentId: string): Pane {
    let pane = this.panes.get(agentId)
    if (!pane) {
      const size = this.options.sizeOf?.(agentId)
      const terminal = new Terminal({ cols: size?.cols ?? PANE_COLS, rows: size?.rows ?? PANE_ROWS, scrollback: PANE_SCROLLBACK_LINES, allowProposedApi: true })
      const serializer = new SerializeAddon()
      terminal.loadAddon(serializer)
      pane = { terminal, serializer, written: 0, applied: 0 }
      this.panes.set(agentId, pane)
    }
    return pane
  }
}
