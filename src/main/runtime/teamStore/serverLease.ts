import type { LeaderLeasePort, TeamStorePort } from './port'

/**
 * A leader session's hold on its team's lease on a server (docs/nats.md#the-leader-lease): claims it
 * for a resumed session, beats every `beatEveryMs` while the session leads the team, gives it up when
 * the session ends or leaves the team. Errors of a beat or a release are not the session's: a lease
 * not beaten goes stale by itself within the liveness bound.
 */
export class ServerLeadership {
  private timer: NodeJS.Timeout | undefined
  private held: string | undefined

  constructor(
    private readonly lease: LeaderLeasePort,
    private readonly sessionId: string
  ) {}

  /**
   * Leads `team` again after a resume: `undefined` when this session now holds its lease, else why
   * not, for people (the team is gone, or another live leader holds it).
   */
  async resume(store: TeamStorePort, team: string): Promise<string | undefined> {
    try {
      await store.config.read(team)
    } catch {
      return `The team '${team}' this session led is gone from ${store.describe}; the session goes on without a team.`
    }
    const claim = await this.lease.claim(team, this.sessionId)
    if (!claim.ok) {
      const l = claim.lease
      return `The team '${team}' is led by session ${l.sessionId}, alive in process ${l.pid} on ${l.host}: this session does not lead it again (end that session first). It goes on without a team.`
    }
    this.hold(team)
    return undefined
  }

  /** Beats for `team` from now on (its lease is this session's: TeamCreate or {@link resume} wrote it); `undefined` stops and gives the lease up. */
  hold(team: string | undefined): void {
    if (team === this.held) return
    this.drop()
    if (team === undefined) return
    this.held = team
    this.timer = setInterval(
      () => void this.lease.beat(team, this.sessionId).catch(() => undefined),
      this.lease.beatEveryMs
    )
    this.timer.unref()
  }

  /** Stops beating and gives up the lease held, if any (in the background). Idempotent. */
  drop(): void {
    clearInterval(this.timer)
    this.timer = undefined
    const team = this.held
    this.held = undefined
    if (team !== undefined) void this.lease.release(team, this.sessionId).catch(() => undefined)
  }
}
