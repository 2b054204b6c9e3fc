import { type PtyHost, createPtyHost, type PtyFlowControl } from '../runtime/pty'
import { canonicalWorkspace, ensureWritableDataDirectory } from '../runtime/storage'
import { connectModel, type ModelConnection, NO_API_KEY_HINTS } from '../runtime/runner'
import { loadWorkspaceSettings, PermissionEngine, type LoadedSettings } from '../runtime/permissions'
import { teammateModelEnv, teammateSettingsEnv, createTeammateBackends, type TeammateExecutorRegistry } from '../runtime/teammates'
import { addUsage, ZERO_USAGE, type RuntimeEvent } from '../../shared/events'
import {
  pushChannels,
  requestChannels,
  type AgentView,
  type Orchestration,
  type PushChannel,
  type RequestChannel,
  type ResponseOf,
  type WorkspaceSnapshot
} from '../../shared/ipc'
import { agentColor, teamColorHex } from '../../shared/agentColors'
import { DEFAULT_PANE_SCROLLBACK_LINES } from '../../shared/paneScrollback'
import type { PermissionMode } from '../../shared/permissions'
import type { SettingsView } from '../../shared/settings'
import type { TerminalSize } from '../../shared/terminalSize'
import { EventBus } from '../runtime/events'
import { DisposableStore, toDisposable, type Disposable } from '../runtime/base'
import { Budget } from '../runtime/loop'
import { DEFAULT_MODEL, resolveModel, ApiKeyHolder } from '../runtime/model'
import { LEADER_NAME, Session, SessionStateError, modeSwitches, teammateSettings, envWithSettings, teammateModelSetting } from '../runtime/session'
import { sweepWorkspaceWorktrees, definitionFileNotices, loadSubagentWiring } from '../runtime/subagents'
import { CORE_TOOLS } from '../runtime/tools'

import { createPaneRenderer } from './paneText'
import { followTeamMailboxes, type MailboxFeed } from './mailboxFeed'
import { PaneTerminals } from './panes'
import { paneScrollbackLinesOf } from './paneScrollbackSetting'
import { PaneBatcher } from './paneBatcher'
import { PaneSizes } from './paneSizes'
import { noteActivity, type MemberActivity } from '../../shared/memberActivity'
import * as taskBoard from './taskBoard'
import * as teamControl from './teamControl'
import { UiPrompter, UnofferedRuleError } from './uiPrompter'
import { SettingsControl, SettingsRefusedError, type ApiKeyStore } from './settingsControl'
import { randomUUID } from 'node:crypto'
import { planRestore, resumeMember, RESTORE_NOTICE_LEVEL, RESUME_TURN, RestoreController, RestoreError, RUN_TAG_VARIABLE, type RestoreHost, type SessionChoice } from './restore'
import { TerminalEventThinner } from './eventThinner'

import { keyChangeNotice, modelAccessOf, type KeyFix } from './modelAccess'

/** A request the service refused: unknown channel, a payload that fails the contract, or a refusal (busy). `name` survives IPC. */
export class IpcRequestError extends Error {
  override readonly name = 'IpcRequestError'
}

/** Options of {@link WorkspaceService.start}; the same inputs as `swarmdesk run`. */
export interface WorkspaceServiceOptions {
  cwd: string
  home: string
  /** A scenario file: the model is the scripted model server (docs/model.md#model-access). */
  scenario?: string
  model?: string
  mode?: PermissionMode
  settingsFiles?: string[]
  trustProject?: boolean
  env?: NodeJS.ProcessEnv
  resumeSessionId?: string
  maxBudgetUsd?: number
  /** Fork subagents (docs/agents.md#forks). */
  fork?: boolean
  /** Coordinator mode (docs/agents.md#coordinator-mode); wins over forks. */
  coordinator?: boolean
  /** Where Settings stores the API key (the app's OS keychain); absent in the web host: the environment only. */
  apiKeys?: ApiKeyStore
  /**
   * The process's live API key, shared by its workspaces: used when the environment has none, and
   * followed as it changes (a key entered in Settings starts the leader at once). Without a key from
   * either, the workspace still opens (a first run): the UI says how to add one. Default: none.
   */
  apiKey?: ApiKeyHolder
  /**
   * `restore` (the default): reopen the workspace's last session — its leader from its transcript,
   * panes with their scrollback, agents that were working shown `interrupted` (workspace/restore).
   * `new`: start an empty session (`swarmdesk serve --new-session`). `resumeSessionId` wins over both.
   */
  session?: SessionChoice
}

/**
 * The workspace runtime as a UI sees it (docs/design.md#process-model, docs/ui.md#the-workspace-ui): one leader session driven by a person's
 * prompts, permission questions answered from the UI, each agent's pane kept as a headless
 * terminal, and the event stream pushed out. Every request goes through {@link handle}, which
 * validates it against the contract in src/shared/ipc.ts, so Electron IPC and the web host's
 * bridge share one implementation.
 */
export class WorkspaceService {
  private readonly bus = new EventBus()
  /** Each pane's terminal starts at, and follows, the size its page reports (`pane.resize`). */
  private readonly panes = new PaneTerminals({ sizeOf: (agentId) => this.paneSizes.get(agentId) })
  private readonly store = new DisposableStore()
  private readonly pushListeners = new Set<(channel: PushChannel, payload: unknown) => void>()
  /** Terminal-output events are pushed thinned, without their bytes (those reach the panes): eventThinner.ts. */
  private readonly terminalEvents = new TerminalEventThinner()
  private readonly agents = new Map<string, AgentView>()
  /** The team's mailboxes as the inspector shows them (docs/ui.md#the-workspace-ui); set in wire(). */
  private mailboxFeed: MailboxFeed | undefined
  /**
   * Pane output batched to ≤ 60 `pane.data` pushes a second per pane, with the pane's PTYs paused
   * while the renderer is more than 1 MiB behind (paneBatcher.ts, issue 7 backpressure).
   */
  private readonly batcher = new PaneBatcher({
    flush: (agentId, data) => this.panes.write(agentId, data),
    pause: (agentId) => {
      for (const pid of this.panePtys.get(agentId) ?? []) if (!this.pty.pause(pid)) this.panePtys.get(agentId)?.delete(pid)
    },
    resume: (agentId) => {
      for (const pid of this.panePtys.get(agentId) ?? []) this.pty.resume(pid)
    }
  })
  /**
   * The PTYs whose output reached each pane (seen through {@link PtyFlowControl.deliveringPid}): the
   * agent's commands and, for a process teammate, its terminal. Ended PTYs drop out when a pause finds them gone.
   */
  private readonly panePtys = new Map<string, Set<number>>()
  /** Per agent id: last event, last message, context used (the team dashboard, docs/ui.md#the-workspace-ui). */
  private readonly activity = new Map<string, MemberActivity>()
  /** The `stuckAfterMinutes` setting (docs/ui.md#the-workspace-ui), set by {@link start}. */
  private stuckAfterMinutes = teamControl.DEFAULT_STUCK_AFTER_MINUTES
  /** The `paneScrollbackLines` setting (the page's terminals; main's copies keep their own length), set by {@link start}. */
  private paneScrollbackLines = DEFAULT_PANE_SCROLLBACK_LINES
  /** The `teammateBackend` setting, for the spawn form's default. */
  private defaultBackend: 'worker' | 'process' = 'worker'
  /** Each agent's working directory from its `agent_started` (a worktree when isolated), for permission cards. */
  private readonly agentCwds = new Map<string, string>()
  private lastSeq = 0
  private busy = false
  private running: Promise<unknown> = Promise.resolve()
  private disposed = false
  /** The Settings view's side (settingsControl.ts); set by {@link start}. */
  private settingsControl: SettingsControl | undefined
  /** The leader's and its subagents' permission engine, whose settings a reload replaces. */
  private engine: PermissionEngine | undefined
  /** Restore after restart (issue 8): saves the workspace as it changes, reopens and resumes it (workspace/restore). */
  private restore: RestoreController | undefined
  /** Where a person adds an API key here (the app's Settings, or the web host's environment). */
  private keyFix: KeyFix = 'environment'

  private constructor(
    private session: Session,
    private readonly prompter: UiPrompter,
    private readonly model: ModelConnection,
    private readonly pty: PtyHost & PtyFlowControl,
    private readonly backends: TeammateExecutorRegistry,
    private readonly modelName: string,
    private mode: PermissionMode,
    /** Each pane's last reported size; process teammates start at it (`pane.resize`). */
    private readonly paneSizes: PaneSizes
  ) {}

  /**
   * Opens the workspace: settings, model (scripted for a scenario), PTY host and the leader
   * session (new, or resumed).
   * @throws RunUsageError for bad input (missing directory, malformed settings, no API key, unknown session,
   *   a data directory it cannot write: DataDirectoryError).
   */
  static async start(options: WorkspaceServiceOptions): Promise<WorkspaceService> {
    const startEnv = options.env ?? process.env
    const cwd = canonicalWorkspace(options.cwd)
    // a read-only or full data directory is bad input, reported before anything runs
    ensureWritableDataDirectory(options.home, cwd)
    const settings = await loadWorkspaceSettings(cwd, options.home, options.settingsFiles ?? [], options.trustProject ?? false)
    // the Settings view's models and auto-background delay, where the environment sets none
    const env = envWithSettings(startEnv, settings)
    // a first run has no key: the workspace opens all the same, saying where to add one
    const keyFix: KeyFix = options.apiKeys ? 'settings' : 'environment'
    const apiKey = options.apiKey ?? new ApiKeyHolder()
    const model = await connectModel({ scenario: options.scenario, env, settings, apiKey, noApiKeyHint: NO_API_KEY_HINTS[keyFix] })
    // what the last run left: the session to reopen, and its orphaned processes killed (workspace/restore)
    const plan = await planRestore({ home: options.home, cwd, choice: options.session ?? 'restore', resumeSessionId: options.resumeSessionId })
    const runTag = randomUUID()
    const pty = createPtyHost({ env: { [RUN_TAG_VARIABLE]: runTag } })
    const prompter = new UiPrompter(cwd)
    const modelName = resolveModel(options.model ?? env.SWARMDESK_MODEL ?? DEFAULT_MODEL)
    const mode = options.mode ?? settings.defaultMode ?? 'default'
    const wiring = await loadSubagentWiring({ cwd, home: options.home, env, trustProject: options.trustProject, teammateModel: teammateModelSetting(settings) })
    const swept = await sweepWorkspaceWorktrees(cwd)
    const bus = new EventBus()
    const paneSizes = new PaneSizes()
    const backends = createTeammateBackends({ bus, pty, prompter, home: options.home, paneSize: (agentId) => paneSizes.get(agentId) })
    // kept by the service: Settings swaps its rules while the session runs
    const engine = new PermissionEngine(settings)
    // Events emitted while the session opens are replayed into the service's own bus below.
    const early: RuntimeEvent[] = []
    const sub = bus.onEvent((e) => early.push(e))
    let session: Session
    let openOptions: Parameters<typeof Session.open>[0]
    try {
      session = await Session.open((openOptions = {
        cwd,
        home: options.home,
        resumeSessionId: plan.resumeSessionId,
        model: modelName,
        mode,
        budget: new Budget(options.maxBudgetUsd),
        client: model.client,
        bus,
        prompter,
        engine,
        pty,
        tools: [...CORE_TOOLS],
        subagents: { ...wiring.subagents, ...modeSwitches(options, settings) },
        hookSettings: settings.hooks,
        teammates: { registry: backends, ...teammateSettings(settings), askPersonForPlans: true, modelEnv: () => ({ ...teammateModelEnv(model, env, settings), ...teammateSettingsEnv(options.settingsFiles ?? [], options.trustProject ?? false) }) }
      }))
    } catch (error) {
      await backends.dispose()
      await pty.dispose()
      await model.close()
      throw error
    } finally {
      sub.dispose()
    }
    const service = new WorkspaceService(session, prompter, model, pty, backends, modelName, mode, paneSizes)
    service.stuckAfterMinutes = teamControl.stuckAfterMinutesOf(settings)
    service.paneScrollbackLines = paneScrollbackLinesOf(settings)
    service.defaultBackend = teammateSettings(settings).defaultBackend
    service.engine = engine
    service.keyFix = keyFix
    service.settingsControl = new SettingsControl({
      runApiKey: apiKey,
      cwd,
      home: options.home,
      env: startEnv,
      settingsFiles: options.settingsFiles ?? [],
      trustProject: options.trustProject ?? false,
      ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}),
      load: (trustProject) => loadWorkspaceSettings(cwd, options.home, options.settingsFiles ?? [], trustProject),
      applyReloaded: (reloaded) => service.applySettings(reloaded)
    })
    const notices = [
      ...settings.warnings.map((message) => ({ level: 'warning' as const, message })),
      ...definitionFileNotices(wiring.files),
      ...swept.map((path) => ({ level: 'warning' as const, message: `Removed a stale clean worktree: ${path}` })),
      ...plan.warnings.map((message) => ({ level: RESTORE_NOTICE_LEVEL, message }))
    ]
    service.restore = new RestoreController(service.restoreHost(), { home: options.home, cwd, runTag, openOptions: openOptions! })
    service.restore.refillPanes(plan)
    service.wire(bus, notices, early)
    service.restore.reopen(plan)
    return service
  }

  private wire(sessionBus: EventBus, notices: Array<{ level: 'warning' | 'error'; message: string }>, early: RuntimeEvent[]): void {
    const render = createPaneRenderer({ scripted: this.model.scripted !== undefined })
    this.store.add(this.bus.onEvent((event) => this.onEvent(event, render)))
    for (const e of early) this.forward(e)
    this.store.add(sessionBus.onEvent((e) => this.forward(e)))
    for (const n of notices) this.bus.emit({ type: 'notice', level: n.level, message: n.message, agentId: LEADER_NAME, agentName: LEADER_NAME })
    const access = modelAccessOf(this.model, this.keyFix)
    if (access.noApiKey) this.bus.emit({ type: 'notice', level: 'warning', message: access.noApiKey.message, agentId: LEADER_NAME, agentName: LEADER_NAME })
    // a key set while it runs (Settings): the page hears of it, and what waited for the model starts
    this.store.add(
      this.model.onDidChangeKey(() => {
        const now = modelAccessOf(this.model, this.keyFix)
        this.push('model.access', now)
        this.bus.emit({ type: 'notice', ...keyChangeNotice(now), agentId: LEADER_NAME, agentName: LEADER_NAME })
        this.wake()
      })
    )
    // Open and waiting for a first prompt.
    this.bus.emit({ type: 'agent_state', state: 'idle', agentId: LEADER_NAME, agentName: LEADER_NAME })
    this.prompter.setAgentCwdResolver((agentId) => this.agentCwds.get(agentId))
    this.store.add(this.prompter.onDidChange((permissions) => this.push('permissions.changed', { permissions })))
    // A task notification for an idle leader wakes it at once (docs/agents.md#task-notifications).
    this.store.add(this.session.onDidQueue(() => this.wake()))
    this.store.add(this.panes.onDidWrite((agentId, data, chunk) => this.push('pane.data', { agentId, data, chunk })))
    const feed = (this.mailboxFeed = this.store.add(followTeamMailboxes(this.session.team, { home: this.session.team?.home ?? '' })))
    this.store.add(feed.onDidChange((change) => this.push('mailbox.changed', change)))
    this.store.add(this.batcher.asDisposable())
  }

  /** Re-stamps a session event on the service's bus so `seq` is one sequence for the UI. */
  private forward(event: RuntimeEvent): void {
    const { seq: _seq, time: _time, ...rest } = event
    this.bus.emit(rest as Parameters<EventBus['emit']>[0])
  }

  private onEvent(event: RuntimeEvent, render: ReturnType<typeof createPaneRenderer>): void {
    this.lastSeq = event.seq
    this.track(event)
    const activity = noteActivity(this.activity.get(event.agentId), event)
    if (activity) this.activity.set(event.agentId, activity)
    const pane = render(event)
    if (pane) this.writePane(pane[0], pane[1])
    const pushed = this.terminalEvents.thin(event)
    if (pushed) this.push('runtime.event', pushed)
  }

  /**
   * A pane's new size (`pane.resize`, already within the contract's bounds): remembered for the
   * agent, main's headless terminal of the pane resized to it (so `pane.scrollback` is serialized
   * for the page's width), and a running `process` teammate's terminal resized to it (its program
   * gets SIGWINCH).
   * Any other agent — the leader, a subagent, a worker teammate, one not started yet or unknown —
   * has no terminal of its own to resize; its size is only remembered, so a process teammate that
   * starts later under that id starts at it.
   */
  private resizePane(agentId: string, size: TerminalSize): void {
    this.paneSizes.remember(agentId, size)
    this.panes.resize(agentId, size)
    // the process backend knows which teammates it runs; it answers false for every other id
    if (this.backends.has('process')) this.backends.get('process').resize?.(agentId, size.cols, size.rows)
  }

  /** Queues pane output, noting the PTY it comes from so the pane's backpressure can pause it. */
  private writePane(agentId: string, text: string): void {
    const pid = this.pty.deliveringPid()
    if (pid !== undefined) {
      let pids = this.panePtys.get(agentId)
      if (!pids) this.panePtys.set(agentId, (pids = new Set()))
      if (!pids.has(pid)) {
        pids.add(pid)
        if (this.batcher.isPaused(agentId)) this.pty.pause(pid)
      }
    }
    this.batcher.write(agentId, text)
  }

  private track(event: RuntimeEvent): void {
    // a broadcast's copies are told apart from the same words sent one by one (mailboxFeed.ts)
    if (event.type === 'message_sent' && event.to === '*') this.mailboxFeed?.noteBroadcast(event.from, Date.parse(event.time))
    if (event.type === 'agent_started') {
      if (event.cwd) this.agentCwds.set(event.agentId, event.cwd)
      this.agents.set(event.agentId, {
        agentId: event.agentId,
        agentName: event.agentName,
        agentType: event.agentType,
        ...(event.parentId ? { parentId: event.parentId } : {}),
        depth: event.depth,
        state: 'starting',
        ...(event.model ? { model: event.model } : {}),
        color: event.color ? teamColorHex(event.color, event.agentId) : agentColor(event.agentId),
        ...(event.backend ? { backend: event.backend } : {}),
        usage: { ...ZERO_USAGE },
        costUsd: 0,
        startedAt: event.time
      })
      return
    }
    if (event.type === 'task_updated') {
      // a teammate's current task: the one it owns that is in progress (docs/ui.md#the-workspace-ui pane header)
      const { id, subject, owner, status } = event.task as { id?: unknown; subject?: unknown; owner?: unknown; status?: unknown }
      for (const a of this.agents.values()) {
        if (a.currentTask?.id === String(id)) delete a.currentTask
        if (a.agentName === owner && a.backend && status === 'in_progress') a.currentTask = { id: String(id), subject: String(subject) }
      }
      return
    }
    const agent = this.agents.get(event.agentId)
    if (!agent) return
    if (event.type === 'agent_state') {
      agent.state = event.state
      if (event.state === 'error' && event.reason) agent.error = event.reason
      else delete agent.error
    } else if (event.type === 'agent_stopped') {
      // an agent that stopped on a failed model call stays shown in `error`, with its reason
      if (agent.state !== 'error') agent.state = event.status === 'crashed' ? 'crashed' : 'exited'
      agent.endedAt = event.time
      agent.endStatus = event.status
    }
    else if (event.type === 'usage') {
      agent.usage = addUsage(agent.usage, event)
      agent.costUsd += event.costUsd ?? 0
    }
  }

  /**
   * Answers one request of the contract.
   * @throws IpcRequestError for an unknown channel, a payload the contract rejects, or a refused request.
   */
  async handle(channel: string, payload: unknown): Promise<unknown> {
    if (this.disposed) throw new IpcRequestError('The workspace is closed.')
    if (!Object.hasOwn(requestChannels, channel)) throw new IpcRequestError(`Unknown request channel '${channel}'.`)
    const c = channel as RequestChannel
    const parsed = requestChannels[c].request.safeParse(payload ?? {})
    if (!parsed.success) {
      throw new IpcRequestError(`Bad payload for '${channel}': ${parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ')}`)
    }
    const result = await this.answer(c, parsed.data)
    return requestChannels[c].response.parse(result)
  }

  private async answer(channel: RequestChannel, payload: any): Promise<unknown> {
    switch (channel) {
      case 'workspace.snapshot':
        return this.snapshot()
      case 'leader.prompt':
        return this.prompt(payload.text)
      case 'leader.stop':
        this.session.stop()
        return { ok: true }
      case 'workspace.stopAll':
        return { ok: true, ...(await this.teamAction(() => teamControl.stopAll(this.session))) }
      case 'workspace.setOrchestration':
        return this.setOrchestration(payload.fork, payload.coordinator)
      case 'team.spawnOptions':
        return teamControl.spawnOptions(this.session, this.defaultBackend)
      case 'team.create': {
        const team = await this.teamAction(() => teamControl.createTeam(this.session, payload.name, payload.description))
        this.bus.emit({ type: 'notice', level: 'info', message: `A person created team '${team}' from the workspace.`, agentId: LEADER_NAME, agentName: LEADER_NAME })
        return { team }
      }
      case 'teams.stale':
        return { teams: teamControl.staleTeams(this.session) }
      case 'teams.deleteStale': {
        const removed = await this.teamAction(() => teamControl.deleteStaleTeam(this.session, payload.team))
        this.bus.emit({ type: 'notice', level: 'info', message: `A person deleted the stale team '${removed.team}'${removed.killed ? ` (${removed.killed} leftover teammate process(es) killed)` : ''}.`, agentId: LEADER_NAME, agentName: LEADER_NAME })
        return removed
      }
      case 'teammate.spawn':
        this.requireModel('A teammate')
        return this.teamAction(() => teamControl.spawnTeammate(this.session, payload))
      case 'teammate.message':
        await this.teamAction(() => teamControl.messageTeammate(this.session, payload.name, payload.text))
        return { ok: true }
      case 'teammate.shutdown':
        await this.teamAction(async () =>
          teamControl.shutdownTeammate(this.session, payload.name, payload.reason, (outcome) => {
            if (outcome === 'rejected') this.bus.emit({ type: 'notice', level: 'info', message: `${payload.name} declined to shut down and keeps working.`, agentId: LEADER_NAME, agentName: LEADER_NAME })
            else if (outcome.startsWith('failed')) this.bus.emit({ type: 'notice', level: 'error', message: `Shutting down ${payload.name} ${outcome}`, agentId: LEADER_NAME, agentName: LEADER_NAME })
          })
        )
        return { ok: true }
      case 'teammate.kill':
        await this.teamAction(() => teamControl.killTeammate(this.session, payload.name))
        return { ok: true }
      case 'permission.respond':
        try {
          return { ok: this.prompter.respond(payload.requestId, payload) }
        } catch (error) {
          if (error instanceof UnofferedRuleError) throw new IpcRequestError(error.message)
          throw error
        }
      case 'pane.scrollback': {
        this.batcher.flushPane(payload.agentId)
        const scrollback = await this.panes.scrollback(payload.agentId, payload.lines)
        // The page now holds everything up to this chunk: that acknowledges it (a reloaded page resumes a paused pane).
        this.batcher.ack(payload.agentId, scrollback.chunk)
        return scrollback
      }
      case 'pane.ack':
        for (const { agentId, chunk } of payload.acks) this.batcher.ack(agentId, chunk)
        return { ok: true }
      case 'pane.mute':
        // Mutes are a page's, applied by the transport that tells pages apart (the web host's
        // bridge per socket, the app per window); the service pushes to whoever listens.
        return { ok: true }
      case 'pane.resize':
        this.resizePane(payload.agentId, { cols: payload.cols, rows: payload.rows })
        return { ok: true }
      case 'agent.interrupt':
        return { ok: true, interrupted: await this.interrupt(payload.agentId) }
      case 'agent.stop':
        await this.requireSubagents().stop(payload.agentId).catch((error: Error) => {
          throw new IpcRequestError(error.message)
        })
        return { ok: true }
      case 'agent.background':
        this.backgroundAgent(payload.agentId)
        return { ok: true }
      case 'workspace.setMode':
        this.mode = payload.mode
        this.session.setMode(payload.mode)
        return { ok: true }
      case 'mailbox.list':
        if (!this.mailboxFeed) throw new IpcRequestError('The mailbox inspector is not ready yet.')
        return this.mailboxFeed.list(payload.offset, payload.limit)
      case 'tasks.list':
        return this.boardAction(async () => taskBoard.listTasks(this.session))
      case 'tasks.create':
        return this.boardAction(() => taskBoard.createTask(this.session, payload))
      case 'tasks.update':
        return this.boardAction(() => taskBoard.updateTask(this.session, payload))
      case 'tasks.assign':
        return this.boardAction(() => taskBoard.assignTask(this.session, payload.taskId, payload.owner))
      // which workspaces are open is the host's business (src/main/electron/workspaces.ts, src/main/host/workspaces.ts)
      case 'workspaces.menu':
      case 'workspaces.open':
      case 'workspaces.forget':
        throw new IpcRequestError(`'${channel}' is answered by the app or the web host, not by a workspace.`)
      // Settings view (settingsControl.ts)
      case 'settings.get':
        return this.withEffective(await this.settingsAction((s) => s.view()))
      case 'settings.update':
        return this.withEffective(await this.settingsAction((s) => s.update(payload.values)))
      case 'settings.trust':
        return this.withEffective(await this.settingsAction((s) => s.setTrust(payload.trusted)))
      case 'settings.setApiKey':
        return this.settingsAction((s) => s.setApiKey(payload.apiKey, payload.acceptUnencrypted === true))
      case 'settings.clearApiKey':
        return this.settingsAction((s) => s.clearApiKey())
      case 'settings.setRunApiKey':
        return this.settingsAction((s) => s.setRunApiKey(payload.apiKey))
      // restore after restart (workspace/restore/controller.ts)
      case 'agent.resume':
        this.requireModel('Resuming an agent')
        return this.restoreAction(() => this.restore!.resume(payload.agentId))
      case 'workspace.newSession':
        return this.restoreAction(() => this.restore!.newSession())
      case 'sessions.list':
        return this.restore!.sessions()
      case 'workspace.openSession':
        return this.restoreAction(() => this.restore!.openSession(payload.sessionId))
    }
  }

  /** Runs a Settings action; its refusal becomes the request's error, shown in the view. */
  /** A settings view with the values that apply now (the reload after a change has run by then). */
  private withEffective(view: SettingsView): SettingsView {
    return { ...view, effective: { stuckAfterMinutes: this.stuckAfterMinutes, paneScrollbackLines: this.paneScrollbackLines } }
  }

  private async settingsAction<T>(work: (control: SettingsControl) => Promise<T>): Promise<T> {
    if (!this.settingsControl) throw new IpcRequestError('Settings are not ready yet.')
    try {
      return await work(this.settingsControl)
    } catch (error) {
      if (error instanceof SettingsRefusedError) throw new IpcRequestError(error.message)
      throw error
    }
  }

  /**
   * Applies reloaded settings to what may change while the workspace runs: the permission rules
   * of the leader and its subagents (teammates read them when they start), the session's hooks
   * (project trust granted or revoked, docs/permissions.md#permissions), the stuck threshold and the panes' scrollback
   * length. Everything else (model, mode, backend, switches) is built at start and takes effect at
   * the next start.
   * @throws SettingsRefusedError when the new hooks are invalid (the old ones stay).
   */
  private applySettings(settings: LoadedSettings): void {
    let warnings: readonly string[]
    try {
      warnings = this.session.replaceHooks(settings.hooks)
    } catch (error) {
      throw new SettingsRefusedError(`The settings changed, but their hooks cannot be used, so the previous hooks stay: ${(error as Error).message}`)
    }
    this.engine?.replaceSettings(settings)
    this.stuckAfterMinutes = teamControl.stuckAfterMinutesOf(settings)
    this.paneScrollbackLines = paneScrollbackLinesOf(settings)
    const active = settings.hooks.reduce((n, h) => n + Object.keys(h.hooks).length, 0)
    const message = `Settings reloaded: ${active === 0 ? 'no hooks are configured' : `hooks for ${active} event${active === 1 ? '' : 's'} apply from now on`}.`
    this.bus.emit({ type: 'notice', level: 'info', message, agentId: LEADER_NAME, agentName: LEADER_NAME })
    for (const w of warnings) this.bus.emit({ type: 'notice', level: 'warning', message: w, agentId: LEADER_NAME, agentName: LEADER_NAME })
  }

  /** Runs a dashboard action; its refusal becomes the request's error (the person sees the message). */
  private async teamAction<T>(work: () => T | Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      if (error instanceof teamControl.TeamControlError) throw new IpcRequestError(error.message)
      throw error
    }
  }

  /** Runs a restore action (Resume, New session); its refusal becomes the request's error. */
  private async restoreAction<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      if (error instanceof RestoreError || error instanceof teamControl.TeamControlError) throw new IpcRequestError(error.message)
      throw error
    }
  }

  /** What the restore controller reaches of this service (workspace/restore/controller.ts). */
  private restoreHost(): RestoreHost {
    return {
      session: () => this.session,
      agents: this.agents,
      panes: this.panes,
      flushPanes: () => this.batcher.flushAll(),
      writePane: (agentId, text) => this.writePane(agentId, text),
      emit: (event) => this.bus.emit(event),
      onEvent: (listener) => this.bus.onEvent(listener),
      livePids: () => this.pty.livePids(),
      busy: () => this.busy,
      resumeLeader: () => this.run(RESUME_TURN),
      resumeMember: (agent) => resumeMember(this.session, agent),
      forgetSession: () => {
        for (const id of this.agents.keys()) if (id !== LEADER_NAME) this.panes.drop(id)
        this.agents.clear()
        this.activity.clear()
        this.agentCwds.clear()
      },
      adoptSession: (session) => {
        this.session = session
        this.mailboxFeed?.dispose()
        const feed = (this.mailboxFeed = this.store.add(followTeamMailboxes(session.team, { home: session.team?.home ?? '' })))
        this.store.add(feed.onDidChange((change) => this.push('mailbox.changed', change)))
        this.store.add(session.onDidQueue(() => this.wake()))
        // the leader's pane starts over: screen and scrollback cleared
        this.writePane(LEADER_NAME, '\x1b[2J\x1b[3J\x1b[H')
        this.bus.emit({ type: 'agent_state', state: 'idle', agentId: LEADER_NAME, agentName: LEADER_NAME })
      }
    }
  }

  /** Runs a task board action; its refusal becomes the request's error, shown on the card. */
  private async boardAction<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      if (error instanceof taskBoard.TaskBoardError) throw new IpcRequestError(error.message)
      throw error
    }
  }

  private requireSubagents() {
    if (!this.session.subagents) throw new IpcRequestError('Subagents are not enabled in this workspace.')
    return this.session.subagents
  }

  /**
   * Esc in a pane (`agent.interrupt`): stops the agent's current turn and says so in its pane. The
   * leader goes idle and waits for the next prompt; a subagent's turn is its task, so it is
   * stopped as TaskStop stops it (its parent hears `killed`; SendMessage resumes it); a teammate
   * goes idle and tells the leader. False when it had no turn running.
   * @throws IpcRequestError for an agent this workspace does not know.
   */
  private async interrupt(agentId: string): Promise<boolean> {
    const note = (id: string, name: string, what: string): void => {
      this.bus.emit({ type: 'notice', level: 'info', message: `Interrupted: ${what}`, agentId: id, agentName: name })
    }
    if (agentId === LEADER_NAME) {
      if (!this.busy) return false
      this.session.stop()
      await this.running
      note(LEADER_NAME, LEADER_NAME, 'the leader stopped its turn. Type a message to go on.')
      return true
    }
    const view = this.agents.get(agentId)
    if (!view) throw new IpcRequestError(`No agent '${agentId}' in this workspace.`)
    if (view.backend) return this.teamAction(() => teamControl.interruptTeammate(this.session, view.agentName))
    const task = this.session.subagents?.get(agentId)
    if (!task || task.status !== 'running') return false
    await this.requireSubagents().stop(agentId)
    note(agentId, view.agentName, `${view.agentName} stopped. SendMessage to it resumes it from its transcript.`)
    return true
  }

  private backgroundAgent(agentId: string): void {
    const agents = this.requireSubagents()
    const task = agents.get(agentId)
    if (!task) throw new IpcRequestError(`No agent task with id ${agentId}.`)
    if (task.status !== 'running') throw new IpcRequestError(`Agent ${agentId} is not running.`)
    if (task.isAsync) throw new IpcRequestError(`Agent ${agentId} already runs in the background.`)
    agents.background(agentId)
  }

  private snapshot(): ResponseOf<'workspace.snapshot'> {
    const snapshot: WorkspaceSnapshot = {
      sessionId: this.session.sessionId,
      cwd: this.session.identity.cwd,
      model: this.modelName,
      mode: this.mode,
      scripted: this.model.scripted !== undefined,
      busy: this.busy,
      agents: [...this.agents.values()].map((a) => ({ ...a, usage: { ...a.usage } })),
      permissions: this.prompter.list(),
      // Every agent's spending, as the UI adds it up from usage events.
      usage: [...this.agents.values()].reduce((sum, a) => addUsage(sum, a.usage), { ...ZERO_USAGE }),
      costUsd: [...this.agents.values()].reduce((sum, a) => sum + a.costUsd, 0),
      lastSeq: this.lastSeq,
      ...(this.session.team?.team() ? { team: this.session.team.team() } : {}),
      activity: Object.fromEntries(this.activity),
      stuckAfterMinutes: this.stuckAfterMinutes,
      paneScrollbackLines: this.paneScrollbackLines,
      ...(this.session.subagents ? { orchestration: this.orchestration() } : {}),
      modelAccess: modelAccessOf(this.model, this.keyFix),
      ...(this.model.scripted?.scenario.prompt ? { suggestedPrompt: this.model.scripted.scenario.prompt } : {}),
      leaderStarted: this.busy || this.session.history.length > 0
    }
    return snapshot
  }

  /** Fork and coordinator mode as the UI shows them. */
  private orchestration(): Orchestration {
    const { forkEnabled, coordinator } = this.session.orchestration
    return { fork: forkEnabled, coordinator, switchable: this.session.orchestrationSwitchable && !this.busy }
  }

  /** The UI's switch before the first prompt (docs/agents.md#coordinator-mode); the leader's pane says what changed. */
  private async setOrchestration(fork: boolean, coordinator: boolean): Promise<Orchestration> {
    if (this.busy) throw new IpcRequestError('Fork and coordinator mode are chosen before the first prompt of a session; start a new session to change them.')
    try {
      await this.session.setOrchestration({ fork, coordinator })
    } catch (error) {
      if (error instanceof SessionStateError) throw new IpcRequestError(error.message)
      throw error
    }
    const now = this.orchestration()
    const message = now.coordinator
      ? 'Coordinator mode: the leader orchestrates background workers and does no work itself; forks are off.'
      : now.fork
        ? 'Fork mode: an Agent call without a type forks the leader, sharing its prompt cache.'
        : 'Standard mode: the leader works itself and starts typed subagents.'
    this.bus.emit({ type: 'notice', level: 'info', message, agentId: LEADER_NAME, agentName: LEADER_NAME })
    return now
  }

  /**
   * Refuses what needs a model while there is no API key (a first run), with the way to add one,
   * so a prompt typed then gets an answer instead of a silent failure.
   * @throws IpcRequestError naming what waits for the key and where to set it.
   */
  private requireModel(what: string): void {
    const { noApiKey } = modelAccessOf(this.model, this.keyFix)
    if (noApiKey) throw new IpcRequestError(`${what} needs a model. ${noApiKey.message}`)
  }

  private async prompt(text: string): Promise<{ ok: true }> {
    this.requireModel('A prompt')
    const fork = /^\/fork\s+([\s\S]+)$/.exec(text.trim())
    if (fork) return this.forkFromPrompt(fork[1]!.trim())
    if (this.busy) throw new IpcRequestError('The leader is still working on the previous prompt; wait for it or press Stop.')
    this.run(text)
    return { ok: true }
  }

  /** `/fork <directive>` (docs/agents.md#forks): forks the leader's conversation as it stands, in the background. */
  private async forkFromPrompt(directive: string): Promise<{ ok: true }> {
    const agents = this.session.subagents
    if (!agents?.options.forkEnabled) throw new IpcRequestError(agents?.options.coordinator ? 'Forks are off in coordinator mode.' : 'Forks are off in this workspace; start it with --fork to use /fork.')
    if (this.busy) throw new IpcRequestError('Wait for the leader to finish its turn before forking its conversation.')
    await agents.spawnFork({ parent: this.session.asParent(), description: directive.split(/\s+/).slice(0, 5).join(' '), directive, fromPrompt: true })
    return { ok: true }
  }

  /** Starts a turn on what is queued for the leader, if it is idle; a busy leader takes it at its next turn boundary. */
  private wake(): void {
    // without a key, what is queued waits for one (a key set later wakes the leader)
    if (!this.busy && !this.disposed && this.session.pendingCount > 0 && !modelAccessOf(this.model, this.keyFix).noApiKey) this.run(undefined)
  }

  private run(text: string | undefined | typeof RESUME_TURN): void {
    this.busy = true
    this.running = (text === RESUME_TURN ? this.session.resumeTurn() : this.session.prompt(text))
      .then((end) => {
        // a model error's notice and `error` state come from the session itself (loop/failure.ts)
        if (end.reason === 'model_error') {
          if (end.error.kind === 'scenario') this.bus.emit({ type: 'scenario_error', message: end.error.message, agentId: LEADER_NAME, agentName: LEADER_NAME })
        } else if (end.reason === 'max_turns' || end.reason === 'budget') {
          this.bus.emit({ type: 'notice', level: 'warning', message: `The leader stopped: ${end.reason === 'budget' ? 'the budget is spent' : 'the turn limit was reached'}.`, agentId: LEADER_NAME, agentName: LEADER_NAME })
        }
      })
      .catch((error: Error) => {
        this.bus.emit({ type: 'notice', level: 'error', message: `The leader failed: ${error.message}`, agentId: LEADER_NAME, agentName: LEADER_NAME })
      })
      .finally(() => {
        this.busy = false
        // Notifications that arrived while the turn was ending get their own turn.
        queueMicrotask(() => this.wake())
      })
  }

  /** The scripted model server's URL when the model is scripted (docs/model.md#model-access), else undefined. */
  get scriptedModelUrl(): string | undefined {
    return this.model.scripted?.url
  }

  /** Subscribes to every push of the contract (`channel`, payload already valid for it). */
  onPush(listener: (channel: PushChannel, payload: unknown) => void): Disposable {
    this.pushListeners.add(listener)
    return toDisposable(() => this.pushListeners.delete(listener))
  }

  /** Resolves when the current prompt, if any, has finished (tests, shutdown). */
  whenIdle(): Promise<void> {
    return this.running.then(() => undefined)
  }

  private push(channel: PushChannel, payload: unknown): void {
    if (process.env.NODE_ENV !== 'production') pushChannels[channel].parse(payload)
    for (const l of [...this.pushListeners]) l(channel, payload)
  }

  /** Stops the leader, cancels waiting permission requests, kills every PTY and closes the model connection. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    // saved as it stands before anything is stopped: a leader still working reopens interrupted
    await this.restore?.close()
    this.session.stop()
    this.prompter.cancelAll()
    await this.running
    await this.session.close('killed', 'the workspace closed')
    await this.backends.dispose()
    this.store.dispose()
    this.panes.dispose()
    this.pushListeners.clear()
    await this.pty.dispose()
    await this.model.close()
  }
}
