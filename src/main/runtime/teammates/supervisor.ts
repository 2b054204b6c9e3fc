import { LEAD_NAME, withMemberPatch } from '../teams'
import { transportEnv } from '../teamStore'
import type { AgentState, RuntimeEvent, RuntimeEventInput } from '../../../shared/events'
import { agentId as teamAgentId, type TeamConfig } from '../../../shared/teams'
import { Emitter, type Disposable } from '../base'
import type { TeammateSpawnRequest } from '../tools'
import { CONTINUE_TRANSCRIPT_VARIABLE } from './agent'
import type { TeammateBackend, TeammateExitInfo, TeammateSpawnConfig } from './executor'
import { LeaderInbox } from './leaderInbox'
import { TeamSettling, type TeamWait } from './settling'
import { interruptible, newTrackedTeammate, showsWorkAgain, showsOwnState, type TrackedTeammate } from './tracked'
import { leaderStateToShow } from './tracked'
import { requestShutdown, shutdownEach } from './shutdownRequest'
import { cleanUpAfter } from './exitCleanup'
import { addMember, removeMember } from './members'
import { reapOnTimer } from './reaper'
import { resumableMember } from './resumable'
import { memberHost, resolveTeammateHost } from './ssh/hosts'
export { DEFAULT_SHUTDOWN_TIMEOUT_MS, TeammateSpawnError, type TeammateSupervisorOptions } from './supervisorOptions'
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, TeammateSpawnError, type TeammateSupervisorOptions } from './supervisorOptions'

/**
 * The leader's side of an agent team (docs/teams.md#spawning-a-teammate, docs/teams.md#teammate-life-cycle, docs/teams.md#permission-requests, docs/teams.md#plan-approval): spawns teammates on their
 * backend, reads the leader's inbox (process teammates' permission requests and plan approvals go
 * to the permission queue, everything a model may see goes to the leader's queue), enforces the
 * shutdown protocol's timeout, and cleans up after a teammate that died: its tasks back to
 * pending with no owner, marked inactive, the leader told.
 */
export class TeammateSupervisor implements Disposable {
  private readonly members = new Map<string, TrackedTeammate>()
  private readonly changed = new Emitter<void>()
  private readonly inbox: LeaderInbox
  private readonly settling: TeamSettling
  private readonly busSub: Disposable
  private readonly teamSub: Disposable
  private readonly reaper: Disposable
  private disposed = false
  private lastActivity = Date.now()

  constructor(private readonly options: TeammateSupervisorOptions) {
    this.busSub = options.bus.onEvent((e) => this.observe(e))
    this.inbox = new LeaderInbox({
      bus: options.bus,
      team: options.team,
      registry: options.registry,
      prompter: options.prompter,
      askPersonForPlans: options.askPersonForPlans,
      enqueue: options.enqueue,
      shutdownTimeoutMs: this.shutdownTimeoutMs,
      member: (name) => this.members.get(name),
      // what of it the stream shows (a relayed teammate reports most of its states itself)
      emitState: (tracked, state, reason) => this.emitState(tracked, leaderStateToShow(tracked, state), reason),
      emitAs: (tracked, event) => this.emitAs(tracked, event),
      kill: (name, reason) => this.kill(name, reason),
      onActivity: () => {
        this.lastActivity = Date.now()
        this.changed.fire()
      }
    })
    this.settling = new TeamSettling({
      team: options.team,
      members: () => this.members.values(),
      inboxTeam: () => this.inbox.team,
      drained: () => this.inbox.drained(),
      // each live teammate's backend says what it has not told yet (see TeammateExecutor.sync)
      sync: () => {
        for (const m of this.members.values()) if (m.alive) options.registry.get(m.backend).sync?.(m.agentId)
      },
      lastActivity: () => this.lastActivity,
      askPersonForPlans: options.askPersonForPlans
    })
    // TeamDelete takes the leader's inbox with it: stop reading it at once
    this.teamSub = options.team.onDidChangeTeam((team) => {
      this.inbox.keepOnly(team)
      // a new team gets its first teammate soon: the default backend prepares; a deleted one needs none
      if (team !== undefined) options.registry.prewarm(options.defaultBackend)
      else void options.registry.releaseSpares().catch(() => undefined)
    })
    if (options.team.team() !== undefined) options.registry.prewarm(options.defaultBackend)
    this.reaper = reapOnTimer(options.team, options.bus, () => this.aliveNames())
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
   * its backend (on a host of `hosts`, docs/hosts.md) and emits `agent_started`. Nothing is left behind when it fails.
   * @throws TeammateSpawnError with no team, a taken name, an unavailable backend or a bad host; the backend's error.
   */
  async spawn(
    request: TeammateSpawnRequest
  ): Promise<{ name: string; agentId: string; backend: TeammateBackend; color: string; team: string }> {
    if (this.disposed) throw new TeammateSpawnError('The session is closing; no teammate can be spawned.')
    const { team: context } = this.options
    const team = context.team()
    if (!team)
      throw new TeammateSpawnError(
        'Spawning a teammate needs a team: create one with TeamCreate first (or omit `name` to start a subagent).'
      )
    const host = resolveTeammateHost(this.options.hosts?.() ?? [], request.host, request.backend, context.transport)
    const backend = host ? 'process' : (request.backend ?? this.options.defaultBackend)
    if (!this.options.registry.has(backend))
      throw new TeammateSpawnError(`The '${backend}' teammate backend is not available here; use another backend.`)
    const planModeRequired = request.mode === 'plan'
    let member
    try {
      member = await addMember(context.store.config, team, {
        name: request.name,
        agentType: request.agentType,
        model: request.model,
        backendType: backend,
        cwd: this.options.cwd,
        mode: request.mode,
        planModeRequired,
        isActive: true,
        // resumed there again (docs/hosts.md#resume)
        ...(host ? { host: host.name } : {})
      })
    } catch (error) {
      throw new TeammateSpawnError(`${(error as Error).message} Choose another name.`)
    }
    const tracked = this.track(member.name, member.agentId, backend, {
      agentType: request.agentType,
      color: member.color,
      model: request.model,
      cwd: this.options.cwd,
      ...(host ? { host: host.name } : {})
    })
    await this.launch(
      tracked,
      team,
      { text: request.prompt, summary: request.description },
      'could not start',
      {
        cwd: this.options.cwd,
        color: member.color,
        model: request.model,
        mode: planModeRequired ? 'plan' : request.mode,
        planModeRequired,
        env: this.options.modelEnv(),
        ...(host ? { host } : {})
      },
      () => removeMember(context.store.config, team, member.name)
    )
    return { name: member.name, agentId: member.agentId, backend, color: member.color, team }
  }

  /**
   * Starts again a teammate of the team's config whose run ended with a previous process of this
   * session (restore after restart): same name, colour, backend, model and mode; it continues its
   * conversation from its transcript (TeammateAgent reads it) and gets `message` in its inbox,
   * from the leader, so its next turn picks up where the last one stopped. A member that ran on a
   * host runs there again (its `host` looked up in the setting as it is now, docs/hosts.md#resume).
   * @throws TeammateSpawnError with no team, a name not in the team, a teammate still running, an
   *   unavailable backend, or a host the setting no longer has (the member then shows `crashed`
   *   with that reason and is inactive); the backend's error when it cannot start.
   */
  async resume(name: string, message: string): Promise<void> {
    if (this.disposed) throw new TeammateSpawnError('The session is closing; no teammate can be resumed.')
    const { team: context, registry } = this.options
    const alive = this.members.get(name)?.alive === true
    const { team, member, backend } = await resumableMember(context, registry, name, alive)
    const { agentType, color, model, cwd } = member
    const where = member.host ? { host: member.host } : {}
    const tracked = this.track(name, member.agentId, backend, { agentType, color, model, cwd, ...where })
    let host
    try {
      host = memberHost(this.options.hosts?.() ?? [], member, context.transport)
    } catch (error) {
      this.failed(tracked, 'could not start again', error)
      const inactive = (c: TeamConfig) => withMemberPatch(c, name, { isActive: false }).config
      await context.store.config.update(team, inactive).catch(() => undefined)
      throw error
    }
    await this.launch(
      tracked,
      team,
      { text: message, summary: 'resume after the workspace restarted' },
      'could not start again',
      {
        cwd: member.cwd,
        color: member.color,
        model: member.model,
        mode: member.planModeRequired ? 'plan' : member.mode,
        planModeRequired: member.planModeRequired,
        env: { ...this.options.modelEnv(), [CONTINUE_TRANSCRIPT_VARIABLE]: '1' },
        ...(host ? { host } : {})
      }
    )
  }

  /** A teammate about to start, tracked from now on: `agent_started` says who it is (depth 1, parent the leader). */
  private track(
    name: string,
    agentId: string,
    backend: TeammateBackend,
    started: { agentType: string; color: string; model: string | undefined; cwd: string; host?: string }
  ): TrackedTeammate {
    const tracked = newTrackedTeammate(name, agentId, backend)
    tracked.relayed = backend === 'process' && this.options.team.store.transport !== 'files'
    this.members.set(name, tracked)
    this.emitAs(tracked, { type: 'agent_started', parentId: LEAD_NAME, backend, depth: 1, ...started })
    return tracked
  }

  /**
   * Puts the teammate's first message in its inbox and starts it on its backend, then follows its
   * exit. When either fails it is forgotten, `undo` runs, `agent_stopped` says `crashed` with
   * `failure` and the error, and the error is rethrown.
   */
  private async launch(
    tracked: TrackedTeammate,
    team: string,
    first: { text: string; summary: string },
    failure: string,
    config: Pick<TeammateSpawnConfig, 'cwd' | 'color' | 'model' | 'mode' | 'planModeRequired' | 'env' | 'host'>,
    undo?: () => Promise<unknown>
  ): Promise<void> {
    const context = this.options.team
    this.inbox.read(team)
    this.emitState(tracked, 'starting')
    try {
      await context.store.mailbox.send(team, tracked.name, { from: LEAD_NAME, ...first })
      tracked.handle = await this.options.registry.get(tracked.backend).spawn({
        ...config,
        home: context.home,
        team,
        name: tracked.name,
        agentId: tracked.agentId,
        sessionId: this.options.sessionId,
        leaderAgentId: teamAgentId(LEAD_NAME, team),
        env: { ...config.env, ...transportEnv(context.transport) }, // it opens the store from there
        store: context.store,
        onTurnStart: (at) => this.onTurnStart(tracked, at),
        onState: (state, reason) => this.emitState(tracked, showsOwnState(tracked, state) ? state : undefined, reason)
      })
    } catch (error) {
      tracked.alive = false
      this.members.delete(tracked.name)
      await undo?.().catch(() => undefined)
      this.failed(tracked, failure, error)
      throw error
    }
    void tracked.handle.exited.then((info) => this.onExit(tracked, team, info))
    this.changed.fire()
  }

  /** A teammate that could not start: forgotten, and `agent_stopped` says `crashed` with `failure` and the error. */
  private failed(tracked: TrackedTeammate, failure: string, error: unknown): void {
    tracked.alive = false
    this.members.delete(tracked.name)
    const reason = `${failure}: ${(error as Error).message}`
    this.emitAs(tracked, { type: 'agent_stopped', status: 'crashed', reason })
  }

  /**
   * Asks a teammate to shut down (docs/teams.md#teammate-life-cycle): a `shutdown_request` from the leader; unanswered
   * within the timeout, it is killed. Resolves when it is gone, or when it rejected the request.
   * @returns `exited` (approved), `rejected` (it keeps working), `killed` (timeout), `gone` (not alive).
   */
  async shutdown(
    name: string,
    reason = 'The team lead asks you to finish and shut down.'
  ): Promise<'exited' | 'rejected' | 'killed' | 'gone'> {
    const tracked = this.members.get(name)
    const team = this.options.team.team()
    if (!tracked?.alive || !tracked.handle || !team) return 'gone'
    return requestShutdown(this.options.team.store.mailbox, team, tracked.name, tracked.handle, reason)
  }

  /**
   * Ends the team's run (docs/teams.md#teammate-life-cycle: at the end of a headless run): a shutdown request to every
   * live teammate, then the timeout, then a verified kill of whoever is left. Resolves once every message they sent the
   * leader meanwhile is in its queue, with their plain messages (their last words; LeaderInbox.newsDuring).
   */
  async shutdownAll(reason = 'The session is ending: finish now and shut down.') {
    const alive = [...this.members.values()].filter((m) => m.alive && m.handle)
    const ask = (name: string) => this.shutdown(name, reason)
    const kill = (name: string, why: string) => this.kill(name, why)
    return this.inbox.newsDuring(shutdownEach(alive, this.shutdownTimeoutMs, ask, kill))
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
    if (!tracked || !interruptible(tracked)) return false
    return this.options.registry.get(tracked.backend).interrupt(tracked.agentId)
  }

  /** True when the team is quiet and has been for a moment (see {@link TeamSettling.settled}). */
  settled(): Promise<boolean> {
    return this.settling.settled()
  }

  /** Milliseconds before {@link settled} may turn true without any other change (see {@link TeamSettling.settleDelayMs}). */
  get settleDelayMs(): number {
    return this.settling.settleDelayMs
  }

  /** The waits no one in a headless run can answer, when they alone keep the team busy (see {@link TeamSettling.blockedWaits}). */
  blockedWaits(): Promise<TeamWait[] | undefined> {
    return this.settling.blockedWaits()
  }

  /** A process teammate's transcript shows a new turn: it works again (a worker reports its own state). */
  private onTurnStart(tracked: TrackedTeammate, at: string): void {
    this.lastActivity = Date.now()
    tracked.turnStartedAt = at
    const quiet = tracked.state === 'idle' || tracked.state === 'starting'
    if (tracked.backend === 'process' && !tracked.relayed && tracked.alive && quiet) this.emitState(tracked, 'running')
    this.changed.fire()
  }

  private get shutdownTimeoutMs(): number {
    return this.options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS
  }

  /** After any exit (docs/teams.md#teammate-life-cycle): open questions cancelled; without the teammate's own cleanup, its tasks released, inactive, the leader told. */
  private async onExit(tracked: TrackedTeammate, team: string, info: TeammateExitInfo): Promise<void> {
    tracked.alive = false
    clearTimeout(tracked.shutdownTimer)
    for (const c of tracked.questions.values()) c.abort()
    await cleanUpAfter(this.options.team, team, tracked.name, info, this.options.enqueue)
    this.emitState(tracked, info.status === 'crashed' ? 'crashed' : 'exited')
    this.emitAs(tracked, {
      type: 'agent_stopped',
      status: info.status === 'crashed' ? 'crashed' : info.status === 'killed' ? 'killed' : 'exited',
      ...(info.reason ? { reason: info.reason } : {})
    })
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
    } else if (showsWorkAgain(tracked, event)) this.emitState(tracked, 'running')
  }

  /** Emits `state` as the teammate's unless it is its state already (`starting` and `error` always); undefined: nothing. */
  private emitState(tracked: TrackedTeammate, state: AgentState | undefined, reason?: string): void {
    if (state === undefined) return
    if (tracked.state === state && state !== 'starting' && state !== 'error') return
    tracked.state = state
    this.emitAs(tracked, { type: 'agent_state', state, ...(reason ? { reason } : {}) })
  }

  private emitAs(
    tracked: Pick<TrackedTeammate, 'agentId' | 'name'>,
    event: Record<string, unknown> & { type: string }
  ): void {
    this.options.bus.emit({ ...event, agentId: tracked.agentId, agentName: tracked.name } as RuntimeEventInput)
  }

  /** Kills every live teammate (after {@link shutdownAll} when there is time) and stops reading the leader's inbox. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    await Promise.all(this.aliveNames().map((name) => this.kill(name, 'the session closed').catch(() => undefined)))
    this.disposed = true
    this.busSub.dispose()
    this.teamSub.dispose()
    this.reaper.dispose()
    await this.inbox.dispose()
    this.changed.dispose()
  }
}
