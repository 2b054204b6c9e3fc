import type { LoadedSettings } from '../permissions'
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from '../teammates'

/**
 * A boolean switch from settings (`forkSubagents`, `coordinatorMode`: docs/ui.md#the-workspace-ui's fork and
 * coordinator switches): the highest source that sets it wins; undefined when none does.
 */
export function settingSwitch(settings: LoadedSettings, key: 'forkSubagents' | 'coordinatorMode'): boolean | undefined {
  let value: boolean | undefined
  for (const source of settings.sources) {
    const v = (source.data as Record<string, unknown>)[key]
    if (typeof v === 'boolean') value = v
  }
  return value
}

/**
 * Fork and coordinator switches from the flags (`--fork`, `--coordinator`) or, when a flag is
 * absent, from settings. Coordinator mode wins over forks (docs/agents.md#forks).
 */
export function modeSwitches(
  flags: { fork?: boolean; coordinator?: boolean },
  settings: LoadedSettings
): { forkEnabled: boolean; coordinator: boolean } {
  const coordinator = flags.coordinator === true || settingSwitch(settings, 'coordinatorMode') === true
  const fork = flags.fork === true || settingSwitch(settings, 'forkSubagents') === true
  return { forkEnabled: fork && !coordinator, coordinator }
}

/**
 * The teammate settings (docs/teams.md#spawning-a-teammate, docs/teams.md#teammate-life-cycle): backend when a spawn names none (`teammateBackend`,
 * `auto` = `worker`) and the shutdown timeout (`teammateShutdownTimeoutSeconds`, default 20 s);
 * the highest source that sets each wins. Values are validated when the settings load.
 */
export function teammateSettings(settings: LoadedSettings): {
  defaultBackend: 'worker' | 'process'
  shutdownTimeoutMs: number
} {
  let backend: unknown
  let timeout: unknown
  for (const source of settings.sources) {
    const data = source.data as Record<string, unknown>
    if (data.teammateBackend !== undefined) backend = data.teammateBackend
    if (data.teammateShutdownTimeoutSeconds !== undefined) timeout = data.teammateShutdownTimeoutSeconds
  }
  return {
    defaultBackend: backend === 'process' ? 'process' : 'worker',
    shutdownTimeoutMs: typeof timeout === 'number' ? timeout * 1000 : DEFAULT_SHUTDOWN_TIMEOUT_MS
  }
}
