import type { PermissionDecision } from '../../../shared/permissions'
import {
  ACCEPT_EDITS_COMMANDS,
  commandEffects,
  DANGEROUS_ENV_NAMES,
  READ_ONLY_NO_FILE_COMMANDS,
  type ArgValue,
  type CommandRun
} from '../../../shared/readOnlyCommands'
import { byRule, decidePath, PLAN_DENIAL, strictest, type Evaluation } from './evaluation'
import { expandGlob, GlobTooWideError, hasGlob } from './globs'
import { canonicalPath, fileSystemCase, foldName, PathLoopError } from './paths'
import { bashRuleMatches, type PermissionRule } from './rules'
import { parseShell } from './shellGrammar'
import { lexShell, ShellUnsupportedError, type ShellNode, type ShellRedirect, type ShellWord } from './shellLexer'

/**
 * Bash decisions (docs/permissions.md#permissions): the command is split into every simple command it runs (including
 * `$(…)`, backticks, process substitutions and `bash -c` strings), each is decided on its own with
 * its side effects (files written → Edit, code run → Bash), and the strictest answer wins.
 */

/** Deeper nesting than this (`bash -c "bash -c …"`) is not followed: ask. */
const MAX_DEPTH = 8
/**
 * Control characters other than tab and newline, and the invisible and bidirectional formatting
 * characters (zero-width spaces and joiners, LRM/RLM, embeddings and overrides, isolates, BOM,
 * NEL, line/paragraph separators), make the text a person reads in a prompt differ from what
 * bash runs ("Trojan Source", CVE-2021-42574).
 */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f\u0085\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/
/** Redirection targets that are not files. */
const NOT_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty'])
const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&'])
/** bash opens a network connection for these instead of a file (bash(1), REDIRECTION). */
const NETWORK = /^\/dev\/(tcp|udp)\//

/** How a command reached from another one gets its arguments (see {@link CommandRun}). */
type RunHow = Pick<Extract<CommandRun, { kind: 'argv' }>, 'extraArgsUnknown' | 'below'>

/** Where later parts of a compound command run; null once a `cd` we cannot follow happened. */
interface WalkState {
  cwd: string | null
}

/** Decide a Bash command run in `cwd` (canonical). Never throws for a bad command: it asks. */
export async function decideBash(command: string, cwd: string, ev: Evaluation, depth = 0): Promise<PermissionDecision> {
  const unclassified = (why: string): PermissionDecision =>
    cannotTell(`${JSON.stringify(truncate(command))} cannot be classified: ${why}`, ev)
  if (depth > MAX_DEPTH) return unclassified('nested too deeply')
  const hidden = CONTROL.exec(command)
  if (hidden)
    return unclassified(
      `it contains a control or invisible character (U+${hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`
    )
  try {
    await parseShell(command)
  } catch (e) {
    return unclassified(`it does not parse (${(e as Error).message})`)
  }
  let nodes: ShellNode[]
  try {
    nodes = lexShell(command)
  } catch (e) {
    if (e instanceof ShellUnsupportedError) return unclassified(e.message)
    throw e
  }
  const out: PermissionDecision[] = []
  await walk(nodes, { cwd }, ev, depth, out)
  return strictest(out, 'nothing to run')
}

function truncate(s: string): string {
  return s.length > 120 ? s.slice(0, 117) + '...' : s
}

/** Deny rules a command could fall under: what it runs, reads or writes. */
const COMMAND_RULE_TOOLS = ['Bash', 'Read', 'Edit', 'Write']

/**
 * Unknown effects ask; plan mode denies them (it allows only what is known to read). bypass
 * allows them only where no deny rule could apply: deny rules still apply in bypassPermissions
 * (docs/permissions.md#permissions), and a command we cannot classify (`for …; do rm …; done`, `$a -rf x`) may be one
 * they deny — with nobody to ask, it is denied.
 */
function cannotTell(reason: string, ev: Evaluation): PermissionDecision {
  if (ev.mode === 'bypassPermissions') {
    const rule = ev.rules.deny.find((r) => COMMAND_RULE_TOOLS.includes(r.tool))
    if (!rule) return { decision: 'allow', reason: 'bypassPermissions mode' }
    return {
      decision: 'deny',
      reason: `${reason}; deny rules such as ${rule.text} still apply in bypassPermissions mode, so what cannot be classified is denied`,
      rule: { rule: rule.text, source: rule.source }
    }
  }
  if (ev.mode === 'plan') return { decision: 'deny', reason: `${PLAN_DENIAL}; ${reason}` }
  return { decision: 'ask', reason }
}

async function walk(
  nodes: ShellNode[],
  state: WalkState,
  ev: Evaluation,
  depth: number,
  out: PermissionDecision[]
): Promise<void> {
  for (const node of nodes) {
    if (node.type === 'group') {
      // A group's redirections are opened before its body runs, in the directory it starts in.
      await redirects(node.redirects, { ...state }, ev, out)
      await walk(node.body, node.subshell ? { ...state } : state, ev, depth, out)
      continue
    }
    for (const w of [
      ...node.words,
      ...node.assigns.map((a) => a.value),
      ...node.redirects.flatMap((r) => (r.target ? [r.target] : []))
    ]) {
      for (const sub of w.subs) await walk(sub, { ...state }, ev, depth, out)
    }
    const dangerous = node.assigns.find((a) => DANGEROUS_ENV_NAMES.test(a.name))
    if (dangerous) out.push(cannotTell(`setting ${dangerous.name} changes what later commands run`, ev))
    if (node.words.length === 0) {
      await redirects(node.redirects, state, ev, out)
      continue
    }
    const argv = node.words.map((w) => argValue(w, ev))
    await simpleCommand(argv, { extraArgsUnknown: false }, state, ev, depth, out)
    await redirects(node.redirects, state, ev, out)
  }
}

/** The argument's value with `~` expanded; null when it cannot be known. */
function argValue(w: ShellWord, ev: Evaluation): ArgValue {
  if (w.value === null) return null
  if (w.glob && /(^|\/)\.[*?[]/.test(w.value)) return null
  if (!w.tilde) return w.value
  if (w.value === '~') return ev.settings.userHome
  if (w.value.startsWith('~/')) return ev.settings.userHome + w.value.slice(1)
  return null
}

/** A redirection's target is read or written as a file, whatever rule allowed the command (docs/permissions.md#permissions). */
async function redirects(
  list: ShellRedirect[],
  state: WalkState,
  ev: Evaluation,
  out: PermissionDecision[]
): Promise<void> {
  for (const r of list) {
    if (!r.target) continue
    const value = argValue(r.target, ev)
    if ((r.op === '>&' || r.op === '<&') && value !== null && /^(\d+-?|-)$/.test(value)) continue
    if (r.op === '<<<') continue
    if (value === null) {
      out.push(cannotTell(`the target of ${r.op} contains an expansion`, ev))
      continue
    }
    if (NOT_FILES.has(value)) continue
    if (NETWORK.test(value)) {
      out.push(cannotTell(`${r.op} ${value} opens a network connection, not a file`, ev))
      continue
    }
    if (state.cwd === null) {
      out.push(cannotTell('the directory is unknown after a cd we cannot follow', ev))
      continue
    }
    out.push(await decideArgPath(WRITE_OPS.has(r.op) ? 'edit' : 'read', value, state.cwd, ev))
  }
}

/**
 * The first Bash rule matching `argv`. Deny and ask rules also match a command given by path
 * (`/bin/rm` matches `Bash(rm:*)`), so a path is no way around them; allow rules match as written.
 */
function firstBashRule(rules: PermissionRule[], argv: ArgValue[], byBaseName = false): PermissionRule | undefined {
  const name = argv[0]
  const alt =
    byBaseName && typeof name === 'string' && name.includes('/')
      ? [name.slice(name.lastIndexOf('/') + 1), ...argv.slice(1)]
      : undefined
  // On a case-insensitive file system `RM` finds /bin/rm through PATH: deny and ask rules match
  // the command name without case there.
  const folded =
    byBaseName && fileSystemCase.insensitive && typeof name === 'string'
      ? [foldName((alt ?? argv)[0] as string), ...argv.slice(1)]
      : undefined
  return rules.find(
    (r) =>
      r.tool === 'Bash' &&
      (bashRuleMatches(r, argv) ||
        (alt !== undefined && bashRuleMatches(r, alt)) ||
        (folded !== undefined &&
          r.bash !== undefined &&
          bashRuleMatches(
            { ...r, bash: { ...r.bash, words: [foldName(r.bash.words[0]), ...r.bash.words.slice(1)] } },
            folded
          )))
  )
}

/**
 * Decide one simple command and its effects. An allow rule decides the command itself only:
 * every file it writes is decided as an Edit of that file would be, every file it reads as a
 * Read, every command it runs on its own (docs/permissions.md#permissions).
 */
async function simpleCommand(
  argv: ArgValue[],
  how: RunHow,
  state: WalkState,
  ev: Evaluation,
  depth: number,
  out: PermissionDecision[]
): Promise<void> {
  const shown = argv.map((a) => a ?? '$…').join(' ')
  const name = argv[0]
  if (name === null || name === undefined) {
    out.push(cannotTell(`"${truncate(shown)}" cannot be classified: the command name contains an expansion`, ev))
    return
  }
  const deny = firstBashRule(ev.rules.deny, argv, true)
  if (deny) {
    out.push(byRule('deny', deny, `"${truncate(shown)}" is denied by ${deny.text}`))
    return
  }
  if (state.cwd === null) {
    out.push(
      cannotTell(`"${truncate(shown)}" runs in a directory we cannot tell (after a cd with an expansion or popd)`, ev)
    )
    return
  }
  const cwd = state.cwd
  if (name === 'cd' || name === 'pushd' || name === 'popd') return changeDirectory(argv, state, ev, out)
  const effects = commandEffects(argv)
  if (how.extraArgsUnknown && !READ_ONLY_NO_FILE_COMMANDS.includes(name)) {
    // A reading command given unseen arguments reads unseen files: not read-only. Any other
    // command may write them: the engine cannot tell, so it asks whatever rule allows the command.
    if (!effects.readOnly)
      effects.unknown.push(
        `it gets arguments the engine cannot see (from xargs or the program that runs it), which may be files it writes`
      )
    effects.readOnly = false
  }
  if (how.below) aboutFound(effects, how.below)
  const ask = ev.mode === 'bypassPermissions' ? undefined : firstBashRule(ev.rules.ask, argv, true)
  const allow = firstBashRule(ev.rules.allow, argv)
  if (ev.mode === 'bypassPermissions') out.push({ decision: 'allow', reason: 'bypassPermissions mode' })
  else if (ask) out.push(byRule('ask', ask, `"${truncate(shown)}" asks by ${ask.text}`))
  else if (allow) out.push(byRule('allow', allow, `"${truncate(shown)}" is allowed by ${allow.text}`))
  else if (effects.readOnly && effects.unknown.length === 0)
    out.push({ decision: 'allow', reason: `"${truncate(shown)}" is a read-only command` })
  else if (ev.mode === 'acceptEdits' && ACCEPT_EDITS_COMMANDS.includes(name))
    out.push({ decision: 'allow', reason: `acceptEdits mode allows ${name} inside the workspace` })
  else if (ev.mode === 'plan')
    out.push({ decision: 'deny', reason: `${PLAN_DENIAL} ("${truncate(shown)}" is not a read-only command)` })
  else out.push({ decision: 'ask', reason: `"${truncate(shown)}" needs approval` })
  for (const why of effects.unknown) out.push(cannotTell(`"${truncate(shown)}": ${why}`, ev))
  for (const p of effects.reads) out.push(await decideArgPath('read', p, cwd, ev, effects.recursive === true))
  for (const p of effects.writes) out.push(await decideArgPath('edit', p, cwd, ev))
  for (const p of effects.writesBelow) out.push(await decideArgPath('edit', p, cwd, ev, true))
  for (const run of effects.runs) {
    if (run.kind === 'script') out.push(await decideBash(run.code, cwd, ev, depth + 1))
    else await simpleCommand(run.argv, run, { cwd }, ev, depth + 1, out)
  }
}

/**
 * A command `find -exec` runs on what it finds: its paths stand for the trees below the roots
 * (read and written recursively); with `-execdir` its relative paths may be in any directory
 * below them, so they are the roots' trees too.
 */
function aboutFound(effects: ReturnType<typeof commandEffects>, below: NonNullable<RunHow['below']>): void {
  const anywhere = (p: string): string[] =>
    below.inFoundDirs && !p.startsWith('/') && !p.startsWith('~') ? below.roots : [p]
  effects.reads = effects.reads.flatMap(anywhere)
  effects.recursive = true
  effects.writesBelow = [...effects.writesBelow, ...effects.writes].flatMap(anywhere)
  effects.writes = []
}

/** A path argument, glob-expanded first so every file the command will get is checked. */
async function decideArgPath(
  kind: 'read' | 'edit',
  p: string,
  cwd: string,
  ev: Evaluation,
  recursive = false
): Promise<PermissionDecision> {
  if (!hasGlob(p)) return decidePath(kind, p, cwd, ev, recursive)
  let matches: string[]
  try {
    matches = await expandGlob(p, cwd)
  } catch (e) {
    if (e instanceof GlobTooWideError) return cannotTell(e.message, ev)
    throw e
  }
  const decisions: PermissionDecision[] = []
  for (const m of matches) decisions.push(await decidePath(kind, m, cwd, ev, recursive))
  return strictest(decisions, 'no files')
}

/** `cd DIR` changes where later parts are judged; the directory itself is read. */
async function changeDirectory(
  argv: ArgValue[],
  state: WalkState,
  ev: Evaluation,
  out: PermissionDecision[]
): Promise<void> {
  const args = argv.slice(1).filter((a) => a === null || !a.startsWith('-') || a === '-')
  const target = argv[0] === 'popd' ? null : args.length === 0 ? ev.settings.userHome : args[0]
  if (target === null || target === '-' || state.cwd === null) {
    state.cwd = null
    out.push({ decision: 'allow', reason: `${argv[0]} changes the directory; later parts will ask` })
    return undefined
  }
  out.push(await decidePath('read', target, state.cwd, ev))
  try {
    state.cwd = await canonicalPath(target, state.cwd)
  } catch (e) {
    // decidePath has already asked or refused for this directory; later parts cannot be placed.
    if (!(e instanceof PathLoopError)) throw e
    state.cwd = null
  }
  return undefined
}
