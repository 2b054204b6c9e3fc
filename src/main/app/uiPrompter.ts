import { readFile } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { createTwoFilesPatch } from 'diff'
import type { PendingPermission } from '../../shared/ipc'
import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../shared/permissions'
import type { PermissionPrompter } from '../runtime/permissions'
import { toDisposable, type Disposable } from '../runtime/base'

/**
 * An "Always allow" rule the request did not offer: the renderer is untrusted (STYLE.md 3), so a
 * rule wider than the engine's suggestions (say `Bash` for a `Bash(npm test:*)` question) is refused.
 */
export class UnofferedRuleError extends Error {
  override readonly name = 'UnofferedRuleError'
  constructor(
    readonly rule: string,
    readonly offered: readonly string[]
  ) {
    super(
      offered.length
        ? `The rule ${rule} was not offered for this request; "Always allow" may add only ${offered.join(' or ')}.`
        : `No rule can be added for this request ("Always allow" is not offered); allow it once instead.`
    )
  }
}

/** The asking agent's working directory, when known (the workspace root otherwise). */
export type AgentCwdResolver = (agentId: string) => string | undefined

/** A person's answer as the UI sends it (`permission.respond`). */
export interface UiPermissionAnswer {
  decision: 'allow' | 'deny'
  alwaysAllowRule?: string
  reason?: string
}

/**
 * Permission questions waiting for a person in the UI (docs/teams.md#permission-requests, docs/ui.md#the-workspace-ui): each request is listed
 * until it is answered — exactly once, the first answer wins — or cancelled because its agent
 * stopped, which removes it from the list. Edit/Write requests carry a unified diff of the change.
 */
export class UiPrompter implements PermissionPrompter {
  private readonly pending = new Map<
    string,
    { view: PendingPermission; resolve: (a: PermissionPromptAnswer) => void }
  >()
  private readonly listeners = new Set<(list: PendingPermission[]) => void>()

  private cwdOf: AgentCwdResolver = () => undefined

  /** @param cwd the workspace root, for relative paths in tool inputs of agents whose own directory is unknown. */
  constructor(private readonly cwd: string) {}

  /**
   * Tells the prompter where each agent works (its worktree when isolated, docs/agents.md#worktree-isolation): shown with a
   * Bash command (the directory it runs in) and used to resolve an Edit/Write path for its diff.
   */
  setAgentCwdResolver(resolver: AgentCwdResolver): void {
    this.cwdOf = resolver
  }

  async prompt(request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer> {
    if (signal.aborted) return { decision: 'deny', by: 'cancelled', reason: 'the agent stopped' }
    const cwd = this.cwdOf(request.agentId) ?? this.cwd
    const diff = await diffOf(request.tool, request.input, cwd)
    return new Promise((resolvePrompt) => {
      const onAbort = (): void => {
        if (this.settle(request.requestId))
          resolvePrompt({ decision: 'deny', by: 'cancelled', reason: 'the agent stopped' })
      }
      const view: PendingPermission = {
        requestId: request.requestId,
        agentId: request.agentId,
        agentName: request.agentName,
        tool: request.tool,
        input: request.input,
        reason: request.reason,
        suggestions: request.suggestions,
        ...(diff ? { diff } : {}),
        ...(request.sandbox ? { sandbox: request.sandbox } : {}),
        cwd,
        createdAt: new Date().toISOString()
      }
      this.pending.set(request.requestId, {
        view,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort)
          resolvePrompt(answer)
        }
      })
      signal.addEventListener('abort', onAbort, { once: true })
      this.changed()
    })
  }

  /**
   * Answers one request. An "Always allow" rule must be one the request offered (its
   * `suggestions`); it is then added for the rest of the session, to the asking agent only
   * (docs/permissions.md#permissions), by that agent's permission gate.
   * @returns false when it is unknown or already answered (the first answer won), true when this answer settled it.
   * @throws UnofferedRuleError when `alwaysAllowRule` is not among the request's suggestions (the request stays pending).
   */
  respond(requestId: string, answer: UiPermissionAnswer): boolean {
    const entry = this.pending.get(requestId)
    if (!entry) return false
    if (
      answer.decision === 'allow' &&
      answer.alwaysAllowRule !== undefined &&
      !entry.view.suggestions.includes(answer.alwaysAllowRule)
    ) {
      throw new UnofferedRuleError(answer.alwaysAllowRule, entry.view.suggestions)
    }
    if (!this.settle(requestId)) return false
    entry.resolve(
      answer.decision === 'allow'
        ? {
            decision: 'allow',
            by: 'user',
            ...(answer.alwaysAllowRule ? { alwaysAllowRule: answer.alwaysAllowRule } : {})
          }
        : { decision: 'deny', by: 'user', ...(answer.reason ? { reason: answer.reason } : {}) }
    )
    return true
  }

  /** Cancels every waiting request (the workspace is closing). */
  cancelAll(): void {
    for (const [id, entry] of [...this.pending]) {
      if (this.settle(id)) entry.resolve({ decision: 'deny', by: 'cancelled', reason: 'the workspace closed' })
    }
  }

  /** The waiting requests, oldest first. */
  list(): PendingPermission[] {
    return [...this.pending.values()].map((e) => e.view)
  }

  /** Called with the whole list after every change. */
  onDidChange(listener: (list: PendingPermission[]) => void): Disposable {
    this.listeners.add(listener)
    return toDisposable(() => this.listeners.delete(listener))
  }

  private settle(requestId: string): boolean {
    const had = this.pending.delete(requestId)
    if (had) this.changed()
    return had
  }

  private changed(): void {
    const list = this.list()
    for (const l of [...this.listeners]) l(list)
  }
}

/** Largest file, in bytes, whose change is shown as a diff; beyond it the bubble shows the input. */
const MAX_DIFF_SOURCE_BYTES = 1_000_000

/**
 * The unified diff an Edit or Write would make, computed from the file on disk; undefined for
 * other tools, or when the file cannot be read or the edit does not apply (the tool itself will
 * then report the problem).
 */
export async function diffOf(tool: string, input: unknown, cwd: string): Promise<string | undefined> {
  if (tool !== 'Edit' && tool !== 'Write') return undefined
  const i = input as {
    file_path?: unknown
    content?: unknown
    old_string?: unknown
    new_string?: unknown
    replace_all?: unknown
  }
  if (typeof i.file_path !== 'string') return undefined
  const path = isAbsolute(i.file_path) ? i.file_path : resolve(cwd, i.file_path)
  let before: string
  try {
    const buf = await readFile(path)
    if (buf.length > MAX_DIFF_SOURCE_BYTES) return undefined
    before = buf.toString('utf8')
  } catch {
    before = ''
  }
  let after: string
  if (tool === 'Write') {
    if (typeof i.content !== 'string') return undefined
    after = i.content
  } else {
    if (typeof i.old_string !== 'string' || typeof i.new_string !== 'string') return undefined
    if (i.old_string === '') after = i.new_string
    else if (!before.includes(i.old_string)) return undefined
    else
      after =
        i.replace_all === true
          ? before.split(i.old_string).join(i.new_string)
          : before.replace(i.old_string, () => i.new_string as string)
  }
  return createTwoFilesPatch(i.file_path, i.file_path, before, after, undefined, undefined, { context: 3 })
}
