import type { RuntimeEvent } from '../../shared/events'
import {
  pushChannels,
  requestChannels,
  type ParsedRequestOf,
  type PushChannel,
  type RequestChannel,
  type ResponseOf
} from '../../shared/ipc'
import { DisposableStore, toDisposable, type Disposable } from '../runtime/base'
import { EventBus } from '../runtime/events'
import { loadWorkspaceSettings } from '../runtime/permissions'
import { LEADER_NAME, type Session } from '../runtime/session'
import type { ClaudeTeams } from '../../shared/ipc'
import { ClaudeTeamsControl, claudeConfigDir, claudeMailboxEntries } from './claudeCode'
import { TerminalEventThinner } from './eventThinner'
import { ClaudeSessions } from './claudeSessions'
import { requestHandlers, type HandlerContext, type RequestHandlers } from './handlers'
import { LeaderControl } from './leader'
import { LiveSettings } from './liveSettings'
import { followTeamMailboxes, type MailboxFeed } from './mailboxFeed'
import { keyChangeNotice, modelAccessOf } from './modelAccess'
import {
  closeWorkspaceMcp,
  openWorkspace,
  type OpenedWorkspace,
  type OpeningNotice,
  type WorkspaceServiceOptions
} from './opening'
import { PaneOutput } from './paneOutput'
import { createPaneRenderer } from './paneText'
import { WorkspaceProjection } from './projection'
import { IpcRequestError } from './requestError'
import { resumeMember, RestoreController, type RestoreHost } from './restore'
import { SettingsControl } from './settingsControl'
import type { SettingsWatch } from './settingsWatch'
import { McpControl } from './mcpControl'
import { AllowedPathsControl } from './allowedPathsControl'
import { connectionNotice, teamTransportViewOf } from './teamTransportView'

export { IpcRequestError } from './requestError'
export type { WorkspaceServiceOptions } from './opening'

/**
 * The workspace runtime as a UI sees it (docs/design.md#process-model, docs/ui.md#the-workspace-ui):
 * one leader session driven by a person's prompts, permission questions answered from the UI,
 * each agent's pane kept as a headless terminal, and the event stream pushed out. It assembles
 * the app layer's parts — the leader's turns (leader.ts), the event projection (projection.ts),
 * the panes' flow (paneOutput.ts), the live settings (liveSettings.ts), the mailbox inspector's
 * feed (mailboxFeed.ts), restore (restore/) — and answers every request through {@link handle},
 * which validates it against the contract in src/shared/ipc/ and hands it to the channel's
 * handler (handlers/), so Electron IPC and the web host's bridge share one implementation.
 */
export class WorkspaceService {
  /** The service's bus: the session's events re-stamped onto one `seq` sequence, and the service's own notices. */
  private readonly bus = new EventBus()
  private readonly store = new DisposableStore()
  private readonly pushListeners = new Set<(channel: PushChannel, payload: unknown) => void>()
  /** Terminal-output events are pushed thinned, without their bytes (those reach the panes): eventThinner.ts. */
  private readonly terminalEvents = new TerminalEventThinner()
  private readonly projection = new WorkspaceProjection()
  private readonly panes: PaneOutput
  private readonly leader: LeaderControl
  private readonly settings: LiveSettings
  /** The settings files, followed while the workspace runs (docs/permissions.md#reloading-while-it-runs). */
  private readonly settingsWatch: SettingsWatch
  private readonly restore: RestoreController
  /** The session's team's allowed paths, following the team's config (allowedPathsControl.ts). */
  private readonly allowedPaths: AllowedPathsControl
  private readonly handlers: RequestHandlers
  /** Claude Code's teams under `CLAUDE_CONFIG_DIR` or `~/.claude`, watched from the first `claudeTeams.list`. */
  private readonly claudeTeams: ClaudeTeamsControl
  private readonly claude: ClaudeSessions
  private session: Session
  /** The team's mailboxes as the inspector shows them; a new session gets its own. */
  private mailboxFeed: MailboxFeed | undefined
  /** Claude Code's teams as last pushed: their messages go into every new session's mailbox feed too. */
  private lastClaudeTeams: ClaudeTeams | undefined
  private disposed = false

  private constructor(
    private readonly opened: OpenedWorkspace,
    options: WorkspaceServiceOptions
  ) {
    const { backends, pty, model, keyFix } = opened
    this.session = opened.session
    this.panes = new PaneOutput({
      pty,
      sizes: opened.paneSizes,
      // the process backend knows which teammates it runs; it answers false for every other id
      resizeTerminal: (agentId, size) => {
        if (this.claude.resize(agentId, size)) return
        if (backends.has('process')) backends.get('process').resize?.(agentId, size.cols, size.rows)
      }
    })
    this.leader = new LeaderControl({ session: () => this.session, bus: this.bus, model, keyFix })
    this.settings = new LiveSettings(opened.settings, {
      session: () => this.session,
      engine: opened.engine,
      bus: this.bus,
      teammateHosts: opened.teammateHosts
    })
    const settingsControl = new SettingsControl({
      runApiKey: opened.apiKey,
      cwd: opened.cwd,
      home: options.home,
      env: options.env ?? process.env,
      settingsFiles: options.settingsFiles ?? [],
      trustProject: options.trustProject ?? false,
      ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}),
      load: (trustProject) =>
        loadWorkspaceSettings(opened.cwd, options.home, options.settingsFiles ?? [], trustProject),
      openedTexts: opened.settingsTexts,
      applyReloaded: (reloaded, from) => this.settings.apply(reloaded, from),
      onDidReload: (problem) =>
        this.push('settings.changed', {
          effective: this.settings.effective(),
          ...(problem && { reloadProblem: problem })
        })
    })
    this.settingsWatch = settingsControl.watch((message) => this.notice('warning', message))
    this.claude = new ClaudeSessions({
      open: (o) => opened.pty.open(o),
      emit: (event) => this.bus.emit(event),
      cwd: opened.cwd,
      home: options.home,
      env: options.env ?? process.env,
      claudePath: () => options.claudePath,
      paneSize: (agentId) => opened.paneSizes.get(agentId)
    })
    this.allowedPaths = this.store.add(
      new AllowedPathsControl({ session: () => this.session, push: (view) => this.push('team.allowedPaths', view) })
    )
    this.restore = new RestoreController(this.restoreHost(), {
      home: options.home,
      cwd: opened.cwd,
      runTag: opened.runTag,
      openOptions: opened.openOptions
    })
    this.claudeTeams = this.store.add(new ClaudeTeamsControl(claudeConfigDir(options.env ?? process.env)))
    this.store.add(
      this.claudeTeams.onDidChange((teams) => {
        this.lastClaudeTeams = teams
        // their inbox messages are mailbox inspector cards beside Swarmdesk's (docs/claude-code-teams.md#in-the-workspace)
        this.mailboxFeed?.putClaudeCode(claudeMailboxEntries(teams))
        this.push('claudeTeams.changed', teams)
      })
    )
    const context: HandlerContext = {
      session: () => this.session,
      bus: this.bus,
      leader: this.leader,
      projection: this.projection,
      panes: this.panes,
      prompter: opened.prompter,
      settings: this.settings,
      settingsControl,
      mcp: new McpControl({
        cwd: opened.cwd,
        home: options.home,
        env: options.env ?? process.env,
        flagFiles: options.mcpConfigFiles ?? [],
        session: opened.mcp.session
      }),
      restore: this.restore,
      claude: this.claude,
      mailbox: () => this.mailboxFeed,
      claudeTeams: this.claudeTeams,
      model,
      keyFix,
      modelName: opened.modelName,
      teamTransport: () => teamTransportViewOf(opened.teamStore),
      allowedPaths: this.allowedPaths,
      mode: opened.mode
    }
    this.handlers = requestHandlers(context)
  }

  /**
   * Opens the workspace (opening.ts) and wires it up: its events projected, rendered into the
   * panes and pushed; the restored session's panes refilled and its agents reopened.
   * @throws RunUsageError for bad input (missing directory, malformed settings, unknown session,
   *   a data directory it cannot write: DataDirectoryError).
   */
  static async start(options: WorkspaceServiceOptions): Promise<WorkspaceService> {
    const opened = await openWorkspace(options)
    const service = new WorkspaceService(opened, options)
    // from here on a settings file edited by hand is seen
    await service.settingsWatch.ready
    service.restore.refillPanes(opened.plan)
    service.wire(opened.notices)
    service.restore.reopen(opened.plan)
    service.openClaudeSessions(options.claudeSession ?? false)
    return service
  }

  private wire(notices: OpeningNotice[]): void {
    const { model, keyFix, prompter } = this.opened
    const render = createPaneRenderer({ scripted: model.scripted !== undefined })
    this.store.add(this.bus.onEvent((event) => this.onEvent(event, render)))
    for (const e of this.opened.early) this.forward(e)
    this.store.add(this.opened.bus.onEvent((e) => this.forward(e)))
    for (const n of notices) this.notice(n.level, n.message)
    const access = modelAccessOf(model, keyFix)
    if (access.noApiKey) this.notice('warning', access.noApiKey.message)
    // a key set while it runs (Settings): the page hears of it, and what waited for the model starts
    this.store.add(
      model.onDidChangeKey(() => {
        const now = modelAccessOf(model, keyFix)
        this.push('model.access', now)
        this.bus.emit({ type: 'notice', ...keyChangeNotice(now), agentId: LEADER_NAME, agentName: LEADER_NAME })
        this.leader.wake()
      })
    )
    // open and waiting for a first prompt
    this.bus.emit({ type: 'agent_state', state: 'idle', agentId: LEADER_NAME, agentName: LEADER_NAME })
    prompter.setAgentCwdResolver((agentId) => this.projection.cwdOf(agentId))
    this.store.add(prompter.onDidChange((permissions) => this.push('permissions.changed', { permissions })))
    // a task notification for an idle leader wakes it at once (docs/agents.md#task-notifications)
    this.store.add(this.session.onDidQueue(() => this.leader.wake()))
    this.store.add(
      this.panes.terminals.onDidWrite((agentId, data, chunk) => this.push('pane.data', { agentId, data, chunk }))
    )
    this.followMailboxes(this.session)
    this.followTeamConnection()
    this.store.add(this.panes.batching())
  }

  /** Reopens the Claude Code sessions the last run had open, and one more when asked (`--claude-session`). */
  private openClaudeSessions(startOne: boolean): void {
    for (const warning of this.claude.restore()) this.notice('warning', warning)
    if (!startOne) return
    try {
      this.claude.start()
    } catch (error) {
      this.notice('error', `No Claude Code session was opened: ${(error as Error).message}`)
    }
  }

  private notice(level: 'info' | 'warning' | 'error', message: string): void {
    this.bus.emit({ type: 'notice', level, message, agentId: LEADER_NAME, agentName: LEADER_NAME })
  }

  /** A change of the connection to the team's server is pushed (`team.transport`) and told in the leader's pane. */
  private followTeamConnection(): void {
    const teamStore = this.opened.teamStore
    if (!teamStore) return
    let lost = teamStore.store.connection.state() !== 'connected'
    this.store.add(
      teamStore.store.connection.onDidChange(() => {
        const view = teamTransportViewOf(teamStore)
        this.push('team.transport', view)
        const notice = connectionNotice(view, lost)
        if (notice) this.notice(notice.level, notice.message)
        lost = view.kind === 'nats' && view.state !== 'connected'
      })
    )
  }

  /** The inspector follows `session`'s team mailboxes (the previous session's feed, if any, ends). */
  private followMailboxes(session: Session): void {
    this.mailboxFeed?.dispose()
    const feed = (this.mailboxFeed = this.store.add(
      followTeamMailboxes(session.team, { home: session.team?.home ?? '', store: session.team?.store })
    ))
    this.store.add(feed.onDidChange((change) => this.push('mailbox.changed', change)))
    if (this.lastClaudeTeams) feed.putClaudeCode(claudeMailboxEntries(this.lastClaudeTeams))
  }

  /** Re-stamps a session event on the service's bus so `seq` is one sequence for the UI. */
  private forward(event: RuntimeEvent): void {
    const { seq: _seq, time: _time, ...rest } = event
    this.bus.emit(rest as Parameters<EventBus['emit']>[0])
  }

  private onEvent(event: RuntimeEvent, render: ReturnType<typeof createPaneRenderer>): void {
    // a broadcast's copies are told apart from the same words sent one by one (mailboxFeed.ts)
    if (event.type === 'message_sent' && event.to === '*')
      this.mailboxFeed?.noteBroadcast(event.from, Date.parse(event.time))
    this.projection.apply(event)
    const pane = render(event)
    if (pane) this.panes.write(pane[0], pane[1])
    const pushed = this.terminalEvents.thin(event)
    if (pushed) this.push('runtime.event', pushed)
  }

  /**
   * Answers one request of the contract: the payload parsed by the channel's request schema, then
   * its handler (handlers/), whose answer is checked against the response schema.
   * @throws IpcRequestError for an unknown channel, a payload the contract rejects, or a refused request.
   */
  async handle(channel: string, payload: unknown): Promise<unknown> {
    if (this.disposed) throw new IpcRequestError('The workspace is closed.')
    if (!Object.hasOwn(requestChannels, channel)) throw new IpcRequestError(`Unknown request channel '${channel}'.`)
    const c = channel as RequestChannel
    const parsed = requestChannels[c].request.safeParse(payload ?? {})
    if (!parsed.success) {
      throw new IpcRequestError(
        `Bad payload for '${channel}': ${parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ')}`
      )
    }
    const result = await dispatch(this.handlers, c, parsed.data as ParsedRequestOf<typeof c>)
    return requestChannels[c].response.parse(result)
  }

  /** What the restore controller reaches of this service (restore/controller.ts). */
  private restoreHost(): RestoreHost {
    return {
      session: () => this.session,
      agents: this.projection.agents,
      panes: this.panes.terminals,
      flushPanes: () => this.panes.flushAll(),
      writePane: (agentId, text) => this.panes.write(agentId, text),
      emit: (event) => this.bus.emit(event),
      onEvent: (listener) => this.bus.onEvent(listener),
      livePids: () => this.opened.pty.livePids(),
      busy: () => this.leader.busy,
      resumeLeader: () => this.leader.resume(),
      resumeMember: (agent) => resumeMember(this.session, agent),
      forgetSession: () => {
        // what the closing session still wrote (a teammate's "killed") goes to the panes dropped here, not to the next session's
        this.panes.flushAll()
        for (const id of this.panes.terminals.agentIds()) if (id !== LEADER_NAME) this.panes.terminals.drop(id)
        this.projection.clear()
      },
      adoptSession: (session) => {
        this.session = session
        this.allowedPaths.sessionChanged()
        this.followMailboxes(session)
        this.store.add(session.onDidQueue(() => this.leader.wake()))
        // the leader's pane starts over: screen and scrollback cleared
        this.panes.write(LEADER_NAME, '\x1b[2J\x1b[3J\x1b[H')
        this.bus.emit({ type: 'agent_state', state: 'idle', agentId: LEADER_NAME, agentName: LEADER_NAME })
      }
    }
  }

  /** The scripted model server's URL when the model is scripted (docs/model.md#model-access), else undefined. */
  get scriptedModelUrl(): string | undefined {
    return this.opened.model.scripted?.url
  }

  /** Subscribes to every push of the contract (`channel`, payload already valid for it). */
  onPush(listener: (channel: PushChannel, payload: unknown) => void): Disposable {
    this.pushListeners.add(listener)
    return toDisposable(() => this.pushListeners.delete(listener))
  }

  /** Resolves when the current prompt, if any, has finished (tests, shutdown). */
  whenIdle(): Promise<void> {
    return this.leader.whenIdle()
  }

  private push(channel: PushChannel, payload: unknown): void {
    if (process.env.NODE_ENV !== 'production') pushChannels[channel].parse(payload)
    for (const l of [...this.pushListeners]) l(channel, payload)
  }

  /** Stops the leader, cancels waiting permission requests, kills every PTY and closes the model connection. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    await this.settingsWatch.close()
    this.leader.close()
    // saved as it stands before anything is stopped: a leader still working reopens interrupted
    await this.restore.close()
    this.session.stop()
    this.opened.prompter.cancelAll()
    await this.leader.whenIdle()
    await this.session.close('killed', 'the workspace closed')
    await this.opened.backends.dispose()
    // docs/tools.md#mcp-servers: no MCP server outlives the workspace
    await closeWorkspaceMcp(this.opened.mcp)
    await this.claude.dispose()
    this.store.dispose()
    this.panes.dispose()
    this.pushListeners.clear()
    await this.opened.pty.dispose()
    await this.opened.model.close()
    await this.opened.teamStore?.store.close()
  }
}

/** Hands a parsed payload to its channel's handler; generic so the handler's types follow the channel. */
function dispatch<C extends RequestChannel>(
  handlers: RequestHandlers,
  channel: C,
  payload: ParsedRequestOf<C>
): Promise<ResponseOf<C>> {
  return handlers[channel](payload)
}
