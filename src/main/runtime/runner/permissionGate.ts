import type { LoadedSettings } from '../permissions'
import { isAbsolute, resolve } from 'node:path'
import type { PermissionDecision, PermissionMode, PermissionSubject } from '../../../shared/permissions'
import type { PermissionPrompter } from '../permissions'
import { newRequestId } from '../mailbox'
import type { GateDecision, PermissionGate } from '../loop'
import { sandboxMarkOf, sandboxVerdict } from './sandboxGate'

/** The part of the permission engine the gate needs. */
export interface PermissionDecider {
  decide(
    subject: PermissionSubject,
    context: { cwd: string; mode: PermissionMode; sessionAllowRules?: string[]; tool?: string }
  ): Promise<PermissionDecision>
  suggestRules(subject: PermissionSubject, cwd: string): string[]
  /** The merged settings, when the decider has them (the Bash sandbox reads its block and rules there). */
  readonly settings?: LoadedSettings
}

/** One permission decision as recorded (docs/permissions.md#permissions: who asked, tool, input, decision, by whom, when). */
export interface PermissionRecord {
  time: string
  agentId: string
  agentName: string
  tool: string
  input: unknown
  decision: 'allow' | 'deny'
  by: 'rule' | 'mode' | 'user' | 'approve-flag' | 'cancelled'
  reason: string
  rule?: string
}

/** Options of {@link createPermissionGate}. */
export interface GateOptions {
  agentId: string
  agentName: string
  /** The agent's root, absolute. */
  cwd: string
  /** Read on every call, so a mode change takes effect at the next tool call. */
  mode: () => PermissionMode
  engine: PermissionDecider
  prompter: PermissionPrompter
  /** "Always allow" rules a person gave this agent in this session (docs/permissions.md#permissions: not inherited by children). Appended to. */
  sessionAllowRules: string[]
  record: (entry: PermissionRecord) => void
  /**
   * True when nobody may be asked for this agent (a background agent with bubbling off, docs/permissions.md#permissions):
   * what would ask is denied, and the denial says why.
   */
  cannotPrompt?: () => boolean
  /** Refuses paths outside an isolated agent's worktree that belong to its parent's checkout (docs/agents.md#worktree-isolation). */
  pathGuard?: (absPath: string) => { ok: true } | { ok: false; message: string }
}

/**
 * The loop's permission gate for one agent (docs/permissions.md#permissions): asks the engine; on `ask`, emits
 * `permission_request`, waits for the prompter and emits `permission_decided`. Every decision is
 * recorded. A denial's message tells the model what was denied and why, so it can adjust.
 */
export function createPermissionGate(options: GateOptions): PermissionGate {
  return async ({ tool, input }, emit, signal): Promise<GateDecision> => {
    const subject = tool.permissionSubject(input, { cwd: options.cwd })
    if (subject.kind === 'none') return { behavior: 'allow' }
    if (options.pathGuard && (subject.kind === 'read' || subject.kind === 'edit')) {
      const verdict = options.pathGuard(isAbsolute(subject.path) ? subject.path : resolve(options.cwd, subject.path))
      if (!verdict.ok) return { behavior: 'deny', message: verdict.message }
    }
    const mode = options.mode()
    const verdict = sandboxVerdict(
      tool.name,
      input,
      options.engine.settings?.sandbox,
      await options.engine.decide(subject, {
        cwd: options.cwd,
        mode,
        sessionAllowRules: options.sessionAllowRules,
        tool: tool.name
      }),
      mode
    )
    const base = {
      time: new Date().toISOString(),
      agentId: options.agentId,
      agentName: options.agentName,
      tool: tool.name,
      input
    }
    if (verdict.decision !== 'ask') {
      const by = verdict.rule ? 'rule' : 'mode'
      options.record({ ...base, decision: verdict.decision, by, reason: verdict.reason, rule: verdict.rule?.rule })
      return verdict.decision === 'allow'
        ? { behavior: 'allow' }
        : { behavior: 'deny', message: `Permission denied for ${tool.name}: ${verdict.reason}` }
    }
    if (options.cannotPrompt?.()) {
      const reason = 'background agents cannot prompt'
      options.record({ ...base, decision: 'deny', by: 'mode', reason })
      return { behavior: 'deny', message: `Permission to use ${tool.name} was denied: ${reason}` }
    }
    const requestId = newRequestId('perm')
    const mark = sandboxMarkOf(tool.name, input, options.engine.settings?.sandbox)
    emit({ type: 'permission_request', requestId, tool: tool.name, input, reason: verdict.reason })
    emit({ type: 'agent_state', state: 'awaiting_permission' })
    const answer = await options.prompter.prompt(
      {
        requestId,
        agentId: options.agentId,
        agentName: options.agentName,
        tool: tool.name,
        input,
        reason: verdict.reason,
        suggestions: verdict.once ? [] : options.engine.suggestRules(subject, options.cwd),
        cwd: options.cwd,
        ...(mark ? { sandbox: mark } : {})
      },
      signal
    )
    emit({ type: 'agent_state', state: 'running' })
    const reason = answer.decision === 'deny' ? answer.reason : undefined
    // an "Always allow" is recorded with the rule it added, in the event stream and the decision log
    const rule = answer.decision === 'allow' ? answer.alwaysAllowRule : undefined
    emit({
      type: 'permission_decided',
      requestId,
      decision: answer.decision,
      by: answer.by,
      ...(reason ? { reason } : {}),
      ...(rule ? { rule } : {})
    })
    options.record({
      ...base,
      decision: answer.decision,
      by: answer.by,
      reason: reason ?? verdict.reason,
      ...(rule ? { rule } : {})
    })
    if (answer.decision === 'allow') {
      if (answer.alwaysAllowRule) options.sessionAllowRules.push(answer.alwaysAllowRule)
      return { behavior: 'allow' }
    }
    const who = answer.by === 'cancelled' ? 'The request was cancelled' : 'The user denied this'
    const because = reason ? `: ${reason.trim().replace(/[.!?]*$/, '.')}` : '.'
    return {
      behavior: 'deny',
      message: `Permission denied for ${tool.name}. ${who}${because} Do not retry the same call; adjust your approach or ask.`
    }
  }
}
