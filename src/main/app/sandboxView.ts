import type { SandboxRequirement, SandboxStatus, SettingsPatch, SettingsValues } from '../../shared/settings'
import { effectiveSandbox, type LoadedSettings } from '../runtime/permissions'
import { forwarderAvailable, sandboxAvailability, type SandboxAvailability } from '../runtime/sandbox'

type Raw = Record<string, unknown>
const objectAt = (raw: Raw, key: string): Raw =>
  typeof raw[key] === 'object' && raw[key] !== null && !Array.isArray(raw[key]) ? (raw[key] as Raw) : {}

/**
 * The Settings view's sandbox values (docs/sandbox.md#settings) from the raw user file: `enabled`,
 * `autoAllowBashIfSandboxed` and `network.allowedDomains` of its `sandbox` block, as they stand.
 */
export function sandboxValuesOf(raw: Raw): Record<string, unknown> {
  const block = objectAt(raw, 'sandbox')
  const network = objectAt(block, 'network')
  const values: Record<string, unknown> = {}
  if (block.enabled !== undefined) values.enabled = block.enabled
  if (block.autoAllowBashIfSandboxed !== undefined) values.autoAllowBashIfSandboxed = block.autoAllowBashIfSandboxed
  if (network.allowedDomains !== undefined) values.allowedDomains = network.allowedDomains
  return values
}

/**
 * Writes the view's sandbox change into the raw user file `data` in Claude Code's shape: each key
 * given is set, the block's other keys stay; `null` removes the three keys the view edits.
 */
export function applySandboxPatch(data: Raw, patch: SettingsPatch['sandbox']): void {
  if (patch === undefined) return
  const block = objectAt(data, 'sandbox')
  const network = objectAt(block, 'network')
  const values: SettingsValues['sandbox'] = patch ?? {}
  if (patch === null) {
    delete block.enabled
    delete block.autoAllowBashIfSandboxed
    delete network.allowedDomains
  }
  if (values.enabled !== undefined) block.enabled = values.enabled
  if (values.autoAllowBashIfSandboxed !== undefined) block.autoAllowBashIfSandboxed = values.autoAllowBashIfSandboxed
  if (values.allowedDomains !== undefined) network.allowedDomains = [...values.allowedDomains]
  if (Object.keys(network).length) block.network = network
  else delete block.network
  if (Object.keys(block).length) data.sandbox = block
  else delete data.sandbox
}

/**
 * The sandbox as it applies now (docs/sandbox.md), for the Settings view and the panes' mark:
 * the merged settings (filesystem lists with permission rules merged in, as they apply in the
 * workspace), whether bubblewrap starts here (probed once per process), whether socat is there to
 * carry the network, and what of these the machine lacks and how to get it. `searchPath` is where
 * bwrap and socat are looked for (default `PATH`).
 */
export function sandboxStatusOf(
  settings: Pick<LoadedSettings, 'sandbox' | 'rules' | 'sources' | 'additionalDirectories' | 'userHome' | 'workspace'>,
  searchPath?: string
): SandboxStatus {
  const sandbox = effectiveSandbox(settings, settings.workspace)
  const available = sandboxAvailability(searchPath)
  const socat = forwarderAvailable(searchPath)
  return {
    enabled: sandbox.enabled,
    active: sandbox.enabled && available.ok,
    ...(available.ok ? {} : { problem: available.problem ?? 'bubblewrap cannot start' }),
    network: socat ? 'proxy' : 'none',
    requirements: requirementsOf(available, socat),
    autoAllowBashIfSandboxed: sandbox.autoAllowBashIfSandboxed,
    allowedDomains: [...new Set(sandbox.network.allowedDomains)],
    excludedCommands: [...new Set(sandbox.excludedCommands)],
    allowUnsandboxedCommands: sandbox.allowUnsandboxedCommands,
    failIfUnavailable: sandbox.failIfUnavailable,
    filesystem: sandbox.filesystem,
    deniedDomains: [...new Set(sandbox.network.deniedDomains)],
    allowLocalBinding: sandbox.network.allowLocalBinding
  }
}

/** What the sandbox needs here, each found or not, with what to do (docs/sandbox.md#where-the-sandbox-cannot-start). */
function requirementsOf(available: SandboxAvailability, socat: boolean): SandboxRequirement[] {
  const missing = available.cause === 'missing'
  return [
    {
      name: 'bubblewrap',
      ok: !missing,
      detail: missing ? 'not installed: apt-get install bubblewrap (Debian, Ubuntu)' : 'installed (bwrap)'
    },
    {
      name: 'user namespaces',
      ok: missing ? null : available.ok,
      detail: missing
        ? 'not checked until bubblewrap is installed'
        : available.ok
          ? 'usable: bwrap starts'
          : `${available.problem ?? 'bwrap cannot start'}`
    },
    {
      name: 'socat',
      ok: socat,
      detail: socat
        ? 'installed: sandboxed commands reach allowed domains through the proxy'
        : 'not installed: sandboxed commands have no network; apt-get install socat'
    }
  ]
}
