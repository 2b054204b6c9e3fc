import type { Terminal } from '@xterm/headless'

/**
 * What a scan of plain pane output found ({@link scanPlainOutput}): its line feeds, where its last
 * SGR sequence that resets the attributes starts (UTF-16 index of the ESC, -1 for none), and the
 * length of a CSI sequence left unfinished at its end (0 for none; the next chunk finishes it).
 */
export interface PlainScan {
  lineFeeds: number
  lastReset: number
  open: number
}

/**
 * Scans a chunk of pane output for what would keep its effect on a terminal from being summed up
 * as "these lines, in these colours". Plain output holds only printable text, CR, LF, VT, FF, TAB,
 * BS, BEL, and complete escape sequences that stay on the cursor's row or only name the window:
 * SGR (`CSI … m`), erase/insert/delete in the line (`CSI … K`, `X`, `P`, `@`), horizontal moves
 * (`CSI … G`, `` ` ``, `C`, `D`) and OSC 0/1/2 titles without controls inside. Anything else — a vertical or absolute cursor
 * move, a scroll region, a mode, the alternate screen, a hyperlink, a charset, a C1 control, an
 * unfinished OSC — makes the chunk not plain. A CSI sequence cut at the chunk's end (output comes
 * in reads of any size) counts as plain so far and is reported as `open`: scan it again with the
 * next chunk ({@link PaneBacklog.add} does).
 *
 * Returns the chunk's line feeds, last resetting SGR and open tail, or undefined when it is not plain.
 * The sequences are ECMA-48's; xterm.js treats 0x80–0x9f as C1 controls, hence those too.
 */
export function scanPlainOutput(data: string): PlainScan | undefined {
  if (OTHER_CONTROLS.test(data)) return undefined
  let lastReset = -1
  let open = 0
  for (let i = data.indexOf('\x1b'); i !== -1; i = data.indexOf('\x1b', i)) {
    const kind = data.charCodeAt(i + 1)
    if (i + 1 === data.length) {
      open = 1
      break
    }
    if (kind === 0x5b /* [ */) {
      let j = i + 2
      for (let c = data.charCodeAt(j); c >= 0x30 && c <= 0x3b /* 0-9 : ; */; c = data.charCodeAt(++j));
      if (j === data.length) {
        open = j - i
        break
      }
      const final = data.charCodeAt(j)
      if (!LINE_CSI_FINALS.has(final)) return undefined
      if (final === 0x6d /* m */ && resetsAttributes(data, i + 2, j)) lastReset = i
      i = j + 1
    } else if (kind === 0x5d /* ] */) {
      const ps = data.charCodeAt(i + 2)
      if (ps < 0x30 || ps > 0x32 || data.charCodeAt(i + 3) !== 0x3b) return undefined // only OSC 0, 1, 2
      const bel = data.indexOf('\x07', i + 4)
      const esc = data.indexOf('\x1b', i + 4)
      let end: number
      if (esc !== -1 && (bel === -1 || esc < bel)) {
        if (data.charCodeAt(esc + 1) !== 0x5c /* \ */) return undefined
        end = esc
      } else if (bel !== -1) end = bel
      else return undefined
      // a terminal ignores controls inside the title: a line feed there moves no line, and would
      // be counted as one (a shell's title holding a multi-line command)
      for (let k = i + 4; k < end; k++) if (data.charCodeAt(k) < 0x20) return undefined
      i = end === esc ? end + 2 : end + 1
    } else return undefined
  }
  return { lineFeeds: countLineFeeds(data), lastReset, open }
}

/** C0 and C1 controls plain output may not hold (see {@link scanPlainOutput}); ESC is checked sequence by sequence. */
const OTHER_CONTROLS = /[\x00-\x06\x0e-\x1a\x1c-\x1f\x7f-\x9f]/

/** Final bytes of the CSI sequences that leave the cursor on its row: SGR m, EL K, ECH X, DCH P, ICH @, CHA G, HPA `, CUF C, CUB D. */
const LINE_CSI_FINALS = new Set(['m', 'K', 'X', 'P', '@', 'G', '`', 'C', 'D'].map((c) => c.charCodeAt(0)))

/** Whether the SGR with parameters data[from, to) starts by resetting every attribute (first parameter 0 or omitted, ECMA-48 8.3.117). */
function resetsAttributes(data: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = data.charCodeAt(k)
    if (c === 0x3b /* ; */) return true
    if (c !== 0x30 /* 0 */) return false
  }
  return true
}

/** Every SGR sequence in a string, with its parameters (group 1). */
const SGR = /\x1b\[([0-9;:]*)m/g

/**
 * SGR sequences carried over a trim, most; past it the backlog is parsed instead of trimmed
 * (output that sets colours without ever resetting them).
 */
export const MAX_CARRIED_SGR = 256

interface Piece {
  data: string
  lineFeeds: number
  lastReset: number
  /** Length of the CSI sequence left unfinished at the end of `data` (0: none). */
  open: number
}

/**
 * A pane's plain output (see {@link scanPlainOutput}) that main has not parsed into the pane's
 * headless terminal yet, and the rule that lets most of it never be parsed (issue 7: parsing every
 * pane's output cost the runtime a quarter of a core at 16 panes × 200 KB/s, and a pane's terminal
 * keeps only its last lines anyway).
 *
 * {@link trim} replaces all but the last `keep` line feeds of the backlog by their net effect on
 * the tail: the SGR sequences since the last reset (the attributes the tail starts with) and a CR.
 * That is exact — the terminal ends with the same lines, cursor and attributes as if everything had
 * been parsed — when:
 * - the backlog is plain (every piece passed {@link scanPlainOutput}): nothing in the dropped part
 *   moves the cursor off its row or changes a mode, so its only lasting effects are lines of text,
 *   the cursor's row and the attributes;
 * - the cut is right after a CRLF, so the tail starts at the line's left margin either way;
 * - the terminal starts the backlog in its ground state with a full-screen scroll region
 *   ({@link terminalAtPlainState}), so each line feed at the bottom row scrolls the whole screen;
 * - `keep` ≥ the lines the terminal keeps (scrollback + rows) + rows + 1: the first `rows` line
 *   feeds of the tail bring the cursor to the bottom row wherever it was, and every line kept after
 *   that was written on a fresh line by the tail.
 */
export class PaneBacklog {
  private pieces: Piece[] = []
  private feeds = 0
  private chars = 0

  /** Line feeds in the backlog. */
  get lineFeeds(): number {
    return this.feeds
  }

  /** Length of the backlog, UTF-16 units. */
  get length(): number {
    return this.chars
  }

  /** Whether the backlog ends inside a CSI sequence (the next chunk finishes it). */
  get endsInsideSequence(): boolean {
    return (this.pieces.at(-1)?.open ?? 0) > 0
  }

  /**
   * Adds a chunk of output when it is plain ({@link scanPlainOutput}, read together with a CSI
   * sequence the backlog ends inside); returns false, adding nothing, when it is not.
   */
  add(data: string): boolean {
    if (data.length === 0) return true
    const last = this.pieces.at(-1)
    if (last && last.open > 0) {
      // finish the sequence in the piece that started it, so a scan of one piece sees it whole
      const from = last.data.length - last.open
      const scan = scanPlainOutput(last.data.slice(from) + data)
      if (!scan) return false
      last.data += data
      last.lineFeeds += scan.lineFeeds
      if (scan.lastReset !== -1) last.lastReset = from + scan.lastReset
      last.open = scan.open
      this.feeds += scan.lineFeeds
      this.chars += data.length
      return true
    }
    const scan = scanPlainOutput(data)
    if (!scan) return false
    this.pieces.push({ data, ...scan })
    this.feeds += scan.lineFeeds
    this.chars += data.length
    return true
  }

  /** Removes and returns the whole backlog, in order (what the terminal should parse now). */
  take(): string {
    const data = this.pieces.length === 1 ? this.pieces[0]!.data : this.pieces.map((p) => p.data).join('')
    this.pieces = []
    this.feeds = 0
    this.chars = 0
    return data
  }

  /**
   * Replaces the backlog's output before its last `keep` line feeds (or a few more, to cut after a
   * CRLF) by the SGR state it leaves and a CR (see the class doc for when that is exact). Returns
   * false, changing nothing, when there is no CRLF to cut after or more than
   * {@link MAX_CARRIED_SGR} SGR sequences would be carried: parse the backlog instead.
   */
  trim(keep: number): boolean {
    const cut = this.findCut(keep)
    if (!cut) return false
    const carried = this.sgrBefore(cut.piece, cut.at)
    if (!carried) return false
    const piece = this.pieces[cut.piece]!
    const rest = piece.data.slice(cut.at + 1)
    const restScan: Piece = {
      data: rest,
      lineFeeds: countLineFeeds(rest),
      lastReset: piece.lastReset > cut.at ? piece.lastReset - cut.at - 1 : -1,
      open: piece.open
    }
    const carry = carried.join('') + '\r'
    const head: Piece = {
      data: carry,
      lineFeeds: 0,
      lastReset: carried.length > 0 && isResetSgr(carried[0]!) ? 0 : -1,
      open: 0
    }
    this.pieces = [head, ...(rest.length > 0 ? [restScan] : []), ...this.pieces.slice(cut.piece + 1)]
    this.feeds = this.pieces.reduce((n, p) => n + p.lineFeeds, 0)
    this.chars = this.pieces.reduce((n, p) => n + p.data.length, 0)
    return true
  }

  /** The LF to cut after: the latest one that is preceded by CR and followed by at least `keep` line feeds. */
  private findCut(keep: number): { piece: number; at: number } | undefined {
    let after = 0
    let p = this.pieces.length - 1
    while (p >= 0 && after + this.pieces[p]!.lineFeeds <= keep) after += this.pieces[p--]!.lineFeeds
    if (p < 0) return undefined
    let data = this.pieces[p]!.data
    // the LF with exactly `keep` line feeds after it
    let at = data.length
    for (let n = keep - after + 1; n > 0; n--) at = data.lastIndexOf('\n', at - 1)
    for (;;) {
      const before = at > 0 ? data.charCodeAt(at - 1) : p > 0 ? lastCharCode(this.pieces[p - 1]!.data) : -1
      if (before === 0x0d /* \r */) return { piece: p, at }
      at = at > 0 ? data.lastIndexOf('\n', at - 1) : -1
      while (at === -1) {
        if (--p < 0) return undefined
        data = this.pieces[p]!.data
        at = data.lastIndexOf('\n')
      }
    }
  }

  /**
   * The SGR sequences, in order, from the last reset before `at` in piece `p` (or from the
   * backlog's start) up to it; undefined past {@link MAX_CARRIED_SGR}.
   */
  private sgrBefore(p: number, at: number): string[] | undefined {
    const carried: string[] = []
    for (let i = p; i >= 0; i--) {
      const piece = this.pieces[i]!
      const end = i === p ? at : piece.data.length
      const start = piece.lastReset < end ? Math.max(piece.lastReset, 0) : 0
      const found = sgrsIn(piece.data.slice(start, end))
      const reset = found.findLastIndex(isResetSgr)
      carried.unshift(...(reset === -1 ? found : found.slice(reset)))
      if (carried.length > MAX_CARRIED_SGR) return undefined
      if (reset !== -1) break
    }
    return carried
  }
}

/**
 * Whether skipping old plain output is exact from the terminal's state now (see
 * {@link PaneBacklog}): its parser is in the ground state (not inside an escape sequence), the
 * active buffer scrolls as a whole (no DECSTBM region) and reverse wraparound is off (BS cannot
 * climb to an earlier row). Reads xterm 6's private `_core._inputHandler._parser.currentState` and
 * `_core.buffer.scrollTop/scrollBottom`; when an xterm upgrade moves them this answers false, and
 * every pane's output is parsed as it comes (panes.test.ts fails to say so).
 */
export function terminalAtPlainState(terminal: Terminal): boolean {
  const core = (terminal as unknown as { _core?: PrivateCore })._core
  const parserState = core?._inputHandler?._parser?.currentState
  const buffer = core?.buffer
  return (
    parserState === 0 &&
    buffer?.scrollTop === 0 &&
    buffer.scrollBottom === terminal.rows - 1 &&
    !terminal.modes.reverseWraparoundMode
  )
}

interface PrivateCore {
  _inputHandler?: { _parser?: { currentState?: number } }
  buffer?: { scrollTop?: number; scrollBottom?: number }
}

function sgrsIn(text: string): string[] {
  return text.includes('\x1b') ? Array.from(text.matchAll(SGR), (m) => m[0]) : []
}

function isResetSgr(sgr: string): boolean {
  return resetsAttributes(sgr, 2, sgr.length - 1)
}

function countLineFeeds(data: string): number {
  let n = 0
  for (let i = data.indexOf('\n'); i !== -1; i = data.indexOf('\n', i + 1)) n++
  return n
}

function lastCharCode(data: string): number {
  return data.length > 0 ? data.charCodeAt(data.length - 1) : -1
}
