import { numberLine } from './lineFormat'

/** Lines of context shown around an edit in Edit's result snippet. */
export const SNIPPET_CONTEXT_LINES = 3

/**
 * The file's line ending: CRLF only when every `\n` in it is preceded by `\r` (a consistently
 * Windows-style file); a mixed or LF file is edited as raw text.
 */
export function detectEol(content: string): '\r\n' | '\n' {
  const lf = content.split('\n').length - 1
  if (lf === 0) return '\n'
  const crlf = content.split('\r\n').length - 1
  return crlf === lf ? '\r\n' : '\n'
}

/** Non-overlapping occurrences of `needle` (non-empty) in `haystack`, as start indices. */
export function findOccurrences(haystack: string, needle: string): number[] {
  const found: number[] = []
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at)
  return found
}

/**
 * Replaces the occurrences at `starts` (from {@link findOccurrences}) of a `length`-long string
 * with `replacement`. Done by slicing, never `String.replace`, so `$&` and `$1` in the model's
 * new_string stay literal.
 */
export function replaceAt(content: string, starts: readonly number[], length: number, replacement: string): string {
  let out = ''
  let from = 0
  for (const start of starts) {
    out += content.slice(from, start) + replacement
    from = start + length
  }
  return out + content.slice(from)
}

/**
 * Where `needle` would match if whitespace runs and quote styles (curly vs straight) were
 * ignored: the 1-based line of the file where its first non-blank line appears loosely, or
 * undefined. Used only to hint why an exact match failed.
 */
export function findLooseMatchLine(content: string, needle: string): number | undefined {
  const first = needle.split('\n').find((line) => line.trim() !== '')
  if (first === undefined) return undefined
  const wanted = loosen(first)
  const lines = content.split('\n')
  const index = lines.findIndex((line) => loosen(line).includes(wanted))
  if (index === -1) return undefined
  // Only a hint when the whole needle matches loosely too, not just one common line.
  return loosen(content).includes(loosen(needle)) ? index + 1 : undefined
}

function loosen(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201a\u201b]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * `cat -n` style lines around the text that now spans [start, start+length) of `content` (LF
 * line endings), with {@link SNIPPET_CONTEXT_LINES} lines either side.
 */
export function editSnippet(content: string, start: number, length: number): string {
  const lines = content.split('\n')
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  const firstLine = content.slice(0, start).split('\n').length
  const lastLine = firstLine + content.slice(start, start + length).split('\n').length - 1
  const from = Math.max(1, firstLine - SNIPPET_CONTEXT_LINES)
  const to = Math.min(lines.length, lastLine + SNIPPET_CONTEXT_LINES)
  const out: string[] = []
  for (let n = from; n <= to; n++) out.push(numberLine(n, lines[n - 1]))
  return out.join('\n')
}
