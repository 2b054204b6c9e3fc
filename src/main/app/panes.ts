import { SerializeAddon } from '@xterm/addon-serialize'
import { Terminal } from '@xterm/headless'
import type { PaneScrollback } from '../../shared/ipc'
import { terminalSizeProblem, type TerminalSize } from '../../shared/terminalSize'
import { toDisposable, type Disposable } from '../runtime/base'
import { PaneBacklog, terminalAtPlainState } from './paneBacklog'

/**
 * Pane geometry and scrollback kept in main (docs/ui.md#the-workspace-ui). A pane starts at PANE_COLS × PANE_ROWS
 * cells until its page reports its size (`pane.resize`); lines of scrollback per pane.
 */
export const PANE_COLS = 120
export const PANE_ROWS = 40
export const PANE_SCROLLBACK_LINES = 10_000
/** Most output kept per pane for a restart (UTF-16 units, ≈ 1 MiB of ANSI text): the tail of its pane journal (restore/paneJournal.ts). */
export const PANE_RESTORE_MAX_CHARS = 1 << 20
/**
 * Most output a pane's backlog holds before it is parsed, UTF-16 units (4 Mi: lines so long that
 * {@link PaneBacklog.trim}'s line count never comes due).
 */
export const MAX_PANE_BACKLOG_CHARS = 1 << 22

interface Pane {
  terminal: Terminal
  serializer: SerializeAddon
  /** Chunks handed out so far. */
  written: number
  /** Chunks the headless terminal has applied (xterm writes are asynchronous). */
  applied: number
  /** Plain output not handed to the terminal yet; parsed when something reads the terminal. */
  backlog: PaneBacklog
  /** Whether new plain output may wait in the backlog: the terminal is at a plain state (terminalAtPlainState) once it has parsed what it was given. */
  deferring: boolean
  /** Writes handed to the terminal; a write's callback re-checks the state only if it was the last. */
  parses: number
}

/** Options of {@link PaneTerminals}. */
export interface PaneTerminalsOptions {
  /**
   * The size a pane reported before main had a terminal for it (workspace/paneSizes.ts), in
   * cells; undefined: PANE_COLS × PANE_ROWS.
   */
  sizeOf?: (agentId: string) => TerminalSize | undefined
  /** Lines of scrollback each pane keeps; default {@link PANE_SCROLLBACK_LINES}. */
  scrollbackLines?: number
}

/** A switch to (`h`) or from (`l`) the alternate screen: modes 1049, 1047 and 47. */
const ALTERNATE_SCREEN = /\x1b\[\?(1049|1047|47)([hl])/g

/**
 * What is written after a pane's restored output (a restored workspace) so that the next session's
 * output reads as written, wherever the process that wrote it was killed: CAN (C0 0x18) ends an
 * escape sequence the output was cut in (a cut window title took the next output as its text, a
 * cut `ESC [3` made a following "J" erase the scrollback); a full-screen program's alternate
 * screen is left (its program is gone; the pane's scrollback is under it; after modes 47 and 1047,
 * which keep no cursor of their own, the cursor stays where the program left it); a soft reset (DECSTR:
 * colours, cursor shown, scroll margins, cursor-key, insert and bracketed-paste modes) and mouse
 * tracking off undo the modes it left; and a line break follows a last line holding text (cut
 * mid-line, the next session's first line would go on from the cut).
 */
export function restoredOutputEnd(output: string): string {
  let lastSwitch: RegExpExecArray | undefined
  for (const found of output.matchAll(ALTERNATE_SCREEN)) lastSwitch = found
  const onAlternate = lastSwitch !== undefined && lastSwitch[2] === 'h'
  const leave = onAlternate ? (lastSwitch![1] === '1049' ? '\x1b[?1049l' : '\x1b[?1047l') : ''
  // back on the normal screen the cursor is where the full-screen program found it
  const shown = onAlternate ? output.slice(0, lastSwitch!.index) : output
  return `\x18${leave}\x1b[!p\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[0m${endsMidLine(shown) ? '\r\n' : ''}`
}

/** Whether `output`'s last line holds anything but control characters and CSI sequences: a cursor left after text. */
function endsMidLine(output: string): boolean {
  const last = output.slice(output.lastIndexOf('\n') + 1)
  return last.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '').replace(/[\x00-\x1f\x7f]/g, '') !== ''
}

/**
 * Every agent's pane as a headless terminal in main (docs/ui.md#the-workspace-ui: scrollback lives in main so a
 * reloaded or reopened pane is restored). Output is numbered per pane; a restored pane writes the
 * serialized buffer, then applies only chunks numbered after the one the snapshot includes.
 *
 * Size: each terminal follows the size its pane last reported ({@link resize}), so the
 * serialization — whose final cursor moves count rows and columns of this terminal — is for the
 * page's width; `scrollback` says which size it was made at, and a page whose pane measures
 * otherwise writes it at that size first (PaneOwner.restore).
 *
 * Parsing (issue 7: it was a quarter of a core at 16 panes × 200 KB/s): plain output — text and
 * colours, nothing that moves the cursor up or changes a mode (scanPlainOutput) — waits in the
 * pane's {@link PaneBacklog}, and while a pane streams it, all but the lines the terminal can keep
 * is summed up by its final colours and never parsed (PaneBacklog.trim says why that is exact).
 * The backlog is parsed when the scrollback is read, before a resize, when output that is not
 * plain comes (a full-screen program), or past {@link MAX_PANE_BACKLOG_CHARS}.
 */
export class PaneTerminals implements Disposable {
  private readonly panes = new Map<string, Pane>()
  private readonly listeners = new Set<(agentId: string, data: string, chunk: number) => void>()
  private readonly scrollbackLines: number
  private readonly counts = { parsedChars: 0, skippedChars: 0 }

  constructor(private readonly options: PaneTerminalsOptions = {}) {
    this.scrollbackLines = options.scrollbackLines ?? PANE_SCROLLBACK_LINES
  }

  /**
   * Output handed to the panes' terminals and output trimmed from their backlogs unparsed, UTF-16
   * units since this object was made (a measure of the backlog's saving, for tests and benchmarks).
   */
  parseCounts(): { parsedChars: number; skippedChars: number } {
    return { ...this.counts }
  }

  /** Appends output to an agent's pane; returns its chunk number. */
  write(agentId: string, data: string): number {
    const pane = this.pane(agentId)
    const chunk = ++pane.written
    if (pane.deferring && pane.backlog.add(data)) this.settleBacklog(pane)
    else this.parse(pane, data)
    for (const l of [...this.listeners]) l(agentId, data, chunk)
    return chunk
  }

  /**
   * The pane's scrollback as ANSI, once every chunk written so far is applied: the screen and at
   * most `lines` lines above it (default, and at most, the lines each pane keeps).
   */
  async scrollback(agentId: string, lines = this.scrollbackLines): Promise<PaneScrollback> {
    const pane = this.pane(agentId)
    if (pane.backlog.length > 0) this.parse(pane)
    await new Promise<void>((resolve) => pane.terminal.write('', resolve))
    const { cols, rows } = pane.terminal
    return {
      agentId,
      data: pane.serializer.serialize({ scrollback: Math.min(lines, this.scrollbackLines) }),
      chunk: pane.applied,
      cols,
      rows
    }
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
    // xterm parses writes later: the size applies once what came before is parsed at the old one,
    // and until then nothing waits in the backlog (a trim counts the terminal's rows)
    this.parse(pane, '', () => {
      if (this.panes.get(agentId) === pane && (pane.terminal.cols !== cols || pane.terminal.rows !== rows))
        pane.terminal.resize(cols, rows)
    })
  }

  /**
   * Refills a pane with the output saved for it (a restored workspace: restore/paneJournal.ts),
   * followed by {@link restoredOutputEnd}; it counts as the pane's first chunk.
   * @returns what was written after the output ('' for none): the pane journal records it before
   *   the session's output, so that the next restart replays the pane as it was shown.
   */
  restore(agentId: string, data: string): string {
    const end = data === '' ? '' : restoredOutputEnd(data)
    this.write(agentId, data + end)
    return end
  }

  /** The agents that have a pane, in the order their panes were made. */
  agentIds(): string[] {
    return [...this.panes.keys()]
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

  /**
   * Keeps a streaming pane's backlog to the lines its terminal can show: past a quarter more than
   * that it is trimmed (PaneBacklog.trim); parsed instead when it cannot be, or past
   * {@link MAX_PANE_BACKLOG_CHARS}.
   */
  private settleBacklog(pane: Pane): void {
    // the scrollback and screen, the screen again for the cursor to reach its bottom row, and one (PaneBacklog)
    const keep = this.scrollbackLines + 2 * pane.terminal.rows + 1
    if (pane.backlog.lineFeeds >= keep + Math.ceil(keep / 4)) {
      const before = pane.backlog.length
      if (pane.backlog.trim(keep)) this.counts.skippedChars += before - pane.backlog.length
      else this.parse(pane)
    } else if (pane.backlog.length > MAX_PANE_BACKLOG_CHARS) this.parse(pane)
  }

  /**
   * Hands the backlog, then `data` when given, to the terminal; `parsed` runs once xterm has
   * parsed them. `data` is output that is not plain, or '' for a resize (`parsed` applies it).
   * After either, or a backlog that ends inside a sequence, nothing waits in the backlog until the
   * terminal, having parsed all it was given, is at a plain state again.
   */
  private parse(pane: Pane, data?: string, parsed?: () => void): void {
    const chunk = pane.written
    if (data !== undefined || pane.backlog.endsInsideSequence) pane.deferring = false
    const text = pane.backlog.length > 0 ? pane.backlog.take() + (data ?? '') : (data ?? '')
    const n = ++pane.parses
    this.counts.parsedChars += text.length
    pane.terminal.write(text, () => {
      pane.applied = Math.max(pane.applied, chunk)
      parsed?.()
      if (n === pane.parses && !pane.deferring) pane.deferring = terminalAtPlainState(pane.terminal)
    })
  }

  private pane(agentId: string): Pane {
    let pane = this.panes.get(agentId)
    if (!pane) {
      const size = this.options.sizeOf?.(agentId)
      const terminal = new Terminal({
        cols: size?.cols ?? PANE_COLS,
        rows: size?.rows ?? PANE_ROWS,
        scrollback: this.scrollbackLines,
        allowProposedApi: true
      })
      const serializer = new SerializeAddon()
      terminal.loadAddon(serializer)
      pane = { terminal, serializer, written: 0, applied: 0, backlog: new PaneBacklog(), deferring: true, parses: 0 }
      this.panes.set(agentId, pane)
    }
    return pane
  }
}
