import { FitAddon } from '@xterm/addon-fit'
import { SearchAddon } from '@xterm/addon-search'
import { WebglAddon } from '@xterm/addon-webgl'
import { Terminal, type IBuffer, type ITheme } from '@xterm/xterm'
import {
  DEFAULT_PANE_SCROLLBACK_LINES,
  MAX_PANE_SCROLLBACK_LINES,
  MIN_PANE_SCROLLBACK_LINES
} from '../../../../shared/paneScrollback'
import type { TerminalSize } from '../../../../shared/terminalSize'

/** Which renderer draws a pane: WebGL while visible and granted a context, else the DOM renderer. */
export type PaneRendererKind = 'webgl' | 'dom'

/**
 * The terminal as a pane owner uses it. The real one is xterm.js, on WebGL while its pane is visible
 * and holds one of the page's WebGL contexts, else on the DOM renderer (xterm 6 has no canvas
 * renderer, STACK.md); tests inject a fake. The optional members are what a fake may leave out.
 */
export interface PaneTerminal {
  /** Writes ANSI data; parsing is asynchronous but keeps order; `done` runs once it is parsed. */
  write(data: string, done?: () => void): void
  /** Clears the screen and scrollback back to a fresh terminal. */
  reset(): void
  /**
   * Fits columns and rows to the host element. Returns the size in character cells after the
   * fit, or undefined when the host could not be measured (hidden, detached, no font metrics yet).
   */
  fit(): TerminalSize | undefined
  /** The buffer's text (see {@link bufferText}). */
  text(): string
  /** The terminal's size in character cells now (whatever the host measures). */
  currentSize?(): TerminalSize
  /**
   * Sets the size in character cells regardless of the host (xterm reflows wrapped lines and
   * moves the cursor with them); the next `fit` measures the host again.
   */
  resize?(size: TerminalSize): void
  dispose(): void
  /**
   * Switches the renderer; returns the one in use after the call ('dom' when WebGL is unavailable
   * or failed to start). `onLost` runs if the WebGL context is lost later (the terminal is then
   * already back on the DOM renderer).
   */
  setRenderer?(kind: PaneRendererKind, onLost?: () => void): PaneRendererKind
  /** Finds `term` from the selection on (forward) or back (backward); false when it is not there. */
  find?(term: string, direction: 'next' | 'previous'): boolean
  /** Clears search highlights. */
  clearFind?(): void
  /**
   * Calls `listener` whenever the search's matches change (a find, or output that moved them):
   * see {@link FindResults}. Returns the unsubscribe.
   */
  onFindResults?(listener: (results: FindResults) => void): () => void
  /** The selected text ('' when nothing is selected). */
  selection?(): string
  selectAll?(): void
  /**
   * Keeps at most `lines` lines of scrollback from now on (the `paneScrollbackLines` setting
   * changed); fewer than it holds drops the oldest.
   * @throws RangeError when `lines` is not a whole number from 100 to 100,000 (see {@link checkScrollbackLines}).
   */
  setScrollback?(lines: number): void
  /**
   * Takes keyboard input from now on (a Claude Code session's pane, docs/claude-code.md#sessions-in-panes):
   * `listener` gets what the terminal sends for each key, as a terminal program reads it. The
   * returned function stops taking input again.
   */
  onInput?(listener: (data: string) => void): () => void
}

/**
 * Where a pane search stands (xterm's search addon `onDidChangeResults`, fired with decorations on):
 * `count` matches in the scrollback, at most {@link FIND_HIGHLIGHT_LIMIT}; `index` the selected one
 * (0-based), -1 when none is selected or there are more matches than the limit.
 */
export interface FindResults {
  index: number
  count: number
}

/** Most matches a pane search counts and highlights (the search addon's `highlightLimit`, its default). */
export const FIND_HIGHLIGHT_LIMIT = 1000

/** How a {@link PaneTerminalFactory} builds a terminal. */
export interface PaneTerminalOptions {
  /** Lines of scrollback to keep (the `paneScrollbackLines` setting); default {@link DEFAULT_PANE_SCROLLBACK_LINES}. */
  scrollbackLines?: number
}

/** Builds a {@link PaneTerminal} inside `host`. @throws RangeError on a bad `options.scrollbackLines`. */
export type PaneTerminalFactory = (host: HTMLElement, options?: PaneTerminalOptions) => PaneTerminal

/**
 * `lines` when it is an acceptable scrollback length for a pane's terminal: a whole number from
 * {@link MIN_PANE_SCROLLBACK_LINES} to {@link MAX_PANE_SCROLLBACK_LINES}, the bounds main's
 * settings validation holds the `paneScrollbackLines` setting to.
 * @throws RangeError naming the value and the bounds otherwise (a bug: the value was validated in main).
 */
export function checkScrollbackLines(lines: number): number {
  if (!Number.isInteger(lines) || lines < MIN_PANE_SCROLLBACK_LINES || lines > MAX_PANE_SCROLLBACK_LINES) {
    throw new RangeError(
      `A pane's scrollback must be a whole number of lines from ${MIN_PANE_SCROLLBACK_LINES} to ${MAX_PANE_SCROLLBACK_LINES}, not ${String(lines)}: check the paneScrollbackLines setting.`
    )
  }
  return lines
}

/** Pane colours: a dark theme matching styles/app.css. */
const THEME: ITheme = {
  background: '#0f1115',
  foreground: '#d7dae0',
  cursor: '#d7dae0',
  selectionBackground: '#3a4a66',
  black: '#1b1f27',
  red: '#ef6b73',
  green: '#7ad67a',
  yellow: '#e5c07b',
  blue: '#5fa8ff',
  magenta: '#c678dd',
  cyan: '#56d4dd',
  white: '#d7dae0',
  brightBlack: '#5c6370'
}

/**
 * Text of a buffer: its lines joined with `\n`, trailing spaces trimmed, lines that xterm wrapped
 * joined back to the line they continue (so the text does not depend on the pane's width), and
 * trailing empty lines dropped.
 */
export function bufferText(buffer: IBuffer): string {
  const lines: string[] = []
  for (let i = 0; i < buffer.length; i++) {
    const line = buffer.getLine(i)
    if (!line) continue
    const text = line.translateToString(true)
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text
    else lines.push(text)
  }
  while (lines.length > 0 && lines[lines.length - 1].trimEnd() === '') lines.pop()
  return lines.map((l) => l.trimEnd()).join('\n')
}

/**
 * Shows the terminal's scrollbar on hover only, not on every line of output: xterm 6 reveals it on
 * each scroll and re-arms a timer to fade it out again, so a pane under output ran a `setTimeout`
 * and a `clearTimeout` per line — in bench/ui (16 panes × 50 KB/s) about 5% of the page's main
 * thread, and a keystroke waits for it. xterm has no option for it: this calls its scrollable
 * element's own `setRevealOnScroll(false)` (VS Code's `ScrollableElement`, which xterm 6 uses for
 * its viewport) when xterm has one, and does nothing otherwise.
 * @returns whether the scrollbar now shows on hover only (false: this xterm has no such element).
 */
export function scrollbarOnHoverOnly(term: Terminal): boolean {
  const element = (
    term as unknown as {
      _core?: { _viewport?: { _scrollableElement?: { setRevealOnScroll?: (reveal: boolean) => void } } }
    }
  )._core?._viewport?._scrollableElement
  if (typeof element?.setRevealOnScroll !== 'function') return false
  element.setRevealOnScroll(false)
  return true
}

/** Search highlight colours (the search addon needs `allowProposedApi` for decorations). */
const SEARCH_DECORATIONS = {
  matchBackground: '#5c4a1a',
  matchOverviewRuler: '#e5c07b',
  activeMatchBackground: '#a87d1f',
  activeMatchColorOverviewRuler: '#ffd479'
}

/**
 * The real terminal: xterm with the fit and search addons, on the DOM renderer until
 * `setRenderer('webgl')` loads the WebGL addon (in try/catch: it throws where WebGL2 is missing,
 * STACK.md); output only (no stdin) until `onInput` takes keys. It keeps `options.scrollbackLines` lines of scrollback
 * (default {@link DEFAULT_PANE_SCROLLBACK_LINES}), changed at run time by `setScrollback`.
 */
export const createXtermTerminal: PaneTerminalFactory = (host, options = {}) => {
  const scrollback = checkScrollbackLines(options.scrollbackLines ?? DEFAULT_PANE_SCROLLBACK_LINES)
  const term = new Terminal({
    theme: THEME,
    fontFamily: '"JetBrains Mono", "Fira Code", "Cascadia Code", Menlo, Consolas, "DejaVu Sans Mono", monospace',
    fontSize: 13,
    lineHeight: 1.15,
    scrollback,
    disableStdin: true,
    cursorBlink: false,
    cursorInactiveStyle: 'none',
    allowProposedApi: true
  })
  const fitAddon = new FitAddon()
  term.loadAddon(fitAddon)
  const search = new SearchAddon({ highlightLimit: FIND_HIGHLIGHT_LIMIT })
  term.loadAddon(search)
  term.open(host)
  scrollbarOnHoverOnly(term)
  let webgl: WebglAddon | undefined
  const dropWebgl = (): void => {
    const addon = webgl
    webgl = undefined
    try {
      addon?.dispose()
    } catch {
      /* a lost context may fail to clean up; the DOM renderer takes over regardless */
    }
  }
  return {
    write: (data, done) => term.write(data, done),
    reset: () => term.reset(),
    fit: () => {
      // fit() measures the element; a hidden or detached pane has no size and throws or yields NaN.
      try {
        if (host.clientWidth === 0 || host.clientHeight === 0) return undefined
        const proposed = fitAddon.proposeDimensions()
        if (!proposed || !Number.isFinite(proposed.cols) || !Number.isFinite(proposed.rows)) return undefined
        fitAddon.fit()
        return { cols: term.cols, rows: term.rows }
      } catch {
        /* measured again on the next resize */
        return undefined
      }
    },
    text: () => bufferText(term.buffer.active),
    currentSize: () => ({ cols: term.cols, rows: term.rows }),
    resize: ({ cols, rows }) => term.resize(cols, rows),
    dispose: () => {
      dropWebgl()
      term.dispose()
    },
    setRenderer: (kind, onLost) => {
      if (kind === 'dom') {
        dropWebgl()
        return 'dom'
      }
      if (webgl) return 'webgl'
      try {
        const addon = new WebglAddon()
        addon.onContextLoss(() => {
          if (webgl !== addon) return
          dropWebgl()
          onLost?.()
        })
        term.loadAddon(addon)
        webgl = addon
        return 'webgl'
      } catch {
        webgl = undefined
        return 'dom'
      }
    },
    find: (text, direction) =>
      direction === 'next'
        ? search.findNext(text, { decorations: SEARCH_DECORATIONS, caseSensitive: false })
        : search.findPrevious(text, { decorations: SEARCH_DECORATIONS, caseSensitive: false }),
    clearFind: () => {
      search.clearDecorations()
      term.clearSelection()
    },
    onFindResults: (listener) => {
      const sub = search.onDidChangeResults((e) => listener({ index: e.resultIndex, count: e.resultCount }))
      return () => sub.dispose()
    },
    selection: () => term.getSelection(),
    selectAll: () => term.selectAll(),
    setScrollback: (lines) => {
      // xterm resizes its buffer when the option changes, dropping the oldest lines past the new length
      term.options.scrollback = checkScrollbackLines(lines)
    },
    onInput: (listener) => {
      term.options.disableStdin = false
      term.options.cursorBlink = true
      const sub = term.onData(listener)
      return () => {
        sub.dispose()
        term.options.disableStdin = true
        term.options.cursorBlink = false
      }
    }
  }
}
