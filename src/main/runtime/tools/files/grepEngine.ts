import { createRequire } from 'node:module'
import type { RE2JS } from 're2js'
import { ToolError } from '../types'

let re2js: typeof RE2JS | undefined

/**
 * The re2js engine, loaded from node_modules on the first Grep (or BashOutput filter) of the
 * process: every worker teammate has Grep, few use it at once, and re2js (about 0.26 MB of source,
 * its Unicode tables built when it loads) would otherwise load with every worker's bundle
 * (docs/teams.md#worker-teammate-memory; lazyLoad.test.ts checks an idle teammate has not).
 */
function re2(): typeof RE2JS {
  return (re2js ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS)
}

/** Options of {@link compileGrepPattern}. */
export interface GrepPatternOptions {
  ignoreCase: boolean
  /** `.` matches newlines and a match may span lines (rg `-U --multiline-dotall`). */
  multiline: boolean
}

/**
 * A compiled Grep pattern. `^`/`$` match at line boundaries. `engine` says which engine runs it:
 * `v8` (the JS RegExp engine, fastest) for patterns that cannot backtrack catastrophically, `re2`
 * (re2js, linear time in the subject's length whatever the pattern) for the others.
 */
export interface GrepMatcher {
  readonly engine: 'v8' | 're2'
  /** Whether `subject` contains a match. */
  test(subject: string): boolean
  /** `[start, end)` UTF-16 offsets of each successive non-overlapping match in `subject`. */
  ranges(subject: string): Iterable<[number, number]>
}

/**
 * Compiles a Grep pattern in ripgrep's default syntax (RE2-like: Rust's `regex` crate), so a
 * model's pattern means here what it means to `rg`: look-around and backreferences are refused, as
 * rg refuses them without `--pcre2`; leading inline flags `(?i)`, `(?s)`, `(?m)` are honoured.
 *
 * Patterns are checked with re2js first (the syntax and its errors). A pattern that could make a
 * backtracking engine run for minutes on one line — a quantified group such as `(a+)+$`, or two
 * or more unbounded quantifiers — or that uses RE2-only syntax (`[[:alpha:]]`, `(?P<n>…)`, `\pL`,
 * `\A`, `\z`) then runs on re2js, whose time is linear in the text; the rest on V8's RegExp.
 * A model's Grep runs in the app's main process or a worker, so one pathological pattern must not
 * freeze it (issue 10, model misbehaviour).
 * @throws ToolError naming the regex error, for look-around and backreferences, or when `\n` is
 *   used without multiline (as rg refuses).
 */
export function compileGrepPattern(pattern: string, options: GrepPatternOptions): GrepMatcher {
  let source = pattern
  let ignoreCase = options.ignoreCase
  let dotAll = options.multiline
  const inline = /^\(\?([ims]+)\)/.exec(source)
  if (inline) {
    source = source.slice(inline[0].length)
    if (inline[1].includes('i')) ignoreCase = true
    if (inline[1].includes('s')) dotAll = true
  }
  if (!options.multiline && /(^|[^\\])(\\\\)*\\n/.test(source)) {
    throw new ToolError(
      'The pattern contains \\n, which never matches within one line. Set multiline: true to match across lines.'
    )
  }
  if (/\(\?<?[=!]/.test(source.replace(/\\./g, ''))) {
    throw new ToolError(
      `Invalid regex ${JSON.stringify(pattern)}: look-around ((?=…), (?!…), (?<=…), (?<!…)) is not supported: Grep follows ripgrep's default regex syntax. Match the surrounding text instead, or filter the results.`
    )
  }
  const RE2 = re2()
  let compiled: RE2JS
  try {
    compiled = RE2.compile(source, RE2.MULTILINE | (ignoreCase ? RE2.CASE_INSENSITIVE : 0) | (dotAll ? RE2.DOTALL : 0))
  } catch (error) {
    // re2js says "error parsing regexp: <what>: `<the pattern with its flags>`"; the pattern is quoted already.
    const raw = error instanceof Error ? error.message : String(error)
    const message = raw.replace(/^error parsing regexp: /, '').replace(/: `[^]*`$/, '')
    const hint = /invalid escape sequence: `\\[1-9]/.test(raw)
      ? " (backreferences are not supported: Grep follows ripgrep's default regex syntax)"
      : ''
    throw new ToolError(`Invalid regex ${JSON.stringify(pattern)}: ${message}${hint}`)
  }
  if (needsLinearEngine(source)) return re2Matcher(compiled)
  const flags = `gm${ignoreCase ? 'i' : ''}${dotAll ? 's' : ''}`
  for (const f of [`${flags}u`, flags]) {
    try {
      const regex = new RegExp(source, f)
      regex.test('') // V8 compiles lazily: surface its errors (e.g. a stack overflow on a huge pattern) here.
      return v8Matcher(regex)
    } catch {
      // Unicode mode rejects escapes RE2 allows (\-); without it, an oversized pattern still fails: use re2js.
    }
  }
  return re2Matcher(compiled)
}

/**
 * Whether a backtracking engine could take super-linear time per line on `source`: a repeated
 * group (`(…)*`, `(…)+`, `(…){2,}`), two or more unbounded quantifiers, or RE2-only syntax V8
 * would read differently. Escapes and character classes are skipped; conservative (true when unsure).
 */
export function needsLinearEngine(source: string): boolean {
  if (/\[\[:|\(\?P<|\\[pP][A-Za-z]|\\[Az]/.test(source)) return true
  let unbounded = 0
  let lastWasGroup = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') {
      const next = source[i + 1]
      i++
      if ((next === 'p' || next === 'P' || next === 'u' || next === 'x') && source[i + 1] === '{')
        i = closing(source, i + 1, '}')
      lastWasGroup = false
      continue
    }
    if (c === '[') {
      i = classEnd(source, i)
      lastWasGroup = false
      continue
    }
    const quantifier = quantifierAt(source, i)
    if (quantifier) {
      if (quantifier.repeats && lastWasGroup) return true
      if (quantifier.unbounded && ++unbounded >= 2) return true
      i = quantifier.end
      if (source[i + 1] === '?' || source[i + 1] === '+') i++
      lastWasGroup = false
      continue
    }
    lastWasGroup = c === ')'
  }
  return false
}

/** The quantifier starting at `i`, if any: `end` is its last index. */
function quantifierAt(source: string, i: number): { repeats: boolean; unbounded: boolean; end: number } | undefined {
  const c = source[i]
  if (c === '*' || c === '+') return { repeats: true, unbounded: true, end: i }
  if (c === '?') return { repeats: false, unbounded: false, end: i }
  if (c !== '{') return undefined
  const m = /^\{(\d*)(,(\d*))?\}/.exec(source.slice(i, i + 24))
  if (!m || (m[1] === '' && m[3] === undefined)) return undefined
  const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3])
  return { repeats: max > 1, unbounded: max === Infinity || max > 1000, end: i + m[0].length - 1 }
}

/** Index of the `]` closing the class opened at `open` (a leading `]` or `^]` is literal). */
function classEnd(source: string, open: number): number {
  let i = open + 1
  if (source[i] === '^') i++
  if (source[i] === ']') i++
  for (; i < source.length; i++) {
    if (source[i] === '\\') i++
    else if (source[i] === '[' && source[i + 1] === ':') i = closing(source, i + 2, ']')
    else if (source[i] === ']') return i
  }
  return source.length
}

function closing(source: string, from: number, char: string): number {
  const at = source.indexOf(char, from)
  return at === -1 ? source.length : at
}

function v8Matcher(regex: RegExp): GrepMatcher {
  return {
    engine: 'v8',
    test(subject) {
      regex.lastIndex = 0
      return regex.test(subject)
    },
    *ranges(subject) {
      regex.lastIndex = 0
      for (const match of subject.matchAll(regex)) yield [match.index, match.index + match[0].length]
    }
  }
}

function re2Matcher(re: RE2JS): GrepMatcher {
  return {
    engine: 're2',
    test: (subject) => re.matcher(subject).find(),
    *ranges(subject) {
      const m = re.matcher(subject)
      while (m.find()) yield [m.start(), m.end()]
    }
  }
}

/**
 * 0-based indices of the lines of `lines` (one file, `\n`-split, `\r` removed) that the pattern
 * matches: line by line, or with `multiline` every line a match spans. Counting lines, not
 * occurrences, as `rg --count` does.
 * @param text the same file as one string (`lines.join('\n')`), for the whole-file passes.
 */
export function matchingLines(
  text: string,
  lines: readonly string[],
  matcher: GrepMatcher,
  multiline: boolean
): number[] {
  // One pass over the whole file rules out most files cheaply: ^ and $ see line boundaries and
  // nothing looks past a line's end, so a line match implies a file match.
  if (!multiline && !matcher.test(text)) return []
  return multiline ? multilineMatches(text, matcher) : lineMatches(lines, matcher)
}

function lineMatches(lines: readonly string[], matcher: GrepMatcher): number[] {
  const found: number[] = []
  for (let i = 0; i < lines.length; i++) if (matcher.test(lines[i])) found.push(i)
  return found
}

function multilineMatches(text: string, matcher: GrepMatcher): number[] {
  const starts = lineStarts(text)
  const found = new Set<number>()
  for (const [start, end] of matcher.ranges(text)) {
    const first = lineOf(starts, start)
    const last = lineOf(starts, start + Math.max(0, end - start - 1))
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
