import path from 'node:path'
import picomatch from 'picomatch'
import { lexShell } from './shellLexer'
import { canonicalPath, fileSystemCase, isWithin } from './paths'
import { PermissionsError } from './errors'

/**
 * Permission rules in Claude Code's syntax (docs/permissions.md#permissions): `Tool` or `Tool(specifier)`.
 * - `Bash(npm run test:*)`: prefix, matched word by word on the parsed command (`npm run test`
 *   and `npm run test --watch` match, `npm run testing` does not); a trailing ` *` means the same;
 *   `Bash(git status)` is exact.
 * - `Read(…)`/`Edit(…)`: a path pattern: `//abs`, `~/home-relative`, `/relative-to-the-settings-
 *   file's-directory`, `./x` or `x` relative to the agent's working directory; a pattern without
 *   `/` matches that name at any depth (gitignore-like); globs by picomatch with dot files.
 * - anything else (`Agent(Explore)`, `WebFetch(domain:x)`): the specifier must equal the call's.
 */
export interface PermissionRule {
  /** As written in the settings file. */
  text: string
  tool: string
  specifier?: string
  /** The settings file it came from (or `session`, `cli`). */
  source: string
  /** Directory `/x` specifiers are relative to: the settings file's directory. */
  baseDir: string
  /** Bash specifiers, parsed once: the words and whether they are a prefix. */
  bash?: { words: string[]; prefix: boolean }
}

/** A rule that does not parse; the message says what is wrong. */
export class RuleSyntaxError extends PermissionsError {
  override name = 'RuleSyntaxError'
}

const RULE = /^([A-Za-z][A-Za-z0-9_-]*)(?:\((.*)\))?$/s

/**
 * Parse one rule. @throws RuleSyntaxError for an empty specifier, unbalanced parentheses, or a Bash
 * specifier that is not one plain command.
 */
export function parseRule(text: string, source: string, baseDir: string): PermissionRule {
  const m = RULE.exec(text.trim())
  if (!m)
    throw new RuleSyntaxError(
      `"${text}" is not a rule: write Tool or Tool(specifier), e.g. Bash(npm test:*) or Read(./src/**)`
    )
  const [, tool, rawSpec] = m
  // Tool names are case-sensitive and capitalised (Bash, Read, Edit, mcp__server__tool): a rule
  // for `bash` would match nothing, silently weakening a deny list.
  if (!/^[A-Z]/.test(tool) && !tool.startsWith('mcp__')) {
    throw new RuleSyntaxError(
      `"${text}": tool names are case-sensitive and start with a capital letter (Bash, Read, Edit, Write, Glob, Grep, Agent…); "${tool}" matches no tool`
    )
  }
  if (rawSpec === undefined) return { text, tool, source, baseDir }
  const specifier = rawSpec.trim()
  if (specifier === '')
    throw new RuleSyntaxError(
      `"${text}": empty parentheses; write ${tool} to match every call, or put a specifier inside`
    )
  if (specifier === '*') return { text, tool, source, baseDir }
  const rule: PermissionRule = { text, tool, specifier, source, baseDir }
  if (tool === 'Bash') rule.bash = parseBashSpecifier(specifier, text)
  return rule
}

function parseBashSpecifier(spec: string, text: string): { words: string[]; prefix: boolean } {
  let body = spec
  let prefix = false
  if (body.endsWith(':*')) {
    body = body.slice(0, -2)
    prefix = true
  } else if (body.endsWith(' *')) {
    body = body.slice(0, -2)
    prefix = true
  }
  let words: string[]
  try {
    const nodes = lexShell(body)
    const only = nodes[0]
    if (nodes.length !== 1 || only.type !== 'simple' || only.redirects.length > 0 || only.assigns.length > 0)
      throw new Error()
    words = only.words.map((w) => {
      if (w.value === null || w.glob) throw new Error()
      return w.value
    })
  } catch {
    throw new RuleSyntaxError(
      `"${text}": the Bash specifier must be one plain command, optionally ending in :* (e.g. Bash(npm run test:*))`
    )
  }
  if (words.length === 0)
    throw new RuleSyntaxError(`"${text}": empty Bash specifier; write Bash to match every command`)
  return { words, prefix }
}

/** Whether a Bash rule matches a parsed command (`argv`: null for words with expansions). */
export function bashRuleMatches(rule: PermissionRule, argv: ReadonlyArray<string | null>): boolean {
  if (!rule.bash) return true
  const { words, prefix } = rule.bash
  if (argv.length < words.length || (!prefix && argv.length !== words.length)) return false
  return words.every((w, i) => argv[i] === w)
}

/** Where path specifiers are resolved: the agent's working directory and the person's home. */
export interface PathRuleContext {
  cwd: string
  userHome: string
}

/** The absolute picomatch pattern of a path rule, with its literal prefix canonicalised. */
export async function rulePattern(
  rule: PermissionRule,
  ctx: PathRuleContext
): Promise<{ pattern: string; literal: string; lastLiteral: string | undefined }> {
  const spec = rule.specifier ?? '**'
  let abs: string
  if (spec.startsWith('//')) abs = spec.slice(1)
  else if (spec.startsWith('~/')) abs = path.posix.join(ctx.userHome, spec.slice(2))
  else if (spec.startsWith('/')) abs = path.posix.join(rule.baseDir, spec)
  else if (!spec.replace(/\/$/, '').includes('/') && !spec.startsWith('.' + '/'))
    abs = path.posix.join(ctx.cwd, '**', spec)
  else abs = path.posix.join(ctx.cwd, spec)
  if (spec.endsWith('/')) abs += '/**'
  const segs = abs.split('/')
  const firstGlob = segs.findIndex((s) => /[*?[\]{}!]/.test(s))
  const literalRaw = firstGlob < 0 ? abs : segs.slice(0, firstGlob).join('/') || '/'
  const literal = await canonicalPath(literalRaw, '/')
  const rest = firstGlob < 0 ? '' : segs.slice(firstGlob).join('/')
  const last = segs[segs.length - 1]
  return {
    pattern: rest ? path.posix.join(literal, rest) : literal,
    literal,
    lastLiteral: /[*?[\]{}!]/.test(last) ? undefined : last
  }
}

/** Whether a path rule matches `target` (canonical). A pattern without globs also covers everything below it. */
export async function pathRuleMatches(rule: PermissionRule, target: string, ctx: PathRuleContext): Promise<boolean> {
  if (rule.specifier === undefined) return true
  const { pattern, literal } = await rulePattern(rule, ctx)
  if (pattern === literal) return isWithin(target, literal)
  if (pattern === literal + '/**' && isWithin(target, literal)) return true
  return picomatch(pattern, { dot: true, nocase: fileSystemCase.insensitive })(target)
}
