import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { currentOwner, ownerGone, writeFileAtomicSync } from '../locks'

/**
 * Who leads a team now: `<home>/teams/{team}/leader.json`, written by the leader session when it
 * creates the team or resumes leading it, removed when that session ends. It records the session
 * and its process as every lock does (pid + start time, locks/owner.ts), so any process can tell a
 * live leader from one that crashed, and the process itself can tell its live sessions from ended
 * ones (after *New session* the process lives on, the old session does not).
 */
const LeaderLeaseSchema = z.object({
  schemaVersion: z.literal(1),
  sessionId: z.string(),
  pid: z.number().int(),
  startTime: z.string().nullable(),
  claimedAt: z.string()
})

/** The contents of `leader.json`. */
export type LeaderLease = z.infer<typeof LeaderLeaseSchema>

/**
 * Whether a team's leader session is alive. `alive`: its process runs (same pid and start time) and,
 * when that process is this one, the session still holds the lease here. `stale`: the leader
 * session is gone; `reason` says how it was judged, for people to read.
 */
export type LeaderStatus =
  { state: 'alive'; lease: LeaderLease } | { state: 'stale'; reason: string; lease?: LeaderLease }

/** The leases this process's live sessions hold, as `home\0team\0sessionId`. */
const heldHere = new Set<string>()
const key = (home: string, team: string, sessionId: string) => `${home}\0${team}\0${sessionId}`

/** `<home>/teams/{team}/leader.json` (`team` already a safe name). */
export function leaderLeasePath(home: string, team: string): string {
  return join(home, 'teams', team, 'leader.json')
}

/** The team's lease, `undefined` when there is none, `null` when the file is not a lease (hand-edited). */
export function readLeaderLease(home: string, team: string): LeaderLease | undefined | null {
  let text: string
  try {
    text = readFileSync(leaderLeasePath(home, team), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    return LeaderLeaseSchema.parse(JSON.parse(text))
  } catch {
    return null
  }
}

/**
 * Records session `sessionId` of this process as the team's leader (temp + rename: never torn).
 * The team's folder must exist. Callers that may race a cleanup hold the team's lock.
 */
export function claimLeadership(home: string, team: string, sessionId: string): LeaderLease {
  const owner = currentOwner()
  const lease: LeaderLease = {
    schemaVersion: 1,
    sessionId,
    pid: owner.pid,
    startTime: owner.startTime,
    claimedAt: new Date().toISOString()
  }
  writeFileAtomicSync(leaderLeasePath(home, team), JSON.stringify(lease) + '\n')
  heldHere.add(key(home, team, sessionId))
  return lease
}

/**
 * Session `sessionId` of this process no longer leads the team (it ended, or deleted the team): its
 * lease is removed. A lease another session or process holds is left alone. Never throws.
 */
export function releaseLeadership(home: string, team: string, sessionId: string): void {
  heldHere.delete(key(home, team, sessionId))
  try {
    const lease = readLeaderLease(home, team)
    const self = currentOwner()
    if (lease && lease.sessionId === sessionId && lease.pid === self.pid && lease.startTime === self.startTime)
      rmSync(leaderLeasePath(home, team), { force: true })
  } catch {
    // the team folder is gone or unreadable: there is nothing left to release
  }
}

/**
 * Whether `team`'s leader session is alive (see {@link LeaderStatus}). A team without a lease has no
 * leader session (it ended, or the team was made before leases were recorded); a lease that is not
 * valid JSON is taken for stale too, since only a person editing the file makes one. A process
 * that runs as the one recorded is alive whatever it does: no team led from another live process
 * is ever judged stale.
 */
export function leaderStatus(home: string, team: string): LeaderStatus {
  const lease = readLeaderLease(home, team)
  if (lease === undefined)
    return { state: 'stale', reason: 'no leader session holds it (the session that led it ended)' }
  if (lease === null) return { state: 'stale', reason: `${leaderLeasePath(home, team)} is not a leader record` }
  const self = currentOwner()
  if (lease.pid === self.pid && lease.startTime === self.startTime) {
    if (heldHere.has(key(home, team, lease.sessionId))) return { state: 'alive', lease }
    return { state: 'stale', reason: `its leader session ${lease.sessionId} ended in this process`, lease }
  }
  const gone = ownerGone({ pid: lease.pid, startTime: lease.startTime })
  if (gone === 'owner_dead')
    return { state: 'stale', reason: `its leader process ${lease.pid} is gone (session ${lease.sessionId})`, lease }
  if (gone === 'pid_reused')
    return {
      state: 'stale',
      reason: `its leader process ${lease.pid} is gone (the pid now belongs to another process; session ${lease.sessionId})`,
      lease
    }
  return { state: 'alive', lease }
}
