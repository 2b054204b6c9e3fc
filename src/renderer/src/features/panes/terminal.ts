import { FitAddon } from '@xterm/addon-fit'
import { Terminal, type IBuffer, type ITheme } from '@xterm/xterm'

/**
 * The terminal as a pane owner uses it. The real one is xterm.js on the DOM renderer (xterm 6 has
 * no canvas renderer, and WebGL is not needed for panes this size, STACK.md); tests inject a fake.
 */
export interface PaneTerminal {
  /** Writes ANSI data; parsing is asynchronous but keeps order. */
  write(data: string): void
  /** Clears the screen and scrollback back to a fresh terminal. */
  reset(): void
  /** Fits columns and rows to the host element. */
  fit(): void
  /** The buffer's text (see {@link bufferText}). */
  text(): string
  dispose(): void
}

/** Builds a {@link PaneTerminal} inside `host`. */
export type PaneTerminalFactory = (host: HTMLElement) => PaneTerminal

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

/** The real terminal: xterm on the DOM renderer with the fit addon; output only (no stdin). */
export const createXtermTerminal: PaneTerminalFactory = (host) => {
  const term = new Terminal({
    theme: THEME,
    fontFamily: '"JetBrains Mono", "Fira Code", "Cascadia Code", Menlo, Consolas, "DejaVu Sans Mono", monospace',
    fontSize: 13,
    lineHeight: 1.15,
    scrollback: 10_000,
    disableStdin: true,
    cursorBlink: false,
    cursorInactiveStyle: 'none',
    allowProposedApi: false
  })
  const fitAddon = new FitAddon()
  term.loadAddon(fitAddon)
  term.open(host)
  return {
    write: (data) => term.write(data),
    reset: () => term.reset(),
    fit: () => {
      // fit() measures the element; a hidden or detached pane has no size and throws or yields NaN.
      try {
        if (host.clientWidth > 0 && host.clientHeight > 0) fitAddon.fit()
      } catch {
        /* measured again on the next resize */
      }
    },
    text: () => bufferText(term.buffer.active),
    dispose: () => term.dispose()
  }
}
