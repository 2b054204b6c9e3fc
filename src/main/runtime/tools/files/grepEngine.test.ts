import { RE2JS } from 're2js'
import { describe, expect, it } from 'vitest'
import { compileGrepPattern, matchingLines, needsLinearEngine } from './grepEngine'

const compile = (pattern: string, ignoreCase = false, multiline = false) =>
  compileGrepPattern(pattern, { ignoreCase, multiline })

describe('Grep pattern engines', () => {
  it('runs patterns that could backtrack catastrophically on the linear-time engine, the rest on V8', () => {
    // Conservative: any two unbounded quantifiers count, overlapping (.*a.*b) or not (function\s+\w+).
    for (const p of [
      '(a+)+$',
      '(\\w+\\s?)*;',
      '(x|xx){2,}y',
      '.*a.*b',
      '\\s+\\S+=',
      'a{2,}b+',
      'function\\s+\\w+',
      '[[:alpha:]]+',
      '(?P<n>x)',
      '\\pL',
      '\\Afoo'
    ]) {
      expect(needsLinearEngine(p), p).toBe(true)
      expect(compile(p).engine, p).toBe('re2')
    }
    for (const p of [
      'TODO',
      'function\\s+\\w',
      '(foo|bar)baz',
      'a(b)?c',
      '[a-z]+\\(',
      '\\d{1,3}\\.',
      '\\[\\(x+',
      'colou?r',
      '^import .* from'
    ]) {
      expect(needsLinearEngine(p), p).toBe(false)
      expect(compile(p).engine, p).toBe('v8')
    }
  })

  it('answers a pattern that hangs a backtracking engine on a long line', () => {
    const line = 'a'.repeat(50_000) + '!'
    for (const p of ['(a+)+$', '(a|aa)+$', '(.*a){2}$', '(\\w+\\s?)+$']) {
      expect(compile(p).test(line), p).toBe(false)
      expect(compile(p).test('aaa'), p).toBe(true)
    }
  })

  it('both engines find the same lines and ranges (differential, ripgrep syntax)', () => {
    const text = [
      'import { a } from "./a"',
      'const colour = 1; const color = 2',
      'TODO: fix(x) later',
      '  return a[0] + b[12]',
      'Ünïcode wörds 42',
      '',
      'end'
    ].join('\n')
    const lines = text.split('\n')
    for (const [p, i] of [
      ['colou?r', false],
      ['\\w+\\(', false],
      ['^\\s+return', false],
      ['TODO|end$', false],
      ['\\d{2}', false],
      ['import', true],
      ['[A-Z]{4}', true],
      ['w\\S+s', false],
      ['\\bcon\\w*', false]
    ] as Array<[string, boolean]>) {
      const fast = compile(p, i)
      expect(fast.engine).toBe('v8')
      const re2 = RE2JS.compile(p, RE2JS.MULTILINE | (i ? RE2JS.CASE_INSENSITIVE : 0))
      const expected = lines.flatMap((l, n) => (re2.matcher(l).find() ? [n] : []))
      expect(matchingLines(text, lines, fast, false), p).toEqual(expected)
      const ranges: Array<[number, number]> = []
      const m = re2.matcher(text)
      while (m.find()) ranges.push([m.start(), m.end()])
      expect([...fast.ranges(text)], p).toEqual(ranges)
    }
  })

  it('refuses look-around and backreferences as ripgrep does, saying why', () => {
    expect(() => compile('foo(?=bar)')).toThrow(
      /look-around .* is not supported: Grep follows ripgrep's default regex syntax/
    )
    expect(() => compile('(?<!x)y')).toThrow(/look-around/)
    expect(() => compile('(a)\\1')).toThrow(/backreferences are not supported/)
    // An escaped parenthesis is not a group: \(?= is a literal "(" made optional, then "=".
    expect(compile('f\\(?=').test('f=')).toBe(true)
  })

  it('turns an oversized pattern into a clear error or a linear-time search, never a crash', () => {
    const huge = '(a+)+$'.repeat(2_000)
    expect(compile(huge).engine).toBe('re2')
    const wide = 'x'.repeat(200_000)
    expect(compile(wide).test('x'.repeat(200_000))).toBe(true)
  })

  it('keeps ripgrep features: inline flags, POSIX classes, escaped punctuation, multiline ranges', () => {
    expect(compile('(?i)hello').test('HeLLo')).toBe(true)
    expect(compile('[[:digit:]]+').test('abc 123')).toBe(true)
    expect(compile('o\\-W').test('foo-Wbar')).toBe(true)
    const text = 'f(a,\n  b)\nnext'
    const m = compile('f\\(.*b', false, true)
    expect(matchingLines(text, text.split('\n'), m, true)).toEqual([0, 1])
  })
})
