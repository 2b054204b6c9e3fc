import { tmpdir } from 'node:os'
import { type ParentAgent, FileStateCache, type Tool, AgentTool, SendMessageTool, TaskStopTool, bindTeamContext, LEADER_TEAM_TOOLS } from '../tools'
import { createTeamContext, type TeamContext } from '../teams'
import { type BackgroundShells, type PtyHost, createBackgroundShells } from '../pty'
import { SessionMetaSchema, type SessionMeta, leaderTranscriptPath, sessionDir } from '../storage'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ContentBlockParam, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { addUsage, ZERO_USAGE, type RuntimeEventInput, type Usage } from '../../../shared/events'
import type { PermissionMode } from '../../../shared/permissions'
import type { EventBus, WithoutAgent } from '../events'
import { Budget, modelFailureEvents, query, type QueryEnd } from '../loop'
import { type ModelClient, priceOf, type AgentIdentity } from '../model'
import { type PermissionPrompter, PermissionDecisionLog, type LoadedSettings } from '../permissions'
import { messagesForResume, readTranscript, TranscriptWriter } from '../transcripts'

import { readProjectContext, renderSystemPrompt, createAgentSink, createPermissionGate, type PermissionDecider, type PermissionRecord } from '../runner'
import { COORDINATOR_PROMPT, COORDINATOR_READ_TOOLS } from '../coordinator'
import { SubagentRuntime, type SubagentRuntimeOptions, type SessionSubagentOptions } from '../subagents'

import { toDisposable, type Disposable } from '../base'
import { createHookRunner, createSubagentHookPairing, SwappableHookRunner } from '../hooks'
import { TeammateSupervisor, type TeammateSupervisorOptions } from '../teammates'

/** The session's main agent is always named `team-lead` (docs/scenarios.md#scripted-model-scenarios), with or without a team. */
export const LEADER_NAME = 'team-lead'

/** Everything a {@link Session} is made of. The caller owns `client`, `bus`, `pty` and `prompter`. */
export interface SessionOptions {
  /** Workspace root, absolute and canonical. */
  cwd: string
  /** Swarmdesk's data directory (docs/storage.md#layout). */
  home: string
  /** Continue this session from its transcript instead of starting a new one. */
  resumeSessionId?: string
  model: string
  mode: PermissionMode
  /** Model requests allowed per prompt. */
  maxTurns?: number
  budget?: Budget
  client: ModelClient
  bus: EventBus
  prompter: PermissionPrompter
  engine: PermissionDecider
  pty: PtyHost
  tools: Tool[]
  /**
   * Subagents (docs/agents.md#subagents): definitions and resolvers. When given, the leader gets the Agent,
   * TaskStop and SendMessage tools and the session runs their tasks.
   */
  /** Hook commands from settings, per source (docs/hooks.md#hooks); subagent hooks run when subagents are on. */
  hookSettings?: LoadedSettings['hooks']
  /**
   * Agent teams' teammates (docs/teams.md#agent-teams): the backends and how to reach the model. With subagents on,
   * the leader's Agent tool then spawns teammates for calls with a `name`.
   */
  teammates?: Omit<TeammateSupervisorOptions, 'cwd' | 'sessionId' | 'bus' | 'team' | 'prompter' | 'enqueue'>
  subagents?: SessionSubagentOptions
}

/**
 * The user message that continues a resumed session whose history ends with the model's answer
 * (restore after restart, {@link Session.resumeTurn}): the process ended after the answer was
 * recorded but before the turn was over.
 */
export const RESUME_PROMPT = 'The workspace restarted while you were working. Continue where you left off; check the state of anything you were changing before repeating it.'

/** Thrown when a session is asked for something its state does not allow now; the message says why and what to do. */
export class SessionStateError extends Error {
  override readonly name = 'SessionStateError'
}

/** Thrown when a session to resume does not exist or cannot be read. */
export class SessionNotFoundError extends Error {
  override readonly name = 'SessionNotFoundError'
}

/**
 * One leader session (docs/loop.md#the-agent-loop, docs/storage.md#transcripts, docs/events.md#event-stream-and-command-line): the main agent's history, transcript, tool context,
 * permission gate and accounting. `prompt` runs the agent loop on a person's message and streams
 * everything to the event bus; `close` kills what the agent owns and finishes the transcript.
 */
export class Session {
  readonly sessionId: string
  readonly identity: AgentIdentity
  readonly budget: Budget
  private readonly messages: MessageParam[]
  private readonly transcript: TranscriptWriter
  private readonly shells: BackgroundShells
  private readonly fileState = new FileStateCache()
  private readonly sessionAllowRules: string[] = []
  /** Every permission decision of the session's agents (docs/permissions.md#permissions), as `permissions.jsonl`. */
  private readonly permissionLog: PermissionDecisionLog
  private totalUsage: Usage = { ...ZERO_USAGE }
  private totalCost = 0
  private current: AbortController | undefined
  private mode: PermissionMode
  private closed = false
  /** Placeholder results of the tool calls a dead process left unanswered (from {@link open}); they lead the next turn's first user message ({@link openTurn}). */
  private pendingRepair: ContentBlockParam[] | undefined
  /** Set by {@link resumeTurn}: the next prompt runs on the history alone. */
  private resuming = false
  /** Task notifications and messages waiting for the leader's next turn boundary (docs/agents.md#task-notifications). */
  private readonly pending: string[] = []
  private readonly queueListeners = new Set<() => void>()
  private readonly idleSignal = new AbortController().signal
  /** The session's agent tasks; undefined when subagents are not configured. */
  readonly subagents: SubagentRuntime | undefined
  /** The session's team and task list (docs/teams.md#team-config, docs/teams.md#shared-task-list); undefined when subagents are not configured. */
  readonly team: TeamContext | undefined
  /** The leader's side of its team's teammates (docs/teams.md#spawning-a-teammate, docs/teams.md#mailbox, docs/teams.md#sendmessage-between-teammates, docs/teams.md#teammate-life-cycle, docs/teams.md#shared-task-list, docs/teams.md#permission-requests, docs/teams.md#plan-approval); undefined without teammates. */
  readonly teammates: TeammateSupervisor | undefined
  private tools: Tool[]
  private readonly hookWarnings: string[]
  private readonly hookRunner: SwappableHookRunner | undefined
  private readonly unpricedModels = new Set<string>()

  private constructor(
    private readonly options: SessionOptions,
    sessionId: string,
    private system: TextBlockParam[],
    history: MessageParam[],
    parentUuid: string | null
  ) {
    this.sessionId = sessionId
    this.mode = options.mode
    this.budget = options.budget ?? new Budget()
    this.identity = { id: LEADER_NAME, name: LEADER_NAME, type: 'main', cwd: options.cwd }
    this.messages = history
    this.transcript = new TranscriptWriter(leaderTranscriptPath(options.home, options.cwd, sessionId), this.identity.id, parentUuid)
    this.permissionLog = new PermissionDecisionLog(join(sessionDir(options.home, options.cwd, sessionId), 'permissions.jsonl'))
    this.shells = createBackgroundShells(options.pty)
    // one runner for the whole session, its hooks replaceable when project trust changes (replaceHooks)
    const hookRunner = options.subagents ? new SwappableHookRunner(createHookRunner({ hooks: options.hookSettings ?? [], cwd: options.cwd, sessionId, transcriptPath: this.transcript.path })) : undefined
    this.hookRunner = hookRunner
    this.hookWarnings = hookRunner ? [...hookRunner.warnings] : []
    this.subagents = options.subagents
      ? new SubagentRuntime({
          ...options.subagents,
          ...(hookRunner ? { hooks: createSubagentHookPairing(hookRunner) } : {}),
          cwd: options.cwd,
          home: options.home,
          sessionId,
          bus: options.bus,
          client: options.client,
          engine: options.engine,
          prompter: options.prompter,
          pty: options.pty,
          budget: this.budget,
          toolPool: options.tools,
          recordPermission: (entry) => this.recordPermission(entry)
        })
      : undefined
    // the team tools come with the agent tools: both need the session's services
    this.team = options.subagents ? createTeamContext({ home: options.home, sessionId, bus: options.bus, leaderName: LEADER_NAME, teamFile: join(sessionDir(options.home, options.cwd, sessionId), 'team.json'), leaderLease: true, ...(hookRunner ? { hooks: hookRunner } : {}) }) : undefined
    const team = this.team
    this.teammates =
      team && options.teammates
        ? new TeammateSupervisor({ ...options.teammates, cwd: options.cwd, sessionId, bus: options.bus, team, prompter: options.prompter, enqueue: (text) => this.enqueue(text) })
        : undefined
    this.tools = this.leaderTools(options.subagents?.coordinator === true)
  }

  /** The leader's tools: docs/agents.md#coordinator-mode's coordinator set (read-only tools, Agent, SendMessage, TaskStop), else all of them. */
  private leaderTools(coordinator: boolean): Tool[] {
    const team = this.team
    return coordinator
      ? [...this.options.tools.filter((t) => (COORDINATOR_READ_TOOLS as readonly string[]).includes(t.name)), AgentTool, SendMessageTool, TaskStopTool]
      : team
        ? [...this.options.tools, AgentTool, TaskStopTool, ...[SendMessageTool, ...LEADER_TEAM_TOOLS].map((t) => bindTeamContext(t, team))]
        : this.options.tools
  }

  /** Fork and coordinator mode as the session runs them now (docs/agents.md#forks, docs/agents.md#coordinator-mode). */
  get orchestration(): { forkEnabled: boolean; coordinator: boolean } {
    return { forkEnabled: this.subagents?.options.forkEnabled === true, coordinator: this.subagents?.options.coordinator === true }
  }

  /**
   * True while fork and coordinator mode may still change: subagents are on, and the leader has
   * neither history nor a running turn (a new session before its first prompt). Afterwards the
   * leader's system prompt and tools are part of the conversation's cached prefix, and a switch
   * would change what earlier turns were answered under.
   */
  get orchestrationSwitchable(): boolean {
    return this.subagents !== undefined && this.messages.length === 0 && this.current === undefined && this.pendingRepair === undefined
  }

  /**
   * Switches fork and coordinator mode before the first prompt (docs/agents.md#coordinator-mode: a session switch; the
   * UI's toggle). Coordinator wins: forks are then off. The leader's system prompt (the
   * coordinator's role prompt or none) and its tool list are rebuilt as {@link open} builds them.
   * @throws SessionStateError when {@link orchestrationSwitchable} is false (names why).
   */
  async setOrchestration(switches: { fork: boolean; coordinator: boolean }): Promise<{ forkEnabled: boolean; coordinator: boolean }> {
    if (!this.subagents) throw new SessionStateError('Subagents are off in this session, so there are no fork or coordinator modes to switch.')
    if (!this.orchestrationSwitchable) throw new SessionStateError('Fork and coordinator mode are chosen before the first prompt of a session; start a new session to change them.')
    const context = this.options.subagents?.projectContext ?? (await readProjectContext(this.options.cwd))
    const system = await renderSystemPrompt({ cwd: this.options.cwd, model: this.options.model, context, ...(switches.coordinator ? { rolePrompt: COORDINATOR_PROMPT } : {}) })
    // a prompt that started while the prompt was being rendered wins: nothing changes under it
    if (!this.orchestrationSwitchable) throw new SessionStateError('Fork and coordinator mode are chosen before the first prompt of a session; start a new session to change them.')
    this.system = system
    this.tools = this.leaderTools(switches.coordinator)
    this.subagents.setOrchestration({ forkEnabled: switches.fork, coordinator: switches.coordinator })
    return this.orchestration
  }

  /**
   * Starts a new session, or resumes `resumeSessionId` from its transcript.
   * @throws SessionNotFoundError when the session to resume has no transcript under this workspace.
   */
  static async open(options: SessionOptions): Promise<Session> {
    const context = await readProjectContext(options.cwd)
    const system = await renderSystemPrompt({ cwd: options.cwd, model: options.model, context, ...(options.subagents?.coordinator ? { rolePrompt: COORDINATOR_PROMPT } : {}) })
    const opened = { ...options, subagents: options.subagents && { ...options.subagents, projectContext: context } }
    if (options.resumeSessionId) {
      const path = leaderTranscriptPath(options.home, options.cwd, options.resumeSessionId)
      if (!existsSync(path)) {
        throw new SessionNotFoundError(`No session ${options.resumeSessionId} for workspace ${options.cwd} (looked for ${path}). List sessions with: swarmdesk sessions list --cwd ${options.cwd}`)
      }
      const { entries, warnings } = readTranscript(path)
      const { messages, repair } = messagesForResume(entries)
      const session = new Session(opened, options.resumeSessionId, system, messages, entries[entries.length - 1]?.uuid ?? null)
      for (const w of warnings) session.emit({ type: 'notice', level: 'warning', message: w })
      if (repair) {
        // The interrupted calls' placeholder results lead the next turn's first user message, whatever starts the turn (openTurn).
        session.messages.pop()
        session.pendingRepair = repair.content as ContentBlockParam[]
      }
      session.started(true)
      return session
    }
    const sessionId = randomUUID()
    const dir = sessionDir(options.home, options.cwd, sessionId)
    mkdirSync(dir, { recursive: true })
    const meta: SessionMeta = { schemaVersion: 1, sessionId, cwd: options.cwd, model: options.model, createdAt: new Date().toISOString() }
    writeFileSync(join(dir, 'session.json'), JSON.stringify(SessionMetaSchema.parse(meta), null, 2))
    const session = new Session(opened, sessionId, system, [], null)
    session.started(false)
    return session
  }

  /** Path of the leader's transcript. */
  get transcriptPath(): string {
    return this.transcript.path
  }

  /** Sum of every model response's usage in this session (this process). */
  get usage(): Usage {
    return this.totalUsage
  }

  /** Cost of {@link usage} in USD, from the price table. */
  get costUsd(): number {
    return this.totalCost
  }

  /** The conversation as the next request would send it (read-only view). */
  get history(): readonly MessageParam[] {
    return this.messages
  }

  /** Changes the permission mode; applies from the next tool call. */
  /**
   * Uses `hooks` (settings hooks per source, already filtered by project trust) for every hook
   * the session runs from now on: Settings calls this after project trust changes (docs/permissions.md#permissions).
   * Returns the new configuration's warnings. No-op without subagents (no hooks run then).
   * @throws HookConfigError naming the file and field of an invalid entry; the old hooks stay.
   */
  replaceHooks(hooks: NonNullable<SessionOptions['hookSettings']>): readonly string[] {
    if (!this.hookRunner) return []
    const next = createHookRunner({ hooks, cwd: this.options.cwd, sessionId: this.sessionId, transcriptPath: this.transcript.path })
    this.hookRunner.replace(next)
    return next.warnings
  }

  setMode(mode: PermissionMode): void {
    this.mode = mode
  }

  /**
   * Runs the agent loop on a person's message until the model ends its turn (or a limit, abort
   * or error ends it). Every event goes to the bus; every message to the transcript.
   * @throws Error when the session is closed or a prompt is already running.
   * @throws TranscriptWriteError when the transcript cannot be written (a full disk): the turn is
   *   stopped and the session stays usable; the transcript keeps its last whole line.
   */
  async prompt(text?: string): Promise<QueryEnd> {
    if (this.closed) throw new Error('This session is closed; open a new one or resume it.')
    if (this.current) throw new Error('The leader is already working on a prompt; wait for it or stop it first.')
    const resuming = this.resuming
    this.resuming = false
    if (text === undefined && this.pending.length === 0 && !resuming) throw new Error('Nothing to work on: no prompt and no queued notification.')
    this.openTurn(text)
    const controller = new AbortController()
    this.current = controller
    // the person's words go in the pane before what the leader does with them; a resume's prompt is the runtime's
    if (text !== undefined && text !== RESUME_PROMPT) this.emit({ type: 'user_prompt', text })
    this.emit({ type: 'agent_state', state: 'running' })
    let end: QueryEnd | undefined
    try {
      const loop = query({
        agent: this.identity,
        model: this.options.model,
        system: this.system,
        tools: this.tools,
        messages: this.messages,
        transcriptPath: this.transcript.path,
        client: this.options.client,
        maxTurns: this.options.maxTurns,
        budget: this.budget,
        signal: controller.signal,
        toolContext: {
          agentId: this.identity.id,
          agentName: this.identity.name,
          cwd: this.options.cwd,
          fileState: this.fileState,
          pty: this.options.pty,
          shells: this.shells,
          // the sandbox's temp folder is per session (docs/permissions.md#the-bash-sandbox)
          ...(this.options.engine.settings?.sandbox ? { sandbox: { settings: this.options.engine.settings.sandbox, tmpDir: join(tmpdir(), `swarmdesk-sandbox-${this.sessionId}`) } } : {}),
          ...(this.subagents ? { services: { subagents: this.subagents, self: this.asParent(), ...(this.team ? { team: this.team } : {}), ...(this.teammates ? { teammates: this.teammates } : {}) } } : {})
        },
        drainPending: () => this.pending.splice(0),
        gate: createPermissionGate({
          agentId: this.identity.id,
          agentName: this.identity.name,
          cwd: this.options.cwd,
          mode: () => this.mode,
          engine: this.options.engine,
          prompter: this.options.prompter,
          sessionAllowRules: this.sessionAllowRules,
          record: (entry) => this.recordPermission(entry)
        }),
        onUsage: (usage, cost, model) => {
          this.totalUsage = addUsage(this.totalUsage, usage)
          this.totalCost += cost
          if (!priceOf(model) && !this.unpricedModels.has(model)) {
            this.unpricedModels.add(model)
            this.emit({ type: 'notice', level: 'warning', message: `No price is known for model ${model}: its cost is counted as $0. Prices live in src/main/runtime/model/pricing.ts.` })
          }
        }
      })
      const sink = createAgentSink({ bus: this.options.bus, transcript: () => this.transcript, agentId: this.identity.id, agentName: this.identity.name })
      for (;;) {
        const step = await loop.next()
        if (step.done) return (end = step.value)
        try {
          sink(step.value)
        } catch (error) {
          // The turn cannot be recorded (TranscriptWriteError): stop it, and let it end — its tools and shells cleaned up — before failing.
          controller.abort()
          try {
            while (!(await loop.next()).done) {
              // events of a stopped turn are not recorded
            }
          } catch {
            // the recording failure is the error to report
          }
          throw error
        }
      }
    } finally {
      this.current = undefined
      // a failed model call leaves the leader in `error`, saying why, until its next prompt
      if (!this.closed) for (const event of end?.reason === 'model_error' ? modelFailureEvents(end.error) : [{ type: 'agent_state', state: 'idle' } as const]) this.emit(event)
    }
  }

  /**
   * Continues the leader's turn that a previous process left unfinished (restore after restart):
   * the placeholder results of its interrupted tool calls (INTERRUPTED_TOOL_RESULT) are recorded
   * and the loop runs on the history as it stands, so the model picks up where it stopped. A
   * history that ends with the model's finished answer gets {@link RESUME_PROMPT} instead, so a
   * turn always starts.
   * @throws Error when the session is closed or a prompt is already running.
   */
  async resumeTurn(): Promise<QueryEnd> {
    if (this.closed) throw new Error('This session is closed; open a new one or resume it.')
    if (this.current) throw new Error('The leader is already working on a prompt; wait for it or stop it first.')
    if (!this.pendingRepair && this.messages.at(-1)?.role !== 'user') return this.prompt(RESUME_PROMPT)
    this.resuming = true
    return this.prompt(undefined)
  }

  /**
   * Adds the user message a turn starts with, before its first model request. After a restart
   * that left tool calls unanswered (see {@link open}), their placeholder results lead it — on
   * every path: a person's prompt, a wake by a queued notification or teammate message, and
   * {@link resumeTurn} — because the Messages API rejects a `tool_use` whose next message has no
   * matching `tool_result`. A wake's queued texts join that message (tool results first, as the
   * API requires), so the repair is one user message recorded once. Without a repair, only a
   * prompt's text adds a message; queued texts are left to the loop.
   * @throws TranscriptWriteError when the message cannot be recorded; nothing has changed then
   *   (the repair and the queued texts stay pending).
   */
  private openTurn(text: string | undefined): void {
    const repair = this.pendingRepair ?? []
    const texts = text !== undefined ? [text] : repair.length > 0 ? [...this.pending] : []
    if (repair.length === 0 && texts.length === 0) return
    const message: MessageParam = { role: 'user', content: [...repair, ...texts.map((t) => ({ type: 'text' as const, text: t }))] }
    // Recorded first: a transcript that cannot be written (a full disk) refuses the turn with nothing changed.
    this.transcript.append('user', message)
    this.pendingRepair = undefined
    if (text === undefined) this.pending.splice(0, texts.length)
    this.messages.push(message)
  }

  /** True while the leader works on a prompt. */
  get busy(): boolean {
    return this.current !== undefined
  }

  /** Notifications and messages waiting for the leader's next turn. */
  get pendingCount(): number {
    return this.pending.length
  }

  /** Called when something is queued for the leader; an idle leader should be woken (docs/agents.md#task-notifications). */
  onDidQueue(listener: () => void): Disposable {
    this.queueListeners.add(listener)
    return toDisposable(() => this.queueListeners.delete(listener))
  }

  /** The leader as the parent of the agents it spawns. */
  asParent(): ParentAgent {
    return {
      agentId: this.identity.id,
      agentName: this.identity.name,
      depth: 0,
      cwd: this.options.cwd,
      model: this.options.model,
      mode: () => this.mode,
      tools: () => this.tools,
      fileState: this.fileState,
      turnSignal: () => this.current?.signal ?? this.idleSignal,
      enqueue: (text) => this.enqueue(text),
      isAsync: false,
      isFork: false,
      // A fork taken after a restart, before the leader's next turn (a person's /fork), starts from
      // the history as that turn will send it: the interrupted calls answered by their placeholders.
      forkSource: () => ({ system: this.system, messages: this.pendingRepair ? [...this.messages, { role: 'user', content: this.pendingRepair }] : this.messages })
    }
  }

  /** Queues messages (each its own text) for the leader's next turn boundary and wakes an idle leader once (docs/agents.md#task-notifications). */
  private enqueue(text: string | readonly string[]): void {
    this.pending.push(...(typeof text === 'string' ? [text] : text))
    for (const l of [...this.queueListeners]) l()
  }

  /** Aborts the running prompt, if any (its tools are stopped, its process groups killed). */
  stop(): void {
    this.current?.abort()
  }

  /**
   * Ends the session: aborts a running prompt, kills the agent's background shells, finishes the
   * transcript and emits `agent_stopped`. Idempotent.
   */
  async close(status: 'completed' | 'failed' | 'killed' = 'completed', reason?: string): Promise<void> {
    if (this.closed) return
    this.stop()
    this.closed = true
    await this.subagents?.stopAll()
    await this.teammates?.dispose()
    this.team?.dispose()
    await this.shells.killAll()
    this.fileState.clear()
    this.transcript.close()
    // The decision log is written in order in the background; a write that fails (the session
    // folder removed under us) is not worth failing the close for: the events carried them too.
    await this.permissionLog.flushed().catch(() => undefined)
    this.emit({ type: 'agent_state', state: 'exited' })
    this.emit({ type: 'agent_stopped', status, ...(reason ? { reason } : {}) })
  }

  private started(resumed: boolean): void {
    this.emit({ type: 'agent_started', agentType: 'main', depth: 0, model: this.options.model, cwd: this.options.cwd })
    for (const message of this.hookWarnings) this.emit({ type: 'notice', level: 'warning', message })
    if (resumed) this.emit({ type: 'notice', level: 'info', message: `Resumed session ${this.sessionId} with ${this.messages.length} messages of history.` })
  }

  private emit(event: WithoutAgent<RuntimeEventInput>): void {
    this.options.bus.emit({ ...event, agentId: this.identity.id, agentName: this.identity.name } as RuntimeEventInput)
  }

  private recordPermission(entry: PermissionRecord): void {
    this.permissionLog.append(entry)
  }
}
