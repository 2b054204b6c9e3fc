import type { Task } from '../../../shared/tasks'
import { createFileTeamStore } from './files'
import type { NatsOpenOptions } from './nats/shared'
import type { TeamStorePort } from './port'
import type { TeamTransport } from './transport'

/**
 * Opens the team store of `transport`: the data directory's files under `home`, or NATS JetStream.
 * @throws TeamStoreUnavailableError when a NATS server is unreachable or has JetStream off.
 */
export async function openTeamStore(
  home: string,
  transport: TeamTransport,
  opts: NatsOpenOptions = {}
): Promise<TeamStorePort> {
  return transport.kind === 'files' ? createFileTeamStore(home) : createNatsTeamStore(transport, opts)
}

/**
 * Opens the team store on a NATS server (see `nats/store.ts`): the NATS client is loaded here, on
 * the first store opened on a server, not with the runtime (a worker teammate of a team on the
 * files never loads it: docs/teams.md#worker-teammate-start-up).
 * @throws TeamStoreUnavailableError when the server is unreachable or has JetStream off.
 */
export async function createNatsTeamStore(
  transport: Extract<TeamTransport, { kind: 'nats' }>,
  opts: NatsOpenOptions = {}
): Promise<TeamStorePort> {
  const nats = await import('./nats/store')
  return nats.createNatsTeamStore(transport, opts)
}

/** A teammate found gone by {@link reapVanished}, and the tasks it held that went back to the list. */
export interface VanishedTeammate {
  name: string
  released: Task[]
}

/**
 * Marks every active teammate that no longer beats as inactive and returns its unfinished tasks to
 * pending (docs/nats.md#liveness): what the supervisor does for a crash it saw, done for one it could
 * not see (a teammate on another host, a `kill -9`). A member that joined less than `boundMs` ago is
 * given time for its first beat. The leader (`backendType: "main"`) is never reaped here, nor the
 * members named in `spare` (those the caller sees running itself).
 */
export async function reapVanished(
  store: TeamStorePort,
  team: string,
  now = Date.now(),
  spare: ReadonlySet<string> = new Set()
): Promise<VanishedTeammate[]> {
  const [config, alive] = await Promise.all([store.config.read(team), store.liveness.alive(team)])
  const gone = config.members.filter(
    (m) =>
      m.isActive &&
      m.backendType !== 'main' &&
      !alive.has(m.name) &&
      !spare.has(m.name) &&
      now - Date.parse(m.joinedAt) > store.liveness.boundMs
  )
  const out: VanishedTeammate[] = []
  for (const m of gone) {
    await store.config.update(team, (c) => ({
      ...c,
      members: c.members.map((x) => (x.name === m.name ? { ...x, isActive: false } : x))
    }))
    out.push({ name: m.name, released: await store.tasks.releaseOwnedBy(team, m.name) })
  }
  return out
}
