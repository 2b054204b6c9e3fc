/**
 * Splits a Bash command into the simple commands it runs, for permission checks (docs/permissions.md#permissions).
 *
 * Why our own lexer: sh-syntax (mvdan/sh compiled to WASM) is the grammar gate — a command it
 * rejects is never classified — but its JSON AST (0.7.0) drops the contents of every command
 * node, keeping only positions (un-ts/sh-syntax#123). So after the gate, this lexer walks the
 * same text. It fails closed: any construct it does not model (loops, `case`, functions, `[[`,
 * arithmetic commands, arrays, expansions that run code inside `${…}` or heredocs) throws
 * {@link ShellUnsupportedError}, and the engine asks.
 */

import { PermissionsError } from './errors'

/** A word as the shell will pass it. `value` is null when it contains an expansion we cannot know. */
export interface ShellWord {
  value: string | null
  raw: string
  /** Starts with an unquoted `~`. */
  tilde: boolean
  /** Contains an unquoted glob character (`*`, `?`, `[`). */
  glob: boolean
  /** Code this word runs when expanded: `$(…)`, backticks, `<(…)`, `>(…)`. */
  subs: ShellNode[][]
}

/** A redirection. `target` is null for a heredoc (its body is data, checked when lexed). */
export interface ShellRedirect {
  op: string
  fd: string | null
  target: ShellWord | null
}

/** One node of a command list; lists are judged node by node, in order. */
export type ShellNode =
  | {
      type: 'simple'
      assigns: Array<{ name: string; value: ShellWord }>
      words: ShellWord[]
      redirects: ShellRedirect[]
      text: string
    }
  | { type: 'group'; subshell: boolean; body: ShellNode[]; redirects: ShellRedirect[] }

/** A construct the lexer does not model; the engine asks. */
export class ShellUnsupportedError extends PermissionsError {
  override name = 'ShellUnsupportedError'
}

const META = ' \t\n;&|()<>'
/** Deeper nesting of subshells, groups and substitutions is not classified (and cannot overflow the stack). */
const MAX_NESTING = 64
const SKIPPED_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!'])
const UNSUPPORTED_KEYWORDS = new Set(['for', 'case', 'select', 'function', '[[', 'coproc', '((', 'esac', 'in'])

/** Split `src` into nodes. Throws {@link ShellUnsupportedError} on what it does not model. */
export function lexShell(src: string, nesting = 0): ShellNode[] {
  const lexer = new Lexer(src, nesting)
  const nodes = lexer.list(null)
  if (lexer.pos < src.length) throw new ShellUnsupportedError(`unexpected '${src[lexer.pos]}' at offset ${lexer.pos}`)
  return nodes
}

class Lexer {
  pos = 0
  private heredocs: Array<{ delim: string; quoted: boolean; strip: boolean }> = []
  constructor(
    private readonly src: string,
    private nesting: number
  ) {}

  private peek(n = 0): string {
    return this.src[this.pos + n] ?? ''
  }
  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos)
  }

  /** A list of commands up to `end` (`)` for subshells and `$(…)`, `}` for groups, null for the whole input). */
  list(end: ')' | '}' | null): ShellNode[] {
    if (++this.nesting > MAX_NESTING) throw new ShellUnsupportedError(`nested more than ${MAX_NESTING} levels`)
    try {
      return this.listBody(end)
    } finally {
      this.nesting--
    }
  }

  private listBody(end: ')' | '}' | null): ShellNode[] {
    const nodes: ShellNode[] = []
    for (;;) {
      this.skipSeparators()
      if (this.pos >= this.src.length) return nodes
      if (end === ')' && this.peek() === ')') return nodes
      if (end === '}' && this.peek() === '}' && this.atWordEnd(1)) return nodes
      if (this.peek() === ')') throw new ShellUnsupportedError("unexpected ')'")
      const node = this.command()
      if (node) nodes.push(node)
    }
  }

  private atWordEnd(offset: number): boolean {
    const c = this.peek(offset)
    return c === '' || META.includes(c)
  }

  private skipSeparators(): void {
    for (;;) {
      const c = this.peek()
      if (c === ' ' || c === '\t') this.pos++
      else if (c === '\\' && this.peek(1) === '\n') this.pos += 2
      else if (c === '\n') {
        this.pos++
        this.readHeredocs()
      } else if (c === '#') {
        while (this.pos < this.src.length && this.peek() !== '\n') this.pos++
      } else if (this.startsWith(';;')) throw new ShellUnsupportedError("';;' outside case")
      else if (c === ';' || c === '&' || c === '|') this.pos++
      else return
    }
  }

  private command(): ShellNode | null {
    if (this.startsWith('((')) throw new ShellUnsupportedError('arithmetic commands are not classified')
    if (this.peek() === '(') {
      this.pos++
      const body = this.list(')')
      this.expect(')')
      return { type: 'group', subshell: true, body, redirects: this.trailingRedirects() }
    }
    if (this.peek() === '{' && this.atWordEnd(1)) {
      this.pos++
      const body = this.list('}')
      this.expect('}')
      return { type: 'group', subshell: false, body, redirects: this.trailingRedirects() }
    }
    return this.simple()
  }

  private expect(c: string): void {
    if (this.peek() !== c) throw new ShellUnsupportedError(`expected '${c}'`)
    this.pos++
  }

  private trailingRedirects(): ShellRedirect[] {
    const out: ShellRedirect[] = []
    for (;;) {
      while (this.peek() === ' ' || this.peek() === '\t') this.pos++
      const r = this.redirect()
      if (!r) return out
      out.push(r)
    }
  }

  private simple(): ShellNode | null {
    const start = this.pos
    const assigns: Array<{ name: string; value: ShellWord }> = []
    const words: ShellWord[] = []
    const redirects: ShellRedirect[] = []
    for (;;) {
      while (this.peek() === ' ' || this.peek() === '\t' || (this.peek() === '\\' && this.peek(1) === '\n'))
        this.pos += this.peek() === '\\' ? 2 : 1
      const c = this.peek()
      if (c === '' || c === '\n' || c === ';' || (c === '&' && this.peek(1) !== '>') || c === '|' || c === ')') break
      if (c === '#') break
      if ((c === '<' || c === '>') && this.peek(1) === '(') {
        words.push(this.word())
        continue
      }
      const r = this.redirect()
      if (r) {
        redirects.push(r)
        continue
      }
      if (c === '(') throw new ShellUnsupportedError('function definitions and arrays are not classified')
      const assign = words.length === 0 ? /^[A-Za-z_][A-Za-z0-9_]*\+?=/.exec(this.src.slice(this.pos)) : null
      if (assign) {
        this.pos += assign[0].length
        if (this.peek() === '(') throw new ShellUnsupportedError('array assignments are not classified')
        const value = this.atWordEnd(0) ? emptyWord() : this.word()
        assigns.push({ name: assign[0].replace(/\+?=$/, ''), value })
        continue
      }
      const w = this.word()
      if (words.length === 0 && w.value !== null) {
        if (UNSUPPORTED_KEYWORDS.has(w.value) && w.raw === w.value)
          throw new ShellUnsupportedError(`'${w.value}' is not classified`)
        if (SKIPPED_KEYWORDS.has(w.value) && w.raw === w.value) {
          if (assigns.length === 0) return null
        } else words.push(w)
      } else words.push(w)
    }
    if (words.length === 0 && assigns.length === 0 && redirects.length === 0) return null
    return { type: 'simple', assigns, words, redirects, text: this.src.slice(start, this.pos).trim() }
  }

  private redirect(): ShellRedirect | null {
    const m = /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(&>>|&>|>>|>\||>&|<&|<<<|<<-|<<|<>|>|<)/.exec(this.src.slice(this.pos))
    if (!m) return null
    if (m[1]?.startsWith('{')) throw new ShellUnsupportedError('named file descriptors are not classified')
    this.pos += m[0].length
    const op = m[2]
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++
    // `> >(cmd)`: a process substitution is a target like any word (its code is judged).
    const substitution = (this.peek() === '<' || this.peek() === '>') && this.peek(1) === '('
    if (this.atWordEnd(0) && !substitution) throw new ShellUnsupportedError(`redirection ${op} has no target`)
    const target = this.word()
    if (op === '<<' || op === '<<-') {
      if (target.value === null && target.subs.length > 0)
        throw new ShellUnsupportedError('heredoc delimiter with a substitution')
      const delim = target.raw.replace(/['"\\]/g, '')
      this.heredocs.push({ delim, quoted: /['"\\]/.test(target.raw), strip: op === '<<-' })
      return { op, fd: m[1] ?? null, target: null }
    }
    return { op, fd: m[1] ?? null, target }
  }

  /** Heredoc bodies start after the newline that ends their command. */
  private readHeredocs(): void {
    for (const h of this.heredocs) {
      for (;;) {
        if (this.pos >= this.src.length) break
        const end = this.src.indexOf('\n', this.pos)
        const line = this.src.slice(this.pos, end < 0 ? this.src.length : end)
        this.pos = end < 0 ? this.src.length : end + 1
        if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) break
        if (!h.quoted && /\$[({]|`/.test(line))
          throw new ShellUnsupportedError('a heredoc body with substitutions is not classified')
      }
    }
    this.heredocs = []
  }

  /** One word; see {@link ShellWord}. */
  private word(): ShellWord {
    const start = this.pos
    let value = ''
    let dynamic = false
    let glob = false
    let brace = false
    const subs: ShellNode[][] = []
    const tilde = this.peek() === '~'
    if ((this.peek() === '<' || this.peek() === '>') && this.peek(1) === '(') {
      this.pos += 2
      subs.push(this.list(')'))
      this.expect(')')
      dynamic = true
    }
    while (this.pos < this.src.length) {
      const c = this.peek()
      if (META.includes(c)) break
      if (c === '\\') {
        if (this.peek(1) !== '\n') value += this.peek(1)
        this.pos += 2
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1)
        if (end < 0) throw new ShellUnsupportedError('unterminated quote')
        value += this.src.slice(this.pos + 1, end)
        this.pos = end + 1
      } else if (c === '"') {
        this.pos++
        const r = this.doubleQuoted(subs)
        value += r.value
        dynamic ||= r.dynamic
      } else if (c === '$' || c === '`') {
        dynamic = this.expansion(subs) || dynamic
      } else {
        if ('*?['.includes(c)) glob = true
        if (c === '{') brace = true
        value += c
        this.pos++
      }
    }
    if (brace && /\{[^}]*(,|\.\.)[^}]*\}/.test(this.src.slice(start, this.pos))) dynamic = true
    return { value: dynamic ? null : value, raw: this.src.slice(start, this.pos), tilde, glob, subs }
  }

  private doubleQuoted(subs: ShellNode[][]): { value: string; dynamic: boolean } {
    let value = ''
    let dynamic = false
    for (;;) {
      const c = this.peek()
      if (c === '') throw new ShellUnsupportedError('unterminated quote')
      if (c === '"') {
        this.pos++
        return { value, dynamic }
      }
      if (c === '\\' && '$`"\\\n'.includes(this.peek(1))) {
        if (this.peek(1) !== '\n') value += this.peek(1)
        this.pos += 2
      } else if (c === '$' || c === '`') {
        const before = this.pos
        if (this.expansion(subs)) dynamic = true
        else value += this.src.slice(before, this.pos)
      } else {
        value += c
        this.pos++
      }
    }
  }

  /** An expansion at `$` or a backtick. Returns whether it made the word dynamic. */
  private expansion(subs: ShellNode[][]): boolean {
    if (this.peek() === '`') {
      let inner = ''
      this.pos++
      for (;;) {
        const c = this.peek()
        if (c === '') throw new ShellUnsupportedError('unterminated backtick')
        if (c === '`') {
          this.pos++
          break
        }
        if (c === '\\' && '`$\\'.includes(this.peek(1))) {
          inner += this.peek(1)
          this.pos += 2
        } else {
          inner += c
          this.pos++
        }
      }
      subs.push(lexShell(inner, this.nesting))
      return true
    }
    const next = this.peek(1)
    if (this.startsWith('$((')) {
      const end = this.matchingParen(this.pos + 1)
      // Bash evaluates a variable's value inside arithmetic as an expression, and an array
      // subscript in it can run `$(…)` (x='a[$(cmd)]'; $((x))): only constant arithmetic is classified.
      if (/[$`A-Za-z_]/.test(this.src.slice(this.pos + 3, end - 1)))
        throw new ShellUnsupportedError('arithmetic with variables or substitutions is not classified')
      this.pos = end + 1
      return true
    }
    if (next === '(') {
      this.pos += 2
      subs.push(this.list(')'))
      this.expect(')')
      return true
    }
    if (next === '{') {
      const end = this.src.indexOf('}', this.pos)
      if (end < 0) throw new ShellUnsupportedError("unterminated '${'")
      // Subscripts are arithmetic (see $((…))) and the @P transformation expands prompt strings,
      // which run substitutions held in the variable's value.
      if (/[$`'"[@]/.test(this.src.slice(this.pos + 2, end)))
        throw new ShellUnsupportedError(
          'nested expansions, subscripts and transformations inside ${…} are not classified'
        )
      this.pos = end + 1
      return true
    }
    if (next === "'" || next === '"') {
      this.pos++
      if (next === "'") {
        const end = this.src.slice(this.pos + 1).search(/(?<!\\)'/)
        if (end < 0) throw new ShellUnsupportedError('unterminated quote')
        this.pos += end + 2
      } else {
        this.pos++
        this.doubleQuoted(subs)
      }
      return true
    }
    const name = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(this.src.slice(this.pos))
    if (name) {
      this.pos += name[0].length
      return true
    }
    this.pos++
    return false
  }

  private matchingParen(open: number): number {
    let depth = 0
    for (let i = open; i < this.src.length; i++) {
      if (this.src[i] === '(') depth++
      else if (this.src[i] === ')' && --depth === 0) return i
    }
    throw new ShellUnsupportedError('unterminated arithmetic')
  }
}

function emptyWord(): ShellWord {
  return { value: '', raw: '', tilde: false, glob: false, subs: [] }
}
