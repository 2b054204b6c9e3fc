import { BLOCKING_EVENTS, type HookEvent } from './events'
import type { HookCommandSpec } from './config'
import type { HookCommandRun } from './spawnHook'

/** One command's run as recorded in the event log: where it came from, what it did, what it decided. */
export interface HookCommandResult extends HookCommandRun {
  command: string
  source: string
  field: string
  /** `block`: exit 2 (or a JSON block) on a blocking event; `warning`: a non-blocking error. */
  verdict: 'ok' | 'block' | 'warning'
  /** For `block`: the reason; for `warning`: the message also listed in the outcome's warnings. */
  message?: string
}

/**
 * What a hook event decided (docs/hooks.md#hooks). `continue`: carry on (every command exited 0, or failed
 * in a non-blocking way — those are in `warnings`). `block`: the first command, in settings order,
 * that blocked; `reason` is its stderr (or its JSON `reason`) — see `BLOCKING_EVENTS` for what the
 * caller does with it. `results` lists every command run, for the event log.
 */
export type HookOutcome =
  | { kind: 'continue'; warnings: string[]; results: HookCommandResult[] }
  | { kind: 'block'; reason: string; warnings: string[]; results: HookCommandResult[] }

/** The outcome of an event for which nothing ran. */
export function emptyOutcome(warnings: string[] = []): HookOutcome {
  return { kind: 'continue', warnings, results: [] }
}

/**
 * Claude Code's exit-code contract: 0 = success (stdout may carry `{"decision":"block","reason":…}`),
 * 2 = blocking error with stderr as the reason, anything else = non-blocking error shown as a warning.
 * A timeout, a kill, an abort or a failed spawn are non-blocking errors. On SubagentStart nothing
 * blocks (as in Claude Code): a block there becomes a warning.
 */
export function judge(event: HookEvent, spec: HookCommandSpec, run: HookCommandRun): HookCommandResult {
  const base = { ...run, command: spec.command, source: spec.source, field: spec.field }
  const name = `hook "${short(spec.command)}" (${spec.source})`
  const warn = (what: string): HookCommandResult => ({
    ...base,
    verdict: 'warning',
    message: `${event} ${name} ${what}`
  })
  const block = (reason: string): HookCommandResult =>
    BLOCKING_EVENTS.has(event)
      ? { ...base, verdict: 'block', message: reason }
      : warn(`asked to block, which ${event} cannot do: ${reason}`)
  const end = run.end
  switch (end.kind) {
    case 'exited': {
      if (end.code === 2) return block(run.stderr.trim() || `${name} exited 2 without a message`)
      if (end.code !== 0) return warn(`exited ${end.code}${stderrTail(run.stderr)}`)
      const decision = jsonBlock(run.stdout)
      return decision === undefined ? { ...base, verdict: 'ok' } : block(decision || `${name} blocked without a reason`)
    }
    case 'signalled':
      return warn(`was killed by ${end.signal}${stderrTail(run.stderr)}`)
    case 'timed_out':
      return warn(`timed out after ${end.afterMs / 1000} s; its processes were killed`)
    case 'aborted':
      return warn('was stopped: the caller gave up waiting')
    case 'spawn_failed':
      return warn(`could not start: ${end.message}`)
  }
}

/** Fold per-command results (settings order) into the event's outcome; `ignoreBlock` turns a block into a warning. */
export function combine(results: HookCommandResult[], ignoreBlock: boolean): HookOutcome {
  const warnings = [...results.filter((r) => r.verdict === 'warning').map((r) => r.message ?? '')]
  const first = results.find((r) => r.verdict === 'block')
  if (!first) return { kind: 'continue', warnings, results }
  const reason = first.message ?? ''
  if (ignoreBlock)
    return {
      kind: 'continue',
      warnings: [...warnings, `ignored a block from hook "${short(first.command)}" (the agent is stopping): ${reason}`],
      results
    }
  return { kind: 'block', reason, warnings, results }
}

/**
 * `{"decision":"block","reason":"…"}` printed by a hook that exited 0 (Claude Code's JSON output):
 * the reason ('' when missing), or undefined when stdout is not such an object. Other JSON fields
 * (`continue`, `stopReason`, `hookSpecificOutput`…) are not supported yet and ignored.
 */
function jsonBlock(stdout: string): string | undefined {
  const text = stdout.trim()
  if (!text.startsWith('{')) return undefined
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null) return undefined
    const { decision, reason } = value as { decision?: unknown; reason?: unknown }
    if (decision !== 'block') return undefined
    return typeof reason === 'string' ? reason.trim() : ''
  } catch {
    return undefined
  }
}

function stderrTail(stderr: string): string {
  const text = stderr.trim()
  return text ? `: ${text.length > 500 ? `…${text.slice(-500)}` : text}` : ''
}

function short(command: string): string {
  return command.length > 120 ? `${command.slice(0, 117)}…` : command
}
