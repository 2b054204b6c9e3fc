import { hostname } from 'node:os'
import { TeamConfigSchema, type TeamConfig } from '../../../../shared/teams'
import { assertName } from '../../mailbox'
import { newTeamConfig, safeName, TeamActiveError, TeamExistsError, TeamNotFoundError, type NewTeam } from '../../teams'
import type { LeaderLeasePort, LivenessPort, TeamConfigPort, TeamStorePort } from '../port'
import { followNatsConnection } from '../connectionState'
import { describeTransport, type TeamTransport } from '../transport'
import { isWrongRevision, MAIL_STREAM, openNats, type NatsHandles, type NatsOpenOptions } from './connection'
import { watchNatsConfig } from './configWatch'
import { ensureEventsStream, natsEvents } from './events'
import { natsLeaderLease } from './leader'
import { natsMailbox } from './mailbox'
import { withRetries } from './retry'
import { natsTasks } from './tasks'

/**
 * Opens the team store on NATS JetStream (docs/nats.md): nothing of a team is written to the data
 * directory. @throws TeamStoreUnavailableError when the server cannot be used.
 */
export async function createNatsTeamStore(
  transport: Extract<TeamTransport, { kind: 'nats' }>,
  opts: NatsOpenOptions = {}
): Promise<TeamStorePort> {
  const h = withRetries(await openNats(transport, opts))
  await ensureEventsStream(h, opts.replicas).catch(async (error: unknown) => {
    await h.nc.close()
    throw error
  })
  const leader = natsLeaderLease(h)
  const events = natsEvents(h)
  let closed = false
  return {
    transport: 'nats',
    describe: describeTransport(transport),
    mailbox: natsMailbox(h),
    tasks: natsTasks(h),
    config: natsConfig(h, leader),
    liveness: natsLiveness(h),
    events,
    leader,
    connection: followNatsConnection(h.nc),
    async close() {
      if (closed) return
      closed = true
      // a teammate's last events are on the server before it goes (docs/nats.md#a-teammates-events)
      await events.settled(2_000)
      await h.nc.drain().catch(() => h.nc.close())
    }
  }
}

/**
 * Team configs in `swarmdesk-teams`, key `{team}.config`; every change a compare-and-set on the
 * revision read; a watch is an ordered consumer of the key (nats/configWatch.ts).
 */
function natsConfig(h: NatsHandles, leader: LeaderLeasePort): TeamConfigPort {
  const key = (team: string): string => `${safeName(team)}.config`
  const get = async (team: string): Promise<{ config: TeamConfig; revision: number }> => {
    const e = await h.teams.get(key(team))
    if (!e || e.operation !== 'PUT') throw new TeamNotFoundError(team)
    return { config: TeamConfigSchema.parse(e.json()), revision: e.revision }
  }
  const create = async (input: NewTeam): Promise<TeamConfig> => {
    const name = safeName(input.name)
    const config: TeamConfig = TeamConfigSchema.parse(newTeamConfig(name, input))
    try {
      await h.teams.create(key(name), JSON.stringify(config))
    } catch (error) {
      if (isWrongRevision(error) || /exists/i.test((error as Error).message)) throw new TeamExistsError(name)
      throw error
    }
    return config
  }
  return {
    create,
    // the new team's leader lease is written with it (docs/nats.md#the-leader-lease); a taken name is refused
    async createAsLeader(input, sessionId) {
      const config = await create(input)
      await leader.claim(config.name, sessionId)
      return { config }
    },
    where: (team) => `key ${key(team)} of the JetStream bucket swarmdesk-teams`,
    read: async (team) => (await get(team)).config,
    async update(team, change) {
      for (;;) {
        const { config, revision } = await get(team)
        const next = TeamConfigSchema.parse(change(config))
        try {
          await h.teams.update(key(team), JSON.stringify(next), revision)
          return next
        } catch (error) {
          if (!isWrongRevision(error)) throw error
        }
      }
    },
    watch: (team, listener) => watchNatsConfig(h, team, listener),
    async delete(team) {
      const name = safeName(team)
      const { config, revision } = await get(name)
      const active = config.members.filter((m) => m.isActive && m.agentId !== config.leadAgentId).map((m) => m.name)
      if (active.length > 0) throw new TeamActiveError(config.name, active)
      await h.teams.delete(key(name), { previousSeq: revision })
      await h.teams.purge(`${name}.leader`)
      const purgeAll = async (kv: NatsHandles['tasks'], filter: string): Promise<void> => {
        const keys: string[] = []
        for await (const k of await kv.keys(filter)) keys.push(k)
        for (const k of keys) await kv.purge(k)
      }
      await purgeAll(h.tasks, `${name}.>`)
      await purgeAll(h.reads, `${name}.>`)
      await h.jsm.streams.purge(MAIL_STREAM, { filter: `swarmdesk.mail.${name}.*` })
    }
  }
}

/** How often a teammate beats, ms: a third of the bucket's TTL, so two lost beats in a row are survived. */
function beatEvery(ttlMs: number): number {
  return Math.max(200, Math.floor(ttlMs / 3))
}

/**
 * Heartbeats in `swarmdesk-live`, key `{team}.{agent}`, in a bucket whose TTL removes a key its
 * teammate stopped beating (nats-server 2.9 has no per-message TTL). The server removes expired
 * messages within about a second of their age passing the TTL, so `alive` drops a vanished
 * teammate within TTL + 1 s (docs/nats.md#liveness).
 */
function natsLiveness(h: NatsHandles): LivenessPort {
  const key = (team: string, agent: string): string => `${safeName(team)}.${assertName('agent', agent)}`
  return {
    boundMs: h.livenessTtlMs + 1_000,
    beatEveryMs: beatEvery(h.livenessTtlMs),
    async beat(team, agent) {
      await h.live.put(key(team, agent), JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() }))
    },
    // The members' keys are read one by one, not listed: a key listing is a consumer that counts
    // the keys when it starts, and beats rewriting them while it runs made it wait out a 30 s
    // heartbeat (seen as a reap that took 30 s).
    async alive(team) {
      const entry = await h.teams.get(`${safeName(team)}.config`)
      if (!entry || entry.operation !== 'PUT') return new Set<string>()
      const names = TeamConfigSchema.parse(entry.json()).members.map((m) => m.name)
      const beats = await Promise.all(names.map(async (name) => [name, await h.live.get(key(team, name))] as const))
      return new Set(beats.filter(([, beat]) => beat?.operation === 'PUT').map(([name]) => name))
    },
    async forget(team, agent) {
      await h.live.purge(key(team, agent))
    }
  }
}
