import type { SandboxMark } from '../../../shared/events'
import type { PermissionDecision, PermissionMode } from '../../../shared/permissions'
import type { SandboxSettings } from '../permissions'
import { sandboxRoute } from '../sandbox'

/**
 * Engine reasons for paths the sandbox cannot be relied on to keep (permissions/paths.ts
 * `protectedReason`): a command the engine knows writes them still asks, sandbox or not.
 */
const PROTECTED_REASON = /is protected|is a settings file|start-up or tool configuration file/

/**
 * The engine's verdict on a Bash call, adjusted for the sandbox (docs/permissions.md#the-bash-sandbox):
 * - `dangerouslyDisableSandbox` (when `allowUnsandboxedCommands` lets it run outside) is its own
 *   permission request: it asks a person even where a rule or mode would allow the command, except
 *   in bypassPermissions; a deny stays a deny. It is answered `once`: no "always allow" rule is
 *   suggested, since a rule would allow the command, not its escape.
 * - with `autoAllowBashIfSandboxed`, a command that will run sandboxed and would ask runs without
 *   asking: the sandbox, not a prompt, stops what it may not do. An explicit `ask` rule, a
 *   protected path the engine names, excluded commands and a sandbox that cannot start still ask.
 * Other tools and a sandbox that is off keep the engine's verdict.
 */
export function sandboxVerdict(
  tool: string,
  input: unknown,
  settings: SandboxSettings | undefined,
  verdict: PermissionDecision,
  mode: PermissionMode
): PermissionDecision & { once?: true } {
  if (tool !== 'Bash' || !settings?.enabled) return verdict
  const { command, dangerouslyDisableSandbox } = (input ?? {}) as {
    command?: unknown
    dangerouslyDisableSandbox?: unknown
  }
  if (typeof command !== 'string') return verdict
  const route = sandboxRoute(command, settings, dangerouslyDisableSandbox === true)
  if (route.kind === 'unsandboxed') {
    if (verdict.decision === 'deny' || mode === 'bypassPermissions') return verdict
    return {
      decision: 'ask',
      reason: `"${command}" asks to run outside the sandbox (dangerouslyDisableSandbox)`,
      once: true
    }
  }
  if (route.kind !== 'sandboxed' || verdict.decision !== 'ask' || verdict.rule) return verdict
  if (!settings.autoAllowBashIfSandboxed || PROTECTED_REASON.test(verdict.reason)) return verdict
  return {
    decision: 'allow',
    reason: `runs in the sandbox (autoAllowBashIfSandboxed); the engine would ask: ${verdict.reason}`
  }
}

/**
 * How a Bash call would run with respect to the sandbox, for its permission card
 * (docs/sandbox.md#the-pane-mark): the route's kind, or undefined for another tool, a sandbox that
 * is off, or an input without a command.
 */
export function sandboxMarkOf(
  tool: string,
  input: unknown,
  settings: SandboxSettings | undefined
): SandboxMark | undefined {
  if (tool !== 'Bash' || !settings?.enabled) return undefined
  const { command, dangerouslyDisableSandbox } = (input ?? {}) as {
    command?: unknown
    dangerouslyDisableSandbox?: unknown
  }
  if (typeof command !== 'string') return undefined
  const route = sandboxRoute(command, settings, dangerouslyDisableSandbox === true)
  return route.kind === 'off' ? undefined : route.kind
}
