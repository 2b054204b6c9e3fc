import type { PermissionDecision, PermissionMode, PermissionSubject } from '../../../shared/permissions'
import { decideBash } from './bashDecision'
import { byRule, decidePath, PLAN_DENIAL, type Evaluation } from './evaluation'
import { canonicalPath } from './paths'
import { parseRule, type PermissionRule } from './rules'
import type { LoadedSettings } from './settings'
import { suggestRules } from './suggest'

/** Where and how one call is decided. */
export interface DecideContext {
  /** The agent's root (its worktree when isolated), absolute. Relative paths resolve against it. */
  cwd: string
  mode: PermissionMode
  /** "Always allow" rules a person gave this agent in this session (not inherited by children). */
  sessionAllowRules?: string[]
  /** The tool's name, so `Tool`/`Tool(spec)` rules can match `tool` subjects and `Glob(...)`-style rules. */
  tool?: string
}

/**
 * The permission engine (docs/permissions.md#permissions). Deny rules win in every mode; then ask rules, then allow
 * rules (first match wins within a list); then the mode. `dontAsk` turns every ask into a
 * denial; `bubble` decides like `default` (the caller routes the ask to the parent).
 */
export class PermissionEngine {
  private current: LoadedSettings

  constructor(settings: LoadedSettings) {
    this.current = settings
  }

  /** The merged settings every decision uses now. */
  get settings(): LoadedSettings {
    return this.current
  }

  /**
   * Decides with `settings` from now on: the Settings view saved new rules, or project trust
   * changed (docs/permissions.md#permissions). A decision already under way finishes with the settings it started with.
   */
  replaceSettings(settings: LoadedSettings): void {
    this.current = settings
  }

  /** Decide one call. Never throws for a strange subject: what it cannot tell, it asks. */
  async decide(subject: PermissionSubject, ctx: DecideContext): Promise<PermissionDecision> {
    const root = await canonicalPath(ctx.cwd, '/')
    const session = (ctx.sessionAllowRules ?? []).flatMap((text): PermissionRule[] => {
      try {
        return [parseRule(text, 'session', root)]
      } catch {
        return []
      }
    })
    const { allow, ask, deny } = this.settings.rules
    const ev: Evaluation = {
      root,
      mode: ctx.mode,
      settings: this.settings,
      rules: { allow: [...allow, ...session], ask, deny },
      tool: ctx.tool
    }
    const decision = await this.decideSubject(subject, ev)
    if (ctx.mode === 'dontAsk' && decision.decision === 'ask') {
      return { ...decision, decision: 'deny', reason: `dontAsk mode denies what would ask: ${decision.reason}` }
    }
    return decision
  }

  /** Rules a person could add with "Always allow" for this subject (see {@link suggestRules}). */
  suggestRules(subject: PermissionSubject, cwd: string): string[] {
    return suggestRules(subject, cwd)
  }

  private async decideSubject(subject: PermissionSubject, ev: Evaluation): Promise<PermissionDecision> {
    switch (subject.kind) {
      case 'none':
        return { decision: 'allow', reason: 'nothing to check' }
      case 'read':
        return decidePath('read', subject.path, ev.root, ev)
      case 'edit':
        return decidePath('edit', subject.path, ev.root, ev)
      case 'bash':
        return decideBash(subject.command, ev.root, ev)
      case 'tool':
        return decideTool(subject.tool ?? ev.tool, subject, ev)
    }
  }
}

/** `tool` subjects: `Tool` matches every call, `Tool(spec)` calls with that specifier. */
function decideTool(
  name: string | undefined,
  subject: Extract<PermissionSubject, { kind: 'tool' }>,
  ev: Evaluation
): PermissionDecision {
  const label = name ? `${name}${subject.specifier ? `(${subject.specifier})` : ''}` : 'this tool'
  const match = (rules: PermissionRule[]): PermissionRule | undefined =>
    name === undefined
      ? undefined
      : rules.find((r) => r.tool === name && (r.specifier === undefined || r.specifier === subject.specifier))
  const deny = match(ev.rules.deny)
  if (deny) return byRule('deny', deny, `${label} is denied by ${deny.text}`)
  if (ev.mode === 'bypassPermissions') return { decision: 'allow', reason: 'bypassPermissions mode' }
  if (subject.grantsMode !== undefined && !(subject.grantsMode === 'acceptEdits' && ev.mode === 'acceptEdits')) {
    const why = `${label} would start an agent in ${subject.grantsMode} mode, more than this agent's ${ev.mode} mode allows`
    if (ev.mode === 'plan' || ev.mode === 'dontAsk')
      return { decision: 'deny', reason: `${why}; in ${ev.mode} mode that is refused` }
    return { decision: 'ask', reason: `${why}: a person decides` }
  }
  const ask = match(ev.rules.ask)
  if (ask) return byRule('ask', ask, `${label} asks by ${ask.text}`)
  const allow = match(ev.rules.allow)
  if (allow) return byRule('allow', allow, `${label} is allowed by ${allow.text}`)
  if (subject.readOnly) return { decision: 'allow', reason: `${label} only reads` }
  if (ev.mode === 'plan') return { decision: 'deny', reason: `${PLAN_DENIAL} (${label})` }
  return { decision: 'ask', reason: `${label} needs approval` }
}
