import { ToolError } from './types'

/** Options of {@link compileGrepPattern}. */
export interface GrepPatternOptions {
  ignoreCase: boolean
  /** `.` matches newlines and a match may span lines (rg `-U --multiline-dotall`). */
  multiline: boolean
}

/**
 * Compiles a Grep pattern (ripgrep's syntax is close to JS's) into a global, multi-line-anchored
 * RegExp. Leading inline flags `(?i)`, `(?s)`, `(?m)` (Rust syntax, unknown to Node 20) are turned
 * into RegExp flags. Unicode mode is tried first (so `\p{L}` works) and dropped when it rejects an
 * escape JS otherwise allows (`\-`).
 * @throws ToolError naming the regex error, or when `\n` is used without multiline (as rg refuses).
 */
export function compileGrepPattern(pattern: string, options: GrepPatternOptions): RegExp {
  let source = pattern
  let flags = 'gm'
  const inline = /^\(\?([ims]+)\)/.exec(source)
  if (inline) {
    source = source.slice(inline[0].length)
    if (inline[1].includes('i')) flags += 'i'
    if (inline[1].includes('s')) flags += 's'
  }
  if (options.ignoreCase && !flags.includes('i')) flags += 'i'
  if (options.multiline && !flags.includes('s')) flags += 's'
  if (!options.multiline && /(^|[^\\])(\\\\)*\\n/.test(source)) {
    throw new ToolError('The pattern contains \\n, which never matches within one line. Set multiline: true to match across lines.')
  }
  try {
    return new RegExp(source, `${flags}u`)
  } catch {
    try {
      return new RegExp(source, flags)
    } catch (error) {
      throw new ToolError(`Invalid regex ${JSON.stringify(pattern)}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

/**
 * 0-based indices of the lines of `lines` (one file, `\n`-split, `\r` removed) that the pattern
 * matches: line by line, or with `multiline` every line a match spans. Counting lines, not
 * occurrences, as `rg --count` does.
 * @param text the same file as one string (`lines.join('\n')`), for the whole-file passes.
 */
export function matchingLines(text: string, lines: readonly string[], regex: RegExp, multiline: boolean): number[] {
  regex.lastIndex = 0
  // One pass over the whole file rules out most files cheaply. With 'm', ^ and $ see line
  // boundaries, so a line match implies a file match, except through lookaround, which can
  // see past a line's end: such patterns skip the shortcut.
  if (!multiline && !/\(\?<?[=!]/.test(regex.source) && !regex.test(text)) return []
  return multiline ? multilineMatches(text, regex) : lineMatches(lines, regex)
}

function lineMatches(lines: readonly string[], regex: RegExp): number[] {
  const found: number[] = []
  for (let i = 0; i < lines.length; i++) {
    regex.lastIndex = 0
    if (regex.test(lines[i])) found.push(i)
  }
  return found
}

function multilineMatches(text: string, regex: RegExp): number[] {
  const starts = lineStarts(text)
  const found = new Set<number>()
  regex.lastIndex = 0
  for (const match of text.matchAll(regex)) {
    const first = lineOf(starts, match.index)
    const last = lineOf(starts, match.index + Math.max(0, match[0].length - 1))
    for (let line = first; line <= last; line++) found.add(line)
  }
  return [...found].sort((a, b) => a - b)
}

function lineStarts(text: string): number[] {
  const starts = [0]
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1)
  return starts
}

/** Binary search: the line containing character `offset`. */
function lineOf(starts: readonly number[], offset: number): number {
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if (starts[mid] <= offset) low = mid
    else high = mid - 1
  }
  return low
}
