import stripAnsi from 'strip-ansi'

/**
 * Turns raw PTY output into text for the model: ANSI sequences removed (strip-ansi, STACK.md),
 * CRLF → LF (a PTY turns every `\n` into `\r\n`), and carriage-return overwrites collapsed to what
 * the terminal finally showed on that line — a progress bar that redrew itself 500 times becomes
 * its last state instead of 500 copies. Backspace and other control characters (except tab) are
 * dropped. Trailing whitespace is not trimmed here: callers join chunks of a stream.
 */
export function cleanTerminalOutput(raw: string): string {
  const text = stripAnsi(raw).replace(/\r+\n/g, '\n')
  if (!/[\r\x00-\x08\x0b-\x1f\x7f]/.test(text)) return text
  return text
    .split('\n')
    .map(collapseCarriageReturns)
    .join('\n')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')
}

/**
 * A line redrawn with `\r` keeps its last non-empty segment. A real terminal would overlay a
 * shorter redraw on the longer one, but redraws usually clear the line first (`ESC[K`, already
 * stripped), so the last segment is what a person saw.
 */
function collapseCarriageReturns(line: string): string {
  if (!line.includes('\r')) return line
  const segments = line.split('\r').filter((segment) => segment.length > 0)
  return segments.length > 0 ? segments[segments.length - 1] : ''
}
