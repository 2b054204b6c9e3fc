/** Longest line shown whole by Read and in Edit snippets (characters), as in Claude Code. */
export const MAX_LINE_CHARS = 2000

/**
 * Splits text into lines the way a person sees them: `\n` or `\r\n` ends a line, and a trailing
 * newline does not add an empty last line. A leading UTF-8 BOM is dropped.
 */
export function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (body === '') return []
  const lines = body.split(/\r?\n/)
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/** Cuts a line longer than {@link MAX_LINE_CHARS}, saying how much was left out. */
export function truncateLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line
  return `${line.slice(0, MAX_LINE_CHARS)}… [line truncated: ${line.length - MAX_LINE_CHARS} more characters]`
}

/**
 * One line in `cat -n` style: the 1-based line number right-aligned in 6 columns, a tab, the
 * (possibly truncated) text. Models are trained on this shape and strip the prefix when they
 * quote the text back in an Edit.
 */
export function numberLine(lineNumber: number, text: string): string {
  return `${String(lineNumber).padStart(6)}\t${truncateLine(text)}`
}
