import { truncateLine } from './lineFormat'

/** One file's matches, as the engine found them. */
export interface FileMatches {
  /** Absolute path, as printed. */
  path: string
  /** The file's lines (`\r` removed). */
  lines: readonly string[]
  /** 0-based indices of matching lines, ascending, unique. */
  matched: readonly number[]
}

/** Context and numbering of Grep's content mode. */
export interface ContentFormat {
  /** Lines of context before / after each match (rg -B / -A). */
  before: number
  after: number
  lineNumbers: boolean
}

/**
 * Content mode in ripgrep's non-tty shape: `path:12:text` for a matching line, `path-13-text` for
 * a context line (`path:text` / `path-text` without line numbers), and, when context is asked
 * for, `--` between groups of lines that are not adjacent, within a file and across files.
 * Lines over 2000 characters are truncated as in Read.
 * @returns output lines, in file order then line order.
 */
export function formatContent(files: readonly FileMatches[], format: ContentFormat): string[] {
  const out: string[] = []
  const withContext = format.before > 0 || format.after > 0
  for (const file of files) {
    const matched = new Set(file.matched)
    for (const [from, to] of contextRanges(file, format)) {
      if (withContext && out.length > 0) out.push('--')
      for (let i = from; i <= to; i++) {
        const separator = matched.has(i) ? ':' : '-'
        const number = format.lineNumbers ? `${i + 1}${separator}` : ''
        out.push(`${file.path}${separator}${number}${truncateLine(file.lines[i])}`)
      }
    }
  }
  return out
}

/** Inclusive 0-based line ranges to print, overlapping or touching ranges merged. */
function contextRanges(file: FileMatches, format: ContentFormat): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  for (const line of file.matched) {
    const from = Math.max(0, line - format.before)
    const to = Math.min(file.lines.length - 1, line + format.after)
    const last = ranges[ranges.length - 1]
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to)
    else ranges.push([from, to])
  }
  return ranges
}
