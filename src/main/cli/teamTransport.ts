import { DataDirectoryError, ensureWritableDataDirectory, swarmdeskHome } from '../runtime/storage'
import {
  openTeamStore,
  TeamStoreUnavailableError,
  TeamTransportError,
  transportFromEnv,
  TRANSPORT_ENV,
  type TeamStorePort,
  type TeamTransport
} from '../runtime/teamStore'
import { UsageError } from './io'

/** The `--team-transport URL` flag, for `parseCommandArgs` specs. */
export const TEAM_TRANSPORT_FLAG = { 'team-transport': { type: 'string' } } as const

/**
 * The team transport of a command (docs/nats.md#configuration): `--team-transport`, else
 * `SWARMDESK_TEAM_TRANSPORT`, else the files. Credentials: in the URL (`nats://user:pass@…`,
 * `nats://token@…`), else `SWARMDESK_NATS_TOKEN`, `SWARMDESK_NATS_USER` + `SWARMDESK_NATS_PASSWORD`
 * or `SWARMDESK_NATS_CREDS`.
 * @throws UsageError (exit 2) naming what is wrong with the transport.
 */
export function commandTransport(command: string, flag: string | undefined, env = process.env): TeamTransport {
  try {
    if (flag === undefined) return transportFromEnv(env)
    return transportFromEnv({ ...env, [TRANSPORT_ENV.transport]: flag || 'files' })
  } catch (error) {
    if (error instanceof TeamTransportError) throw new UsageError(`swarmdesk ${command}: ${error.message}`)
    throw error
  }
}

/**
 * Opens the store of `transport` for one command and closes it after `fn`.
 * An unusable server is exit 1 with its reason on stderr (the message never holds credentials).
 */
export async function withCommandStore(
  command: string,
  transport: TeamTransport,
  fn: (store: TeamStorePort) => Promise<number>
): Promise<number> {
  let store: TeamStorePort
  try {
    store = await openTeamStore(swarmdeskHome(), transport)
  } catch (error) {
    if (error instanceof TeamStoreUnavailableError) {
      process.stderr.write(`swarmdesk ${command}: ${error.message}\n`)
      return 1
    }
    throw error
  }
  try {
    return await fn(store)
  } finally {
    await store.close()
  }
}

/**
 * The data directory (`swarmdeskHome()`), checked writable before a command writes a team's files
 * there (a message, a task), so an unwritable one is said as `run` says it — the folder, the reason
 * and what to do — with exit code 2, rather than as an internal error with a stack.
 * @throws UsageError `swarmdesk <command>: Cannot write Swarmdesk's data directory …`.
 */
export function writableHome(command: string): string {
  const home = swarmdeskHome()
  try {
    ensureWritableDataDirectory(home)
  } catch (error) {
    if (error instanceof DataDirectoryError) throw new UsageError(`swarmdesk ${command}: ${error.message}`)
    throw error
  }
  return home
}
