import type { SandboxSettings } from '../permissions'
import { isExcludedCommand, sandboxAvailability } from './bwrap'

/**
 * How one Bash command runs with respect to the sandbox (docs/permissions.md#the-bash-sandbox),
 * the one answer the permission gate and the Bash tool share:
 * - `off`: the sandbox is not enabled;
 * - `sandboxed`: under bwrap;
 * - `unsandboxed`: outside, because the call asked (`dangerouslyDisableSandbox`) and
 *   `allowUnsandboxedCommands` lets it; the gate asks a person first;
 * - `excluded`: outside, because `excludedCommands` names it; the normal permission flow decides;
 * - `unavailable`: bwrap cannot start here (`problem` says why); outside with a warning, or
 *   refused when `failIfUnavailable`.
 * `ignoredDisable` is set when the call asked to run outside and `allowUnsandboxedCommands` is off.
 */
export type SandboxRoute =
  | { kind: 'off' }
  | { kind: 'sandboxed'; ignoredDisable?: boolean }
  | { kind: 'unsandboxed' }
  | { kind: 'excluded' }
  | { kind: 'unavailable'; problem: string }

/**
 * The route of `command` under `settings` (undefined = no sandbox); `disable` is the call's
 * `dangerouslyDisableSandbox`; `searchPath` where bwrap is looked for (default `PATH`).
 */
export function sandboxRoute(
  command: string,
  settings: SandboxSettings | undefined,
  disable?: boolean,
  searchPath?: string
): SandboxRoute {
  if (!settings?.enabled) return { kind: 'off' }
  if (disable === true && settings.allowUnsandboxedCommands) return { kind: 'unsandboxed' }
  if (isExcludedCommand(command, settings.excludedCommands)) return { kind: 'excluded' }
  const available = sandboxAvailability(searchPath)
  if (!available.ok) return { kind: 'unavailable', problem: available.problem ?? 'bubblewrap cannot start' }
  return disable === true ? { kind: 'sandboxed', ignoredDisable: true } : { kind: 'sandboxed' }
}
