import { hostname } from 'node:os'
import { z } from 'zod'
import { isProcessAlive } from '../../processes'
import { LEAD_NAME, safeName } from '../../teams'
import type { LeaderLeasePort, ServerLeaderLease, ServerLeaderStatus } from '../port'
import { isWrongRevision, type NatsHandles } from './connection'

const LeaseSchema = z.object({
  schemaVersion: z.literal(1),
  sessionId: z.string(),
  pid: z.number().int(),
  host: z.string(),
  claimedAt: z.string()
})

/** A leader's heartbeat in `swarmdesk-live`: the lease it beats for. */
const BeatSchema = z.object({ sessionId: z.string(), pid: z.number().int(), host: z.string(), at: z.number() })

/**
 * The leader lease of a team on JetStream (docs/nats.md#the-leader-lease): the record
 * `{team}.leader` in `swarmdesk-teams` (`{schemaVersion, sessionId, pid, host, claimedAt}`), written
 * by a KV create or a compare-and-set on the revision read, and the leader's heartbeat
 * `{team}.team-lead` in the TTL bucket `swarmdesk-live` (`team-lead` is never a teammate's name).
 * The lease is alive while its holder beats; a lease whose holder stopped beating (its process
 * ended or vanished), or whose process on this machine has ended, is stale and may be taken over — by the same session resumed, or by a new
 * team of that name.
 */
export function natsLeaderLease(h: NatsHandles): LeaderLeasePort {
  const leaseKey = (team: string): string => `${safeName(team)}.leader`
  const beatKey = (team: string): string => `${safeName(team)}.${LEAD_NAME}`
  const self = (sessionId: string): ServerLeaderLease => ({
    schemaVersion: 1,
    sessionId,
    pid: process.pid,
    host: hostname(),
    claimedAt: new Date().toISOString()
  })
  const mine = (lease: ServerLeaderLease, sessionId: string): boolean =>
    lease.sessionId === sessionId && lease.pid === process.pid && lease.host === hostname()
  const read = async (team: string): Promise<{ lease: ServerLeaderLease | null; revision: number } | undefined> => {
    const e = await h.teams.get(leaseKey(team))
    if (!e || e.operation !== 'PUT') return undefined
    const parsed = LeaseSchema.safeParse(e.json())
    return { lease: parsed.success ? parsed.data : null, revision: e.revision }
  }
  const beat = async (team: string, sessionId: string): Promise<void> => {
    const record = { sessionId, pid: process.pid, host: hostname(), at: Date.now() }
    await h.live.put(beatKey(team), JSON.stringify(record))
  }
  const status = async (team: string): Promise<ServerLeaderStatus> => {
    const got = await read(team)
    if (!got) return { state: 'stale', reason: 'no leader session holds it (the session that led it ended)' }
    const { lease } = got
    if (!lease) return { state: 'stale', reason: `key ${leaseKey(team)} is not a leader record` }
    // a holder on this machine whose process has ended is stale at once, not a liveness bound later
    // (a leader killed with -9, resumed straight away)
    if (lease.host === hostname() && lease.pid !== process.pid && !isProcessAlive(lease.pid))
      return { state: 'stale', reason: `its leader process ${lease.pid} is gone (session ${lease.sessionId})`, lease }
    const e = await h.live.get(beatKey(team))
    const parsed = e && e.operation === 'PUT' ? BeatSchema.safeParse(e.json()) : undefined
    const b = parsed?.success ? parsed.data : undefined
    if (b && b.sessionId === lease.sessionId && b.pid === lease.pid && b.host === lease.host)
      return { state: 'alive', lease }
    return {
      state: 'stale',
      reason: `its leader session ${lease.sessionId} (process ${lease.pid} on ${lease.host}) stopped beating`,
      lease
    }
  }
  return {
    // a listing of the config keys: a consumer that counts them as it starts (see tasks.ts `all`),
    // fine here since a config key is rewritten only when a team's members change
    async teams() {
      const names: string[] = []
      for await (const k of await h.teams.keys('*.config')) names.push(k.slice(0, -'.config'.length))
      return names.sort()
    },
    beatEveryMs: Math.max(200, Math.floor(h.livenessTtlMs / 3)),
    status,
    beat,
    async claim(team, sessionId) {
      for (;;) {
        const got = await read(team)
        const next = JSON.stringify(self(sessionId))
        try {
          if (!got) await h.teams.create(leaseKey(team), next)
          else if (got.lease && mine(got.lease, sessionId)) return { ok: true }
          else {
            const now = await status(team)
            if (now.state === 'alive') return { ok: false, lease: now.lease }
            await h.teams.update(leaseKey(team), next, got.revision)
          }
          await beat(team, sessionId)
          return { ok: true }
        } catch (error) {
          // another claimant wrote first: look again at what it wrote
          if (!isWrongRevision(error) && !/exists/i.test((error as Error).message)) throw error
        }
      }
    },
    async release(team, sessionId) {
      const got = await read(team)
      if (got?.lease && !mine(got.lease, sessionId)) return
      if (got) await h.teams.delete(leaseKey(team), { previousSeq: got.revision }).catch(() => undefined)
      await h.live.purge(beatKey(team))
    }
  }
}
