import { LEAD_NAME } from '../teams'
import { type TeamContext } from '../teamStore'
import type { TrackedTeammate } from './tracked'

/** Milliseconds the team must stay quiet before a headless run counts it as settled (see {@link TeamSettling.settled}). */
const SETTLE_QUIET_MS = 250

/** How soon a headless run looks again at a busy team (ms): unread counts change without an event. */
const BUSY_POLL_MS = 20

/** A teammate waiting for an answer no one in a headless run can give (see {@link TeamSettling.blockedWaits}). */
export interface TeamWait {
  agentId: string
  agentName: string
  state: TrackedTeammate['state']
  /** Who alone could answer: the leader. */
  waitsFor: string
  /** What it waits for, in words. */
  what: string
  requestId?: string
}

/** What {@link TeamSettling} looks at: the leader's side of the team, read at each call. */
export interface TeamSettlingSource {
  team: TeamContext
  /** The teammates this session started. */
  members: () => Iterable<TrackedTeammate>
  /** The team whose leader inbox is being read, if any. */
  inboxTeam: () => string | undefined
  /** Resolves once the leader's inbox pass under way (if any) is done. */
  drained: () => Promise<void>
  /** Asks each live teammate's backend for what it has not told yet (TeammateExecutor.sync). */
  sync: () => void
  /** When anything last happened in the team (ms since the epoch). */
  lastActivity: () => number
  /** Plan approvals are also put to a person: then no plan wait is a dead end. */
  askPersonForPlans: boolean
}

/**
 * When a headless run may end its team (docs/scenarios.md#scripted-model-scenarios: a headless
 * run ends when the leader is idle, no agent is running and nothing waits to be delivered), and
 * when it is stuck (docs/events.md#event-stream-and-command-line).
 */
export class TeamSettling {
  /** When {@link settled} first found the team quiet in the current quiet spell; undefined after it saw the team busy. */
  private quietSince: number | undefined
  /** The same for {@link blockedWaits}. */
  private blockedSince: number | undefined

  constructor(private readonly source: TeamSettlingSource) {}

  /**
   * True when the team is quiet: every live teammate idle, no unread message in the leader's or a
   * live teammate's inbox, no task a live teammate could still claim or finish, and nothing has
   * happened for {@link SETTLE_QUIET_MS} (a teammate that just went idle may be about to pick up
   * the next message).
   */
  async settled(): Promise<boolean> {
    await this.source.drained()
    this.source.sync()
    const quiet = await this.quiet()
    const now = Date.now()
    if (!quiet) this.quietSince = undefined
    else this.quietSince ??= now
    return quiet && now - Math.max(this.source.lastActivity(), this.quietSince!) >= SETTLE_QUIET_MS
  }

  /**
   * Milliseconds to wait before {@link settled} may turn true without any other change: the rest of
   * the quiet period (which starts again whenever the team was seen busy: a teammate's news of a
   * turn it started may be on its way, a worker's over its thread, a process's in its transcript).
   */
  get settleDelayMs(): number {
    const spell = Math.min(this.quietSince ?? Infinity, this.blockedSince ?? Infinity)
    // busy: what ends it (a teammate reading its inbox) raises no event, so look again soon
    if (spell === Infinity) return BUSY_POLL_MS
    return Math.max(0, SETTLE_QUIET_MS - (Date.now() - Math.max(this.source.lastActivity(), spell)))
  }

  /**
   * The waits that alone keep the team from being quiet, when no one in the run can answer them
   * (a headless run's dead end): each live teammate is either quiet as {@link settled} counts it,
   * or waits for its plan's approval while no person is asked (`askPersonForPlans` off, so only
   * the leader's SendMessage could answer), at least one waits, and that has held for the whole
   * quiet period. Undefined otherwise. Unread messages of a waiting teammate do not count: it
   * cannot read them before it has its answer. The caller checks the leader is idle with nothing
   * queued, and no subagent runs. (A permission question does not count: headless, it is answered
   * at once by `--approve`, or put to the person at the terminal.)
   */
  async blockedWaits(): Promise<TeamWait[] | undefined> {
    await this.source.drained()
    this.source.sync()
    const members = [...this.source.members()]
    const waiting = this.source.askPersonForPlans
      ? []
      : members.filter((m) => m.alive && m.state === 'awaiting_plan_approval' && m.planRequestId !== undefined)
    const now = Date.now()
    if (waiting.length === 0 || !(await this.quiet(new Set(waiting.map((m) => m.name))))) {
      this.blockedSince = undefined
      return undefined
    }
    this.blockedSince ??= now
    if (now - Math.max(this.source.lastActivity(), this.blockedSince) < SETTLE_QUIET_MS) return undefined
    return waiting.map((m) => ({
      agentId: m.agentId,
      agentName: m.name,
      state: m.state,
      waitsFor: LEAD_NAME,
      what: 'approval of its plan',
      requestId: m.planRequestId!
    }))
  }

  /** True while no live teammate (but those `parked`, left out) is working or has work waiting. */
  private async quiet(parked: ReadonlySet<string> = new Set()): Promise<boolean> {
    const { team: context } = this.source
    const team = context.team()
    const alive = [...this.source.members()].filter((m) => m.alive && !parked.has(m.name))
    if (!team) return true
    const { mailbox, tasks: taskList } = context.store
    // a teammate's last words (a shutdown approval) may still be on their way to the leader
    if (this.source.inboxTeam() === team && (await mailbox.unreadCount(team, LEAD_NAME)) > 0) return false
    if (alive.length === 0) return true
    // a teammate in `error` waits for a message as an idle one does: nothing of it is in flight
    if (alive.some((m) => m.state !== 'idle' && m.state !== 'error')) return false
    for (const name of alive.map((m) => m.name)) {
      if ((await mailbox.unreadCount(team, name)) > 0) return false
    }
    // a task a live teammate will still pick up by itself (docs/teams.md#teammate-life-cycle); one
    // left in progress by an idle teammate is not waited for: nobody is working on it
    const tasks = await taskList.list(context.taskListName())
    const byId = new Map(tasks.map((t) => [t.id, t]))
    const busy = new Set(tasks.filter((t) => t.status === 'in_progress' && t.owner).map((t) => t.owner!))
    const free = alive.map((m) => m.name).filter((n) => !busy.has(n))
    return !tasks.some(
      (t) =>
        t.status === 'pending' &&
        t.blockedBy.every((b) => byId.get(b)?.status === 'completed' || !byId.has(b)) &&
        (t.owner === undefined ? free.length > 0 : free.includes(t.owner))
    )
  }
}
