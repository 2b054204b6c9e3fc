import type { SandboxStatus, SettingsPatch, SettingsValues } from '../../shared/settings'
import type { LoadedSettings } from '../runtime/permissions'
import { forwarderAvailable, sandboxAvailability } from '../runtime/sandbox'

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
 * the merged settings, whether bubblewrap starts here (probed once per process) and whether
 * socat is there to carry the network.
 */
export function sandboxStatusOf(settings: Pick<LoadedSettings, 'sandbox'>): SandboxStatus {
  const sandbox = settings.sandbox
  const available = sandboxAvailability()
  return {
    enabled: sandbox.enabled,
    active: sandbox.enabled && available.ok,
    ...(available.ok ? {} : { problem: available.problem ?? 'bubblewrap cannot start' }),
    network: forwarderAvailable() ? 'proxy' : 'none',
    autoAllowBashIfSandboxed: sandbox.autoAllowBashIfSandboxed,
    allowedDomains: [...new Set(sandbox.network.allowedDomains)]
  }
}
