import { join } from 'node:path'
import type { ContentBlockParam, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { RuntimeEventInput, Usage } from '../../../shared/events'
import type { PermissionMode } from '../../../shared/permissions'
import { toDisposable, type Disposable } from '../base'
import type { WithoutAgent } from '../events'
import { sessionDir } from '../storage'
import type { AgentIdentity } from '../model'
import { createBackgroundShells, type BackgroundShells } from '../pty'
import { PermissionDecisionLog } from '../permissions'
import { createHookRunner, type SwappableHookRunner } from '../hooks'
import { TranscriptWriter } from '../transcripts'
import type { TeamContext } from '../teamStore'
import { FileStateCache, type ParentAgent, type Tool } from '../tools'
import { Budget, type PermissionGate } from '../loop'
import { readProjectContext, runAgentTurn, type AgentTurn, type ResumedHistory, type TurnEnd } from '../runner'
import type { SubagentRuntime } from '../subagents'
import type { TeammateSupervisor } from '../teammates'
import { LEADER_NAME, RESUME_PROMPT, SessionStateError, type SessionOptions } from './options'
import {
  createLeaderServices,
  leaderSandbox,
  leaderToolContext,
  leaderTools,
  turnOpening,
  UsageMeter
} from './services'
import { openLeaderHistory, renderLeaderSystem, sessionRunOptions } from './opening'

/** Why fork and coordinator mode cannot be switched once the leader has begun. */
const ORCHESTRATION_FIXED =
  'Fork and coordinator mode are chosen before the first prompt of a session; start a new session to change them.'

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
  private readonly meter = new UsageMeter()
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
  private base: Tool[] // the leader's are made of these: options.tools, then each new list of options.currentTools
  private readonly hookWarnings: string[]
  private readonly hookRunner: SwappableHookRunner | undefined
  private readonly gate: PermissionGate

  private constructor(
    private readonly options: SessionOptions,
    sessionId: string,
    private system: TextBlockParam[],
    history: Pick<ResumedHistory, 'messages' | 'repair' | 'transcript'>
  ) {
    this.sessionId = sessionId
    this.mode = options.mode
    this.budget = options.budget ?? new Budget()
    this.identity = { id: LEADER_NAME, name: LEADER_NAME, type: 'main', cwd: options.cwd }
    this.messages = history.messages
    this.pendingRepair = history.repair
    this.transcript = history.transcript
    this.permissionLog = new PermissionDecisionLog(
      join(sessionDir(options.home, options.cwd, sessionId), 'permissions.jsonl')
    )
    this.shells = createBackgroundShells(options.pty)
    const services = createLeaderServices(options, {
      sessionId,
      transcriptPath: this.transcript.path,
      budget: this.budget,
      enqueue: (text) => this.enqueue(text),
      recordPermission: (entry) => this.permissionLog.append(entry),
      mode: () => this.mode,
      sessionAllowRules: this.sessionAllowRules
    })
    this.gate = services.gate
    this.hookRunner = services.hookRunner
    this.hookWarnings = services.hookWarnings
    this.subagents = services.subagents
    this.team = services.team
    this.teammates = services.teammates
    this.tools = leaderTools((this.base = options.tools), this.team, options.subagents?.coordinator === true)
  }

  /** Fork and coordinator mode as the session runs them now (docs/agents.md#forks, docs/agents.md#coordinator-mode). */
  get orchestration(): { forkEnabled: boolean; coordinator: boolean } {
    return {
      forkEnabled: this.subagents?.options.forkEnabled === true,
      coordinator: this.subagents?.options.coordinator === true
    }
  }

  /**
   * True while fork and coordinator mode may still change: subagents are on, and the leader has
   * neither history nor a running turn (a new session before its first prompt). Afterwards the
   * leader's system prompt and tools are part of the conversation's cached prefix, and a switch
   * would change what earlier turns were answered under.
   */
  get orchestrationSwitchable(): boolean {
    return (
      this.subagents !== undefined &&
      this.messages.length === 0 &&
      this.current === undefined &&
      this.pendingRepair === undefined
    )
  }

  /**
   * Switches fork and coordinator mode before the first prompt (docs/agents.md#coordinator-mode: a session switch; the
   * UI's toggle). Coordinator wins: forks are then off. The leader's system prompt (the
   * coordinator's role prompt or none) and its tool list are rebuilt as {@link open} builds them.
   * @throws SessionStateError when {@link orchestrationSwitchable} is false (names why).
   */
  async setOrchestration(switches: { fork: boolean; coordinator: boolean }): Promise<Session['orchestration']> {
    if (!this.subagents)
      throw new SessionStateError(
        'Subagents are off in this session, so there are no fork or coordinator modes to switch.'
      )
    if (!this.orchestrationSwitchable) throw new SessionStateError(ORCHESTRATION_FIXED)
    const context = this.options.subagents?.projectContext ?? (await readProjectContext(this.options.cwd))
    const system = await renderLeaderSystem(this.options, context, switches.coordinator)
    // a prompt that started while the prompt was being rendered wins: nothing changes under it
    if (!this.orchestrationSwitchable) throw new SessionStateError(ORCHESTRATION_FIXED)
    this.system = system
    this.tools = leaderTools(this.base, this.team, switches.coordinator)
    this.subagents.setOrchestration({ forkEnabled: switches.fork, coordinator: switches.coordinator })
    return this.orchestration
  }

  /** Starts a new session, or resumes `resumeSessionId`; throws SessionNotFoundError when it has no transcript here. */
  static async open(options: SessionOptions): Promise<Session> {
    const context = await readProjectContext(options.cwd)
    const system = await renderLeaderSystem(options, context, options.subagents?.coordinator === true)
    const opened = sessionRunOptions(options, context)
    const { sessionId, resumed, history } = openLeaderHistory(options)
    const session = new Session(opened, sessionId, system, history)
    for (const w of history.warnings) session.emit({ type: 'notice', level: 'warning', message: w })
    session.started(resumed)
    return session
  }

  /** Path of the leader's transcript. */
  get transcriptPath(): string {
    return this.transcript.path
  }

  /** Sum of every model response's usage in this session (this process). */
  get usage(): Usage {
    return this.meter.usage
  }

  /** Cost of {@link usage} in USD, from the price table. */
  get costUsd(): number {
    return this.meter.costUsd
  }

  /** The conversation as the next request would send it (read-only view). */
  get history(): readonly MessageParam[] {
    return this.messages
  }

  /**
   * Uses `hooks` (settings hooks per source, already filtered by project trust) for every hook
   * the session runs from now on: Settings calls this after project trust changes (docs/permissions.md#permissions).
   * Returns the new configuration's warnings. No-op without subagents (no hooks run then).
   * @throws HookConfigError naming the file and field of an invalid entry; the old hooks stay.
   */
  replaceHooks(hooks: NonNullable<SessionOptions['hookSettings']>): readonly string[] {
    if (!this.hookRunner) return []
    const session = { cwd: this.options.cwd, sessionId: this.sessionId, transcriptPath: this.transcript.path }
    const next = createHookRunner({ hooks, ...session })
    this.hookRunner.replace(next)
    return next.warnings
  }

  /** Changes the permission mode; applies from the next tool call. */
  setMode(mode: PermissionMode): void {
    this.mode = mode
  }

  /**
   * Runs the agent loop on a person's message until the model ends its turn (or a limit, abort
   * or error ends it), through the agent runner (runner/turn.ts). Every event goes to the bus;
   * every message to the transcript. A turn whose transcript cannot be written (a full disk) or
   * whose tool throws is stopped and ends `failed`, the session usable again; the transcript
   * keeps its last whole line.
   * @throws Error when the session is closed or a prompt is already running.
   */
  async prompt(text?: string): Promise<TurnEnd> {
    if (this.closed) throw new Error('This session is closed; open a new one or resume it.')
    if (this.current) throw new Error('The leader is already working on a prompt; wait for it or stop it first.')
    const resuming = this.resuming
    this.resuming = false
    if (text === undefined && this.pending.length === 0 && !resuming)
      throw new Error('Nothing to work on: no prompt and no queued notification.')
    const controller = new AbortController()
    this.current = controller
    this.interrupted = false
    // the person's words go in the pane before what the leader does with them; a resume's prompt is the runtime's
    if (text !== undefined && text !== RESUME_PROMPT) this.emit({ type: 'user_prompt', text })
    try {
      const end = await runAgentTurn({
        ...this.opening(text),
        controller,
        bus: this.options.bus,
        transcript: this.transcript,
        silent: () => this.closed,
        interruption: () => (this.interrupted ? 'the leader stopped its turn. Type a message to go on.' : undefined),
        query: {
          agent: this.identity,
          model: this.options.model,
          system: this.system,
          tools: this.tools,
          refreshTools: () => this.refreshTools(),
          messages: this.messages,
          transcriptPath: this.transcript.path,
          client: this.options.client,
          maxTurns: this.options.maxTurns,
          budget: this.budget,
          toolContext: leaderToolContext({
            identity: this.identity,
            cwd: this.options.cwd,
            fileState: this.fileState,
            pty: this.options.pty,
            shells: this.shells,
            services: this,
            self: () => this.asParent(),
            sandbox: leaderSandbox(this.options, this.sessionId, (e) => this.permissionLog.append(e))
          }),
          drainPending: () => this.pending.splice(0),
          gate: this.gate,
          onUsage: (usage, cost, model) => {
            const warning = this.meter.add(usage, cost, model)
            if (warning) this.emit({ type: 'notice', level: 'warning', message: warning })
          }
        }
      })
      // the calls a failed turn left unanswered are answered first thing next turn (runner/turn.ts)
      if (end.reason === 'failed' && end.repair) this.pendingRepair = [...(this.pendingRepair ?? []), ...end.repair]
      return end
    } finally {
      this.current = undefined
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
  async resumeTurn(): Promise<TurnEnd> {
    if (this.closed) throw new Error('This session is closed; open a new one or resume it.')
    if (this.current) throw new Error('The leader is already working on a prompt; wait for it or stop it first.')
    if (!this.pendingRepair && this.messages.at(-1)?.role !== 'user') return this.prompt(RESUME_PROMPT)
    this.resuming = true
    return this.prompt(undefined)
  }

  /** The opening of the next turn (see {@link turnOpening}); what it consumes is taken once it is recorded. */
  private opening(text: string | undefined): Pick<AgentTurn, 'opening' | 'onOpened'> {
    const next = turnOpening(this.pendingRepair, this.pending, text)
    if (!next) return {}
    return {
      opening: next.message,
      onOpened: () => {
        this.pendingRepair = undefined
        this.pending.splice(0, next.queued)
      }
    }
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
      forkSource: () => ({
        system: this.system,
        messages: this.pendingRepair ? [...this.messages, { role: 'user', content: this.pendingRepair }] : this.messages
      })
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

  /** Esc: stops the running prompt as {@link stop} does, and its pane says so (the runner's note). False when none ran. */
  interrupt(): boolean {
    if (!this.current) return false
    this.interrupted = true
    this.current.abort()
    return true
  }

  /** The running prompt was stopped by {@link interrupt}. */
  private interrupted = false

  /** The leader's tools anew when its base tools changed (an MCP server's list, docs/tools.md#mcp-servers). */
  private async refreshTools(): Promise<Tool[] | undefined> {
    const now = await this.options.currentTools?.()
    if (!now || now === this.base) return undefined
    return (this.tools = leaderTools((this.base = now), this.team, this.orchestration.coordinator))
  }

  /** Ends the session: aborts a running prompt, kills its shells, finishes the transcript, emits `agent_stopped`. Idempotent. */
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
    if (resumed)
      this.emit({
        type: 'notice',
        level: 'info',
        message: `Resumed session ${this.sessionId} with ${this.messages.length} messages of history.`
      })
  }

  private emit(event: WithoutAgent<RuntimeEventInput>): void {
    this.options.bus.emit({ ...event, agentId: this.identity.id, agentName: this.identity.name } as RuntimeEventInput)
  }
}
