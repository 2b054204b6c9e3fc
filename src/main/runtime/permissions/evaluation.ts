import type { PermissionDecision, PermissionMode } from '../../../shared/permissions'
import path from 'node:path'
import { canonicalPath, isWithin, PathLoopError, PathTooLongError, PROTECTED_DIRS, protectedReason } from './paths'
import { pathRuleMatches, rulePattern, type PermissionRule } from './rules'
import type { LoadedSettings } from './settings'

/** Everything one decision is made against: the agent's canonical root, its mode and the rules in force. */
export interface Evaluation {
  root: string
  mode: PermissionMode
  settings: LoadedSettings
  rules: { allow: PermissionRule[]; ask: PermissionRule[]; deny: PermissionRule[] }
  /** The calling tool's name, when known (`Glob`, `Write`, `Agent`…), so `Glob(...)` rules match too. */
  tool?: string
}

const STRICTNESS = { allow: 0, ask: 1, deny: 2 } as const

/** The strictest of `decisions` (deny > ask > allow); the first of equals. Allow when empty. */
export function strictest(decisions: PermissionDecision[], emptyReason: string): PermissionDecision {
  let best: PermissionDecision | undefined
  for (const d of decisions) {
    if (!best || STRICTNESS[d.decision] > STRICTNESS[best.decision]) best = d
    else if (d.decision === 'allow' && best.decision === 'allow' && !best.rule && d.rule) best = d
  }
  return best ?? { decision: 'allow', reason: emptyReason }
}

/** A decision carrying the rule that made it. */
export function byRule(
  decision: PermissionDecision['decision'],
  rule: PermissionRule,
  reason: string
): PermissionDecision {
  return { decision, reason, rule: { rule: rule.text, source: rule.source } }
}

/** The denial plan mode gives (docs/permissions.md#permissions: the message says plan mode is read-only). */
export const PLAN_DENIAL = 'plan mode is read-only: only reads are allowed until the plan is approved'

/** Whether the list has a rule for `tools` matching the path; the first that does. */
export async function firstPathRule(
  rules: PermissionRule[],
  tools: string[],
  target: string,
  ev: Evaluation
): Promise<PermissionRule | undefined> {
  for (const rule of rules) {
    if (!tools.includes(rule.tool)) continue
    if (await pathRuleMatches(rule, target, { cwd: ev.root, userHome: ev.settings.userHome })) return rule
  }
  return undefined
}

/**
 * An allow rule may open a protected path only by naming it: its literal part (or its last,
 * literal segment) is itself protected, as in `Edit(./.git/hooks/**)` or `Edit(.bashrc)`. A
 * generic `Edit` or `Edit(./**)` does not (docs/permissions.md#permissions: protected paths always ask outside bypass).
 */
async function namesProtected(rule: PermissionRule, ev: Evaluation): Promise<boolean> {
  if (!rule.specifier) return false
  const { literal, lastLiteral } = await rulePattern(rule, { cwd: ev.root, userHome: ev.settings.userHome })
  const named = [literal, lastLiteral ? `${literal}/${lastLiteral}` : literal]
  return named.some((p) => protectedReason(p, ev.root, ev.settings.protectedFiles) !== undefined)
}

/**
 * The first rule for `tools` that may match a path strictly below `dir` (canonical): its literal
 * part lies inside `dir` (`Read(./secrets/**)` below the workspace), or it has a glob part that
 * starts above `dir` (`Read(.env)` matches `.env` at any depth below the working directory, so also `dir/.env`).
 */
async function firstRuleBelow(
  rules: PermissionRule[],
  tools: string[],
  dir: string,
  ev: Evaluation
): Promise<PermissionRule | undefined> {
  for (const rule of rules) {
    if (!tools.includes(rule.tool) || !rule.specifier) continue
    const { pattern, literal } = await rulePattern(rule, { cwd: ev.root, userHome: ev.settings.userHome })
    if (isWithin(literal, dir) || (pattern !== literal && isWithin(dir, literal))) return rule
  }
  return undefined
}

/**
 * Decide a read or an edit of `rawPath` (relative to `cwd`). A file a Bash command writes is
 * decided here exactly as an Edit of it would be, whatever rule allowed the command (docs/permissions.md#permissions: an
 * allow rule covers the command, not its side effects). `recursive`: the call reaches the whole
 * tree below the path — a recursive read (the Grep tool, `grep -r`, `rg`) or a recursive write
 * (`rm -r`, `find -delete`, `chmod -R`, `rsync` into a directory) — which also reaches files a deny
 * rule covers below it, and for a write the protected directories below it: that asks (a deny
 * rule below is denied in bypassPermissions, where deny rules still apply and nobody is asked).
 */
export async function decidePath(
  kind: 'read' | 'edit',
  rawPath: string,
  cwd: string,
  ev: Evaluation,
  recursive = false
): Promise<PermissionDecision> {
  let target: string
  try {
    target = await canonicalPath(rawPath, cwd)
  } catch (e) {
    if (e instanceof PathTooLongError) return { decision: 'deny', reason: e.message }
    if (e instanceof PathLoopError) return { decision: 'ask', reason: e.message }
    throw e
  }
  const verb = kind === 'read' ? 'reading' : 'editing'
  const tools = kind === 'read' ? ['Read'] : ['Edit']
  if (ev.tool && ev.tool !== 'Bash' && !tools.includes(ev.tool)) tools.push(ev.tool)
  const deny = await firstPathRule(ev.rules.deny, tools, target, ev)
  if (deny) return byRule('deny', deny, `${verb} ${target} is denied by ${deny.text}`)
  if (recursive || (kind === 'read' && ev.tool === 'Grep')) {
    const below = await firstRuleBelow(ev.rules.deny, tools, target, ev)
    const why =
      below &&
      (kind === 'read'
        ? `searching ${target} would also read files below it that ${below.text} denies; search a narrower path`
        : `writing below ${target} may also write or remove files there that ${below.text} denies; name the files or a narrower directory`)
    if (below) return byRule(ev.mode === 'bypassPermissions' ? 'deny' : 'ask', below, why as string)
  }
  if (kind === 'edit' && ev.mode === 'plan') return { decision: 'deny', reason: `${PLAN_DENIAL} (${verb} ${target})` }
  if (ev.mode === 'bypassPermissions') return { decision: 'allow', reason: 'bypassPermissions mode' }
  const guarded =
    kind === 'edit'
      ? (protectedReason(target, ev.root, ev.settings.protectedFiles) ??
        (recursive ? protectedBelow(target, ev) : undefined))
      : undefined
  const ask = await firstPathRule(ev.rules.ask, tools, target, ev)
  if (ask) return byRule('ask', ask, `${verb} ${target} asks by ${ask.text}`)
  const allow = await firstPathRule(ev.rules.allow, tools, target, ev)
  if (allow && (!guarded || (await namesProtected(allow, ev))))
    return byRule('allow', allow, `${verb} ${target} is allowed by ${allow.text}`)
  if (guarded) return { decision: 'ask', reason: `${verb} ${target} needs approval: ${guarded}` }
  const inside = isWithin(target, ev.root) || ev.settings.additionalDirectories.some((d) => isWithin(target, d))
  if (!inside)
    return { decision: 'ask', reason: `${verb} ${target} needs approval: it is outside the workspace ${ev.root}` }
  if (kind === 'read') return { decision: 'allow', reason: `${verb} inside the workspace` }
  if (ev.mode === 'acceptEdits')
    return { decision: 'allow', reason: 'acceptEdits mode: edits inside the workspace are allowed' }
  return { decision: 'ask', reason: `${verb} ${target} needs approval` }
}

/**
 * Why a recursive write of `dir` (canonical) would reach a protected path: the agent's own
 * `.git/`, `.swarmdesk/` or `.claude/`, or a loaded settings or trust file, lies in or below it
 * (`rm -r .`, `find . -delete`). Nested repositories and start-up files deeper down are not
 * looked for: that would mean walking the tree on every decision.
 */
function protectedBelow(dir: string, ev: Evaluation): string | undefined {
  const hit = PROTECTED_DIRS.find((d) => isWithin(path.join(ev.root, d), dir))
  if (hit) return `it reaches ${path.join(ev.root, hit)}: ${hit}/ is protected`
  const file = ev.settings.protectedFiles.find((f) => isWithin(f, dir))
  return file ? `it reaches ${file}, a settings file` : undefined
}
