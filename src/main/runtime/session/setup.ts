import { RunUsageError } from '../base'
import type { LoadedSettings } from '../permissions'
import {
  openTeamStore,
  TeamTransportError,
  TeamTransportSettingSchema,
  transportFromEnv,
  TRANSPORT_ENV,
  parseTeamTransport,
  type TeamStorePort,
  type TeamTransport
} from '../teamStore'
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, teammateHostsSetting } from '../teammates'
import type { TeammateHost } from '../../../shared/teammateHosts'

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
 * `auto` = `worker`), the shutdown timeout (`teammateShutdownTimeoutSeconds`, default 20 s) and the
 * hosts teammates may run on (`teammateHosts`, docs/hosts.md);
 * the highest source that sets each wins. Values are validated when the settings load.
 */
export function teammateSettings(settings: LoadedSettings): {
  defaultBackend: 'worker' | 'process'
  shutdownTimeoutMs: number
  hosts: TeammateHost[]
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
    shutdownTimeoutMs: typeof timeout === 'number' ? timeout * 1000 : DEFAULT_SHUTDOWN_TIMEOUT_MS,
    hosts: teammateHostsSetting(settings)
  }
}

/**
 * The team transport of a run or a served workspace (docs/nats.md#configuration): `flag`
 * (`--team-transport`), else `SWARMDESK_TEAM_TRANSPORT`, else the `teamTransport` setting (highest
 * source that sets it), else the files. Credentials not in the URL or the setting come from the
 * `SWARMDESK_NATS_*` variables.
 * @throws TeamTransportError naming what is wrong (the flag, the variable or the setting).
 */
export function chooseTeamTransport(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  settings: Pick<LoadedSettings, 'sources'>
): TeamTransport {
  if (flag !== undefined) return transportFromEnv({ ...env, [TRANSPORT_ENV.transport]: flag || 'files' })
  if (env[TRANSPORT_ENV.transport]) return transportFromEnv(env)
  let value: unknown
  for (const source of settings.sources) {
    const data = source.data as Record<string, unknown>
    if (data.teamTransport !== undefined) value = data.teamTransport
  }
  if (value === undefined) return { kind: 'files' }
  const parsed = TeamTransportSettingSchema.safeParse(value)
  if (!parsed.success)
    throw new TeamTransportError(
      'the teamTransport setting must be "files", a nats:// URL, or {servers, token?, user?, password?, credsFile?}'
    )
  return parseTeamTransport(parsed.data, {
    token: env[TRANSPORT_ENV.token],
    user: env[TRANSPORT_ENV.user],
    password: env[TRANSPORT_ENV.password],
    credsFile: env[TRANSPORT_ENV.credsFile]
  })
}

/**
 * Opens the team store a run or a served workspace chooses ({@link chooseTeamTransport}) for its
 * sessions (`SessionOptions.teamStore`); undefined for the files (each session makes its own). The
 * caller closes it.
 * @throws RunUsageError for a bad transport; TeamStoreUnavailableError when the server is
 *   unreachable, refuses the credentials or has JetStream off.
 */
export async function openSessionTeamStore(
  home: string,
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  settings: Pick<LoadedSettings, 'sources'>
): Promise<{ store: TeamStorePort; transport: TeamTransport } | undefined> {
  let transport: TeamTransport
  try {
    transport = chooseTeamTransport(flag, env, settings)
  } catch (error) {
    throw error instanceof TeamTransportError ? new RunUsageError(error.message) : error
  }
  if (transport.kind === 'files') return undefined
  return { store: await openTeamStore(home, transport), transport }
}
