import { type TeamContext, LEAD_NAME } from '../teams'
import { messageKind, parseMessageBody, type MailboxMessage } from '../../../shared/mailbox'
import type { AgentState, RuntimeEvent, RuntimeEventInput } from '../../../shared/events'
import { PermissionModeSchema, type PermissionMode, type PermissionPromptAnswer } from '../../../shared/permissions'
import { agentId as teamAgentId } from '../../../shared/teams'
import type { EventBus } from '../events'
import { Emitter, type Disposable } from '../base'
import { renderForModel, type InboxEntry } from '../mailbox'
import type { PermissionPrompter } from '../permissions'

import { echoTaskChanges } from './taskEcho'
import { CONTINUE_TRANSCRIPT_VARIABLE } from './agent'
import type { TeammateBackend, TeammateExecutorRegistry, TeammateExitInfo, TeammateHandle } from './executor'

/** Milliseconds a teammate has to answer a shutdown request before it is killed (docs/teams.md#teammate-life-cycle). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000

/** Milliseconds the team must stay quiet before a headless run counts it as settled (see {@link TeammateSupervisor.whenSettled}). */
const SETTLE_QUIET_MS = 250

/** How soon a headless run looks again at a busy team (ms): unread counts change without an event. */
const BUSY_POLL_MS = 20

/** What the leader's side of a team is made of. */
export interface TeammateSupervisorOptions {
  /** Workspace root: teammates work here. */
  cwd: string
  sessionId: string
  bus: EventBus
  /** The session's team context (its team, stores and mailbox). */
  team: TeamContext
  registry: TeammateExecutorRegistry
  /** Backend when a spawn names none: the `teammateBackend` setting (`auto` = `worker`, docs/teams.md#spawning-a-teammate). */
  defaultBackend: TeammateBackend
  /** The leader's permission queue: process teammates' requests and plan approvals go here (docs/teams.md#permission-requests, docs/teams.md#plan-approval). */
  prompter: PermissionPrompter
  /**
   * Whether plan approvals are also put to a person (the UI). Off for headless runs, whose
   * prompter may be `--approve`: a plan is never approved automatically (docs/teams.md#plan-approval), so there
   * only the leader's SendMessage decides.
   */
  askPersonForPlans: boolean
  /**
   * New messages for the leader's model, each its own text (so a burst can be summarised message
   * by message, oldest first); wakes an idle leader once (docs/teams.md#mailbox, docs/teams.md#teammate-life-cycle).
   */
  enqueue: (text: string | readonly string[]) => void
  /** Model access passed to every teammate: ANTHROPIC_API_KEY / BASE_URL, SWARMDESK_MODEL. */
  modelEnv: () => Record<string, string>
  shutdownTimeoutMs?: number
}

/** What the Agent tool asks for when it has a `name` (docs/teams.md#spawning-a-teammate). */
export interface TeammateSpawnRequest {
  name: string
  prompt: string
  /** Short description, the initial message's summary. */
  description: string
  agentType: string
  /** Resolved model id. */
  model: string
  backend?: TeammateBackend
  /** `plan` means plan approval required; else the mode it starts in. */
  mode: PermissionMode
}

/** A teammate spawn the supervisor refused; the message says why and what to do. */
export class TeammateSpawnError extends Error {
  override readonly name = 'TeammateSpawnError'
}

interface Tracked {
  name: string
  agentId: string
  backend: TeammateBackend
  handle: TeammateHandle | undefined
  alive: boolean
  state: AgentState
  /** Open permission questions and plan approvals of this teammate, cancelled when it stops. */
  questions: Map<string, AbortController>
  shutdownTimer: NodeJS.Timeout | undefined
  /** Process backend: time (ISO, the teammate's clock) of the newest turn its transcript showed starting. */
  turnStartedAt?: string
  /** Its plan approval request the leader has not answered yet (docs/teams.md#plan-approval). */
  planRequestId?: string
}

/** A teammate waiting for an answer no one in a headless run can give (see {@link TeammateSupervisor.blockedWaits}). */
export interface TeamWait {
  agentId: string
  agentName: string
  state: AgentState
  /** Who alone could answer: the leader. */
  waitsFor: string
  /** What it waits for, in words. */
  what: string
  requestId?: string
}

/**
 * The leader's side of an agent team (docs/teams.md#spawning-a-teammate, docs/teams.md#teammate-life-cycle, docs/teams.md#permission-requests, docs/teams.md#plan-approval): spawns teammates on their
 * backend, reads the leader's inbox (process teammates' permission requests and plan approvals go
 * to the permission queue, everything a model may see goes to the leader's queue), enforces the
 * shutdown protocol's timeout, and cleans up after a teammate that died: its tasks back to
 * pending with no owner, marked inactive, the leader told.
 */
export class TeammateSupervisor implements Disposable {
  private readonly members = new Map<string, Tracked>()
  private readonly changed = new Emitter<void>()
  private inbox: Disposable | undefined
  private inboxTeam: string | undefined
  private readonly handledIds = new Set<string>()
  private readonly busSub: Disposable
  private readonly sentSub: Disposable
  private readonly teamSub: Disposable
  private disposed = false
  private draining: Promise<void> = Promise.resolve()
  private lastActivity = Date.now()
  /** When {@link settled} first found the team quiet in the current quiet spell; undefined after it saw the team busy. */
  private quietSince: number | undefined
  /** The same for {@link blockedWaits}. */
  private blockedSince: number | undefined

  constructor(private readonly options: TeammateSupervisorOptions) {
    this.busSub = options.bus.onEvent((e) => this.observe(e))
    this.sentSub = options.team.mailbox.onDidSend((sent) => this.onLeaderSent(sent.team, sent.message.to, sent.message))
    // TeamDelete takes the leader's inbox with it: stop reading it at once
    this.teamSub = options.team.onDidChangeTeam((team) => {
      if (team !== this.inboxTeam) {
        this.inbox?.dispose()
        this.inbox = undefined
        this.inboxTeam = undefined
      }
      // a new team gets its first teammate soon: the default backend prepares (a worker loads its
      // bundle while the leader's model writes the Agent call); a deleted one needs none
      if (team !== undefined) options.registry.prewarm(options.defaultBackend)
      else void options.registry.releaseSpares().catch(() => undefined)
    })
    if (options.team.team() !== undefined) options.registry.prewarm(options.defaultBackend)
  }

  /** Fires whenever a teammate's state, liveness or the leader's inbox changes. */
  get onDidChange(): Emitter<void>['event'] {
    return this.changed.event
  }

  /** Names of teammates this session started that are still alive. */
  aliveNames(): string[] {
    return [...this.members.values()].filter((m) => m.alive).map((m) => m.name)
  }

  /** A teammate's current liveness state, or undefined for one this session did not start. */
  stateOf(name: string): AgentState | undefined {
    return this.members.get(name)?.state
  }

  /**
   * Spawns a teammate (docs/teams.md#spawning-a-teammate): registers it in the team config (unique sanitised name,
   * a palette colour, backend, mode, plan requirement), puts the prompt in its inbox, starts it on
   * its backend and emits `agent_started`. Nothing is left behind when it fails.
   * @throws TeammateSpawnError with no team, a taken name, or an unavailable backend; the backend's
   *   error when it cannot start.
   */
  async spawn(request: TeammateSpawnRequest): Promise<{ name: string; agentId: string; backend: TeammateBackend; color: string; team: string }> {
    if (this.disposed) throw new TeammateSpawnError('The session is closing; no teammate can be spawned.')
    const { team: context } = this.options
    const team = context.team()
    if (!team) throw new TeammateSpawnError('Spawning a teammate needs a team: create one with TeamCreate first (or omit `name` to start a subagent).')
    const backend = request.backend ?? this.options.defaultBackend
    if (!this.options.registry.has(backend)) throw new TeammateSpawnError(`The '${backend}' teammate backend is not available here; use another backend.`)
    const planModeRequired = request.mode === 'plan'
    let member
    try {
      member = await context.teams.addMember(team, {
        name: request.name,
        agentType: request.agentType,
        model: request.model,
        backendType: backend,
        cwd: this.options.cwd,
        mode: request.mode,
        planModeRequired,
        isActive: true
      })
    } catch (error) {
      throw new TeammateSpawnError(`${(error as Error).message} Choose another name.`)
    }
    const tracked: Tracked = { name: member.name, agentId: member.agentId, backend, handle: undefined, alive: true, state: 'starting', questions: new Map(), shutdownTimer: undefined }
    this.members.set(member.name, tracked)
    this.watchInbox(team)
    this.emitAs(tracked, { type: 'agent_started', agentType: request.agentType, parentId: LEAD_NAME, backend, color: member.color, depth: 1, model: request.model, cwd: this.options.cwd })
    this.emitState(tracked, 'starting')
    try {
      await context.mailbox.send(team, member.name, { from: LEAD_NAME, text: request.prompt, summary: request.description })
      tracked.handle = await this.options.registry.get(backend).spawn({
        home: context.home,
        team,
        name: member.name,
        agentId: member.agentId,
        cwd: this.options.cwd,
        color: member.color,
        model: request.model,
        mode: planModeRequired ? 'plan' : request.mode,
        planModeRequired,
        sessionId: this.options.sessionId,
        leaderAgentId: teamAgentId(LEAD_NAME, team),
        env: this.options.modelEnv(),
        onTurnStart: (at) => this.onTurnStart(tracked, at)
      })
    } catch (error) {
      tracked.alive = false
      this.members.delete(member.name)
      await context.teams.removeMember(team, member.name).catch(() => undefined)
      this.emitAs(tracked, { type: 'agent_stopped', status: 'crashed', reason: `could not start: ${(error as Error).message}` })
      throw error
    }
    const handle = tracked.handle
    void handle.exited.then((info) => this.onExit(tracked, team, info))
    this.changed.fire()
    return { name: member.name, agentId: member.agentId, backend, color: member.color, team }
  }

  /**
   * Starts again a teammate of the team's config whose run ended with a previous process of this
   * session (restore after restart): same name, colour, backend, model and mode; it continues its
   * conversation from its transcript (TeammateAgent reads it) and gets `message` in its inbox,
   * from the leader, so its next turn picks up where the last one stopped.
   * @throws TeammateSpawnError with no team, a name not in the team, a teammate still running, or
   *   an unavailable backend; the backend's error when it cannot start.
   */
  async resume(name: string, message: string): Promise<void> {
    if (this.disposed) throw new TeammateSpawnError('The session is closing; no teammate can be resumed.')
    const { team: context } = this.options
    const team = context.team()
    if (!team) throw new TeammateSpawnError(`There is no team, so '${name}' cannot be resumed; create a team and spawn it again.`)
    const member = context.teams.read(team).members.find((m) => m.name === name)
    if (!member) throw new TeammateSpawnError(`'${name}' is no longer a member of team '${team}'; spawn it again instead.`)
    if (this.members.get(name)?.alive) throw new TeammateSpawnError(`${name} is already running.`)
    const backend = member.backendType as TeammateBackend
    if (!this.options.registry.has(backend)) throw new TeammateSpawnError(`The '${backend}' teammate backend is not available here.`)
    const tracked: Tracked = { name, agentId: member.agentId, backend, handle: undefined, alive: true, state: 'starting', questions: new Map(), shutdownTimer: undefined }
    this.members.set(name, tracked)
    this.watchInbox(team)
    this.emitAs(tracked, { type: 'agent_started', agentType: member.agentType, parentId: LEAD_NAME, backend, color: member.color, depth: 1, model: member.model, cwd: member.cwd })
    this.emitState(tracked, 'starting')
    try {
      await context.mailbox.send(team, name, { from: LEAD_NAME, text: message, summary: 'resume after the workspace restarted' })
      tracked.handle = await this.options.registry.get(backend).spawn({
        home: context.home,
        team,
        name,
        agentId: member.agentId,
        cwd: member.cwd,
        color: member.color,
        model: member.model,
        mode: member.planModeRequired ? 'plan' : member.mode,
        planModeRequired: member.planModeRequired,
        sessionId: this.options.sessionId,
        leaderAgentId: teamAgentId(LEAD_NAME, team),
        env: { ...this.options.modelEnv(), [CONTINUE_TRANSCRIPT_VARIABLE]: '1' },
        onTurnStart: (at) => this.onTurnStart(tracked, at)
      })
    } catch (error) {
      tracked.alive = false
      this.members.delete(name)
      this.emitAs(tracked, { type: 'agent_stopped', status: 'crashed', reason: `could not start again: ${(error as Error).message}` })
      throw error
    }
    const handle = tracked.handle
    void handle.exited.then((info) => this.onExit(tracked, team, info))
    this.changed.fire()
  }

  /**
   * Asks a teammate to shut down (docs/teams.md#teammate-life-cycle): a `shutdown_request` from the leader; unanswered
   * within the timeout, it is killed. Resolves when it is gone, or when it rejected the request.
   * @returns `exited` (approved), `rejected` (it keeps working), `killed` (timeout), `gone` (not alive).
   */
  async shutdown(name: string, reason = 'The team lead asks you to finish and shut down.'): Promise<'exited' | 'rejected' | 'killed' | 'gone'> {
    const tracked = this.members.get(name)
    const team = this.options.team.team()
    if (!tracked?.alive || !tracked.handle || !team) return 'gone'
    const rejected = new Promise<'rejected'>((resolve) => {
      const sub = this.options.team.mailbox.onDidReceive(team, LEAD_NAME, (entry) => {
        const body = parseMessageBody(entry.message.text)
        if (entry.message.from === name && body.kind === 'structured' && body.body.type === 'shutdown_rejected') {
          sub.dispose()
          resolve('rejected')
        }
      })
      void tracked.handle!.exited.then(() => sub.dispose())
    })
    await this.options.team.mailbox.send(team, name, { from: LEAD_NAME, text: JSON.stringify({ type: 'shutdown_request', requestId: `shutdown-${Date.now().toString(36)}`, reason }) })
    const outcome = await Promise.race([tracked.handle.exited.then((info) => (info.status === 'killed' ? ('killed' as const) : ('exited' as const))), rejected])
    return outcome
  }

  /**
   * Ends the team's run (docs/teams.md#teammate-life-cycle: at the end of a headless run): a shutdown request to every
   * live teammate, then the timeout, then a verified kill of whoever is left.
   */
  async shutdownAll(reason = 'The session is ending: finish now and shut down.'): Promise<void> {
    const alive = [...this.members.values()].filter((m) => m.alive && m.handle)
    await Promise.all(
      alive.map(async (m) => {
        const outcome = await this.shutdown(m.name, reason).catch(() => 'gone' as const)
        // a rejection does not keep a closing session alive: the timeout still applies
        if (outcome === 'rejected') await this.killAfter(m, this.shutdownTimeoutMs)
      })
    )
  }

  /** Kills a teammate at once (the UI's Kill, docs/ui.md#the-workspace-ui) and waits until it is gone. */
  async kill(name: string, reason = 'killed by the team lead'): Promise<void> {
    const tracked = this.members.get(name)
    if (!tracked?.handle || !tracked.alive) return
    await this.options.registry.get(tracked.backend).kill(tracked.agentId, reason)
    await tracked.handle.exited
  }

  /**
   * Interrupts a teammate's current turn (Esc in its pane): its backend tells its loop to stop the
   * model stream and running tools; the teammate says so, goes idle, tells the leader and takes
   * the next message. Nothing happens to an idle teammate.
   * @returns true when a running turn was told to stop; false for an unknown, ended or idle teammate.
   */
  interrupt(name: string): boolean {
    const tracked = this.members.get(name)
    // not while starting: a process teammate has no SIGUSR2 handler before its loop runs
    if (!tracked?.handle || !tracked.alive || tracked.state === 'idle' || tracked.state === 'stopping' || tracked.state === 'starting') return false
    return this.options.registry.get(tracked.backend).interrupt(tracked.agentId)
  }

  /**
   * True when the team is quiet (docs/scenarios.md#scripted-model-scenarios: a headless run ends when the leader is idle, no agent
   * is running and nothing waits to be delivered): every live teammate idle, no unread message in
   * the leader's or a live teammate's inbox, no task a live teammate could still claim or finish,
   * and nothing has happened for {@link SETTLE_QUIET_MS} (a teammate that just went idle may be
   * about to pick up the next message).
   */
  async settled(): Promise<boolean> {
    await this.draining
    this.syncMembers()
    const quiet = this.quiet()
    const now = Date.now()
    if (!quiet) this.quietSince = undefined
    else this.quietSince ??= now
    return quiet && now - Math.max(this.lastActivity, this.quietSince!) >= SETTLE_QUIET_MS
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
    return Math.max(0, SETTLE_QUIET_MS - (Date.now() - Math.max(this.lastActivity, spell)))
  }

  /**
   * The waits that alone keep the team from being quiet, when no one in the run can answer them
   * (a headless run's dead end, docs/events.md#event-stream-and-command-line): each live teammate is either quiet as {@link settled}
   * counts it, or waits for its plan's approval while no person is asked (`askPersonForPlans`
   * off, so only the leader's SendMessage could answer), at least one waits, and that has held
   * for the whole quiet period. Undefined otherwise. Unread messages of a waiting teammate do not
   * count: it cannot read them before it has its answer. The caller checks the leader is idle
   * with nothing queued, and no subagent runs. (A permission question does not count: headless, it
   * is answered at once by `--approve`, or put to the person at the terminal.)
   */
  async blockedWaits(): Promise<TeamWait[] | undefined> {
    await this.draining
    this.syncMembers()
    const waiting = this.options.askPersonForPlans ? [] : [...this.members.values()].filter((m) => m.alive && m.state === 'awaiting_plan_approval' && m.planRequestId !== undefined)
    const now = Date.now()
    if (waiting.length === 0 || !this.quiet(new Set(waiting.map((m) => m.name)))) {
      this.blockedSince = undefined
      return undefined
    }
    this.blockedSince ??= now
    if (now - Math.max(this.lastActivity, this.blockedSince) < SETTLE_QUIET_MS) return undefined
    return waiting.map((m) => ({ agentId: m.agentId, agentName: m.name, state: m.state, waitsFor: LEAD_NAME, what: 'approval of its plan', requestId: m.planRequestId! }))
  }

  /** Asks each live teammate's backend for what it has not told yet (see TeammateExecutor.sync). */
  private syncMembers(): void {
    for (const m of this.members.values()) {
      if (m.alive) this.options.registry.get(m.backend).sync?.(m.agentId)
    }
  }

  /** A process teammate's transcript shows a new turn: it works again (a worker reports its own state). */
  private onTurnStart(tracked: Tracked, at: string): void {
    this.lastActivity = Date.now()
    tracked.turnStartedAt = at
    if (tracked.backend === 'process' && tracked.alive && (tracked.state === 'idle' || tracked.state === 'starting')) this.emitState(tracked, 'running')
    this.changed.fire()
  }

  /** True while no live teammate (but those `parked`, left out) is working or has work waiting. */
  private quiet(parked: ReadonlySet<string> = new Set()): boolean {
    const team = this.options.team.team()
    const alive = [...this.members.values()].filter((m) => m.alive && !parked.has(m.name))
    if (!team) return true
    const mailbox = this.options.team.mailbox
    // a teammate's last words (a shutdown approval) may still be on their way to the leader
    if (this.inboxTeam === team && mailbox.unreadCount(team, LEAD_NAME) > 0) return false
    if (alive.length === 0) return true
    // a teammate in `error` waits for a message as an idle one does: nothing of it is in flight
    if (alive.some((m) => m.state !== 'idle' && m.state !== 'error')) return false
    for (const name of alive.map((m) => m.name)) {
      if (mailbox.unreadCount(team, name) > 0) return false
    }
    // a task a live teammate will still pick up by itself (docs/teams.md#teammate-life-cycle); one left in progress by an
    // idle teammate is not waited for: nobody is working on it
    const tasks = this.options.team.tasks().list().tasks
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

  private get shutdownTimeoutMs(): number {
    return this.options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS
  }

  private async killAfter(m: Tracked, ms: number): Promise<void> {
    const gone = m.handle!.exited.then(() => true)
    const timedOut = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref())
    if (!(await Promise.race([gone, timedOut]))) await this.kill(m.name, `did not shut down within ${Math.round(ms / 1000)} s`)
  }

  /** The leader sent something: a shutdown request arms the kill timer (docs/teams.md#teammate-life-cycle); a plan verdict closes the person's question (first answer wins, docs/teams.md#plan-approval). */
  private onLeaderSent(team: string, to: string, message: MailboxMessage): void {
    if (message.from !== LEAD_NAME || team !== this.options.team.team()) return
    const tracked = this.members.get(to)
    if (!tracked?.alive) return
    const body = parseMessageBody(message.text)
    if (body.kind !== 'structured') return
    if (body.body.type === 'shutdown_request') {
      this.emitState(tracked, 'stopping')
      clearTimeout(tracked.shutdownTimer)
      tracked.shutdownTimer = setTimeout(() => {
        if (tracked.alive) void this.kill(tracked.name, `did not answer the shutdown request within ${Math.round(this.shutdownTimeoutMs / 1000)} s`)
      }, this.shutdownTimeoutMs)
      tracked.shutdownTimer.unref()
    } else if (body.body.type === 'plan_approval_response') {
      tracked.questions.get(body.body.requestId)?.abort()
      if (tracked.planRequestId === body.body.requestId) tracked.planRequestId = undefined
      // a process teammate's ExitPlanMode returns with the verdict and its turn goes on
      if (tracked.backend === 'process' && tracked.state === 'awaiting_plan_approval') this.emitState(tracked, 'running')
    }
  }

  private watchInbox(team: string): void {
    if (this.inboxTeam === team) return
    this.inbox?.dispose()
    this.inboxTeam = team
    const mailbox = this.options.team.mailbox
    const inbox = mailbox.onDidReceive(team, LEAD_NAME, () => this.drain(team))
    const tasks = echoTaskChanges({
      tasks: this.options.team.tasks(),
      onEvent: (listener) => this.options.bus.onEvent(listener),
      report: (task, owner) => {
        const tracked = owner === undefined ? undefined : this.members.get(owner)
        this.emitAs(tracked ?? { agentId: LEAD_NAME, name: LEAD_NAME }, { type: 'task_updated', task })
      }
    })
    this.inbox = { dispose: () => (inbox.dispose(), tasks.dispose()) }
    this.drain(team)
  }

  /**
   * The team whose drain pass is queued and not yet started: arrivals meanwhile join that pass
   * (it reads every unread message when it starts) instead of queuing one pass each, which made
   * a burst of thousands of messages read the inbox thousands of times.
   */
  private drainQueued: string | undefined

  /** Handles every unread message of the leader's inbox, one pass at a time, oldest first. */
  private drain(team: string): void {
    if (this.drainQueued === team) return
    this.drainQueued = team
    this.draining = this.draining.then(async () => {
      if (this.drainQueued === team) this.drainQueued = undefined
      if (this.disposed) return
      if (this.options.team.team() !== team) {
        // TeamDelete removed it (its inbox went with it), or another team was created
        if (this.inboxTeam === team) {
          this.inbox?.dispose()
          this.inbox = undefined
          this.inboxTeam = undefined
        }
        return
      }
      const mailbox = this.options.team.mailbox
      const unread = await mailbox.read(team, LEAD_NAME, { unreadOnly: true }).catch(() => undefined)
      if (!unread) return
      const fresh = unread.messages.filter((e) => !this.handledIds.has(e.message.id))
      if (fresh.length === 0) return
      for (const entry of fresh) this.handledIds.add(entry.message.id)
      const forModel: string[] = []
      for (const entry of fresh) {
        const text = this.route(team, entry)
        if (text) forModel.push(text)
      }
      await mailbox.markRead(team, LEAD_NAME, fresh.map((e) => e.message.id)).catch(() => undefined)
      if (forModel.length) this.options.enqueue(forModel)
      this.lastActivity = Date.now()
      this.changed.fire()
    })
  }

  /** One message to the leader: acted on by the runtime, and/or returned as text for the leader's model. */
  private route(team: string, entry: InboxEntry): string | undefined {
    const { message } = entry
    const from = this.members.get(message.from)
    const body = parseMessageBody(message.text)
    // a process teammate's bus stays in its process: what it said to the leader reaches the stream from here
    const kind = messageKind(message.text)
    if (from?.backend === 'process' && (kind === 'plain' || kind === 'shutdown_approved' || kind === 'shutdown_rejected')) this.emitAs(from, { type: 'message_sent', from: from.name, to: LEAD_NAME, kind })
    if (body.kind === 'structured') {
      const b = body.body
      switch (b.type) {
        case 'permission_request':
          if (from?.alive) void this.askPerson(team, from, b.requestId, b.toolName, b.input, b.description ?? `${b.toolName} needs approval`)
          return undefined
        case 'plan_approval_request':
          if (from?.alive) {
            from.planRequestId = b.requestId
            if (from.backend === 'process') this.emitState(from, 'awaiting_plan_approval')
            if (this.options.askPersonForPlans) void this.askPersonForPlan(team, from, b.requestId, b.plan)
          }
          break
        case 'idle_notification':
          if (from?.alive && from.backend === 'process') {
            // the transcript and the inbox are read apart: a turn it started after sending this
            // (its prompt written later, by its own clock) means it is not idle any more
            this.options.registry.get(from.backend).sync?.(from.agentId)
            // its bus stays in its process: a failed model call reaches the workspace from here
            if (b.idleReason === 'failed' && b.failureReason) {
              this.emitAs(from, { type: 'notice', level: 'error', message: `The model call failed: ${b.failureReason} The next prompt or message retries it.` })
              this.emitState(from, 'error', b.failureReason)
            } else if (!startedSince(from, message.timestamp)) this.emitState(from, 'idle')
          }
          break
        case 'shutdown_rejected':
          if (from) {
            clearTimeout(from.shutdownTimer)
            from.shutdownTimer = undefined
            if (from.alive && from.backend === 'process') this.emitState(from, 'idle')
          }
          break
        default:
          break
      }
    }
    return renderForModel(message)
  }

  /** A process teammate's permission request, put to the leader's queue tagged with its name; answered once, through its inbox (docs/teams.md#permission-requests). */
  private async askPerson(team: string, from: Tracked, requestId: string, tool: string, input: Record<string, unknown>, reason: string): Promise<void> {
    const controller = new AbortController()
    from.questions.set(requestId, controller)
    if (from.backend === 'process') this.emitState(from, 'awaiting_permission')
    // the question as the event stream shows any agent's (a worker's own gate emits these itself)
    this.emitAs(from, { type: 'permission_request', requestId, tool, input, reason })
    let answer: PermissionPromptAnswer
    try {
      answer = await this.options.prompter.prompt({ requestId, agentId: from.agentId, agentName: from.name, tool, input, reason, suggestions: [] }, controller.signal)
    } finally {
      from.questions.delete(requestId)
    }
    this.emitAs(from, { type: 'permission_decided', requestId, decision: answer.decision, by: answer.by, ...(answer.decision === 'deny' && answer.reason ? { reason: answer.reason } : {}) })
    if (answer.by === 'cancelled' || !from.alive) return
    if (from.backend === 'process') this.emitState(from, 'running')
    const response = { type: 'permission_response', requestId, decision: answer.decision, by: answer.by, ...(answer.decision === 'deny' && answer.reason ? { reason: answer.reason } : {}) }
    await this.options.team.mailbox.send(team, from.name, { from: LEAD_NAME, text: JSON.stringify(response) }).catch((error: Error) => {
      this.notice('error', `Could not deliver the permission answer to ${from.name}: ${error.message}`)
    })
  }

  /** A plan approval put to a person as well (docs/teams.md#plan-approval): approve = allow, reject = deny with feedback; cancelled when the leader answers first. */
  private async askPersonForPlan(team: string, from: Tracked, requestId: string, plan: string): Promise<void> {
    const controller = new AbortController()
    from.questions.set(requestId, controller)
    let answer: PermissionPromptAnswer
    try {
      answer = await this.options.prompter.prompt(
        { requestId, agentId: from.agentId, agentName: from.name, tool: 'ExitPlanMode', input: { plan }, reason: `${from.name} asks to approve its plan before it changes anything`, suggestions: [] },
        controller.signal
      )
    } finally {
      from.questions.delete(requestId)
    }
    if (answer.by === 'cancelled' || !from.alive) return
    const verdict = { type: 'plan_approval_response', requestId, approve: answer.decision === 'allow', ...(answer.decision === 'deny' && answer.reason ? { feedback: answer.reason } : {}) }
    await this.options.team.mailbox.send(team, from.name, { from: LEAD_NAME, text: JSON.stringify(verdict) }).catch((error: Error) => {
      this.notice('error', `Could not deliver the plan verdict to ${from.name}: ${error.message}`)
    })
    // the leader's model saw the request too: tell it a person settled it
    this.options.enqueue(`A person ${verdict.approve ? 'approved' : 'rejected'} ${from.name}'s plan (request_id ${requestId})${answer.decision === 'deny' && answer.reason ? `: ${answer.reason}` : ''}. Do not answer it again.`)
  }

  /** After any exit (docs/teams.md#teammate-life-cycle): open questions cancelled; without the teammate's own cleanup, its tasks released, inactive, the leader told. */
  private async onExit(tracked: Tracked, team: string, info: TeammateExitInfo): Promise<void> {
    tracked.alive = false
    clearTimeout(tracked.shutdownTimer)
    for (const c of tracked.questions.values()) c.abort()
    const context = this.options.team
    // a teammate already marked inactive in a team that still exists did its own cleanup (its
    // report may simply have lost the race with its exit); a deleted team needs none
    if (!info.reported && context.team() === team && stillActive(context, team, tracked.name)) {
      const released = await context.tasks().releaseOwnedBy(tracked.name).catch(() => [])
      await context.teams.setActive(team, tracked.name, false).catch(() => undefined)
      const freed = released.length ? ` Its unfinished tasks are pending again: ${released.map((t) => `#${t.id}`).join(', ')}.` : ''
      const what = info.status === 'killed' ? 'was killed' : 'crashed'
      const summary = `${tracked.name} ${what}${info.reason ? ` (${info.reason})` : ''}.${freed}`
      const body = { type: 'idle_notification', from: tracked.name, idleReason: info.status === 'killed' ? 'interrupted' : 'failed', summary }
      await context.mailbox.send(team, LEAD_NAME, { from: tracked.name, text: JSON.stringify(body) }).catch(() => this.options.enqueue(summary))
    }
    this.emitState(tracked, info.status === 'crashed' ? 'crashed' : 'exited')
    this.emitAs(tracked, { type: 'agent_stopped', status: info.status === 'crashed' ? 'crashed' : info.status === 'killed' ? 'killed' : 'exited', ...(info.reason ? { reason: info.reason } : {}) })
    this.lastActivity = Date.now()
    this.changed.fire()
  }

  /** Keeps each teammate's state from the event stream (a worker reports its own; docs/teams.md#teammate-life-cycle). */
  private observe(event: RuntimeEvent): void {
    const name = event.agentName
    const tracked = this.members.get(name)
    if (!tracked || tracked.agentId !== event.agentId) return
    this.lastActivity = Date.now()
    if (event.type === 'agent_state') {
      tracked.state = event.state
      this.changed.fire()
    } else if (tracked.backend === 'process' && tracked.alive && (tracked.state === 'idle' || tracked.state === 'starting' || tracked.state === 'error') && (event.type === 'tool_call' || event.type === 'assistant_text')) {
      // a process teammate's transcript shows it working again
      this.emitState(tracked, 'running')
    }
  }

  private emitState(tracked: Tracked, state: AgentState, reason?: string): void {
    if (tracked.state === state && state !== 'starting' && state !== 'error') return
    tracked.state = state
    this.emitAs(tracked, { type: 'agent_state', state, ...(reason ? { reason } : {}) })
  }

  private emitAs(tracked: Pick<Tracked, 'agentId' | 'name'>, event: Record<string, unknown> & { type: string }): void {
    this.options.bus.emit({ ...event, agentId: tracked.agentId, agentName: tracked.name } as RuntimeEventInput)
  }

  private notice(level: 'warning' | 'error', message: string): void {
    this.options.bus.emit({ type: 'notice', level, message, agentId: LEAD_NAME, agentName: LEAD_NAME })
  }

  /** Kills every live teammate (after {@link shutdownAll} when there is time) and stops reading the leader's inbox. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    await Promise.all(this.aliveNames().map((name) => this.kill(name, 'the session closed').catch(() => undefined)))
    this.disposed = true
    this.inbox?.dispose()
    this.busSub.dispose()
    this.sentSub.dispose()
    this.teamSub.dispose()
    await this.draining
    this.changed.dispose()
  }
}

/** Whether a process teammate's transcript shows a turn that started at or after `timestamp` (both ISO, its own clock). */
function startedSince(tracked: Tracked, timestamp: string): boolean {
  if (tracked.turnStartedAt === undefined) return false
  const started = Date.parse(tracked.turnStartedAt)
  const sent = Date.parse(timestamp)
  return !Number.isNaN(started) && !Number.isNaN(sent) && started >= sent
}

/** Whether `name` is marked active in `team`'s config; false when the team or member is gone. */
function stillActive(context: TeamContext, team: string, name: string): boolean {
  try {
    return context.teams.read(team).members.find((m) => m.name === name)?.isActive === true
  } catch {
    return false
  }
}
