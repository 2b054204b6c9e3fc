import { mcpNotices, mcpRunConfig, releaseIdle } from './agentMcp'
import type { PermissionMode } from '../../../shared/permissions'
import { toDisposable, type Disposable } from '../base'
import { readProjectContext, renderSystemPrompt, type ProjectContext } from '../runner'
import { ToolError, type AgentCall, type ParentAgent, type SubagentsPort, type ToolResult } from '../tools'
import {
  DEFAULT_AUTO_BACKGROUND_MS,
  DEFAULT_MAX_CONCURRENT_AGENTS,
  FORK_MAX_TURNS,
  type ForkSpec,
  type ResumeSpec,
  type SpawnSpec,
  type SubagentRuntimeOptions
} from './options'
import { agentSlug, newAgentId } from './ids'
import { buildForkMessages, buildPromptForkMessages } from './fork'
import { forkWorktreeNotice } from '../worktrees'
import { runTask } from './run'
import { launchFromAgentCall, teammateProfile } from './launch'
import { createIsolation, linkToParentTurn, newTaskState, taskView, type TaskInit } from './taskState'
import type { AgentTaskState, AgentTaskView, SubagentDefinition } from './types'

/**
 * The agent tasks of one session (docs/agents.md#subagents): spawning subagents with isolated contexts, running
 * them sync or in the background, exactly one task notification per background run, messages to
 * running and stopped agents, and stopping an agent with everything it owns.
 */
export class SubagentRuntime implements SubagentsPort {
  private readonly tasks = new Map<string, AgentTaskState>()
  /** Project context per directory, read once per session: a child's prompt shows the snapshot taken at its first use. */
  private readonly contexts = new Map<string, Promise<ProjectContext>>()
  private readonly listeners = new Set<() => void>()
  /** Spawns past the capacity check whose task is not registered yet (they await worktrees and context). */
  private starting = 0

  /**
   * Switches fork and coordinator mode (docs/agents.md#forks, docs/agents.md#coordinator-mode); coordinator wins, so forks are off with it.
   * Only the session calls this, before its leader's first turn (Session.setOrchestration).
   */
  setOrchestration(switches: { forkEnabled: boolean; coordinator: boolean }): void {
    this.options.coordinator = switches.coordinator
    this.options.forkEnabled = switches.forkEnabled && !switches.coordinator
  }

  constructor(readonly options: SubagentRuntimeOptions) {
    if (options.projectContext) this.contexts.set(options.cwd, Promise.resolve(options.projectContext))
  }

  /** Ms before a sync agent moves to the background (docs/agents.md#auto-background); 0 = never, always 0 when background work is disabled. */
  get autoBackgroundMs(): number {
    if (this.options.backgroundDisabled) return 0
    return this.options.autoBackgroundMs ?? DEFAULT_AUTO_BACKGROUND_MS
  }

  /**
   * Starts a subagent (docs/agents.md#context-isolation): new id, depth + 1, a clone of the parent's file-state cache,
   * its own AbortController (a sync child is also stopped with its parent's turn), empty history.
   * @returns the task; its `done` resolves when it has ended and cleaned up.
   */
  async spawn(spec: SpawnSpec): Promise<AgentTaskState> {
    return this.withCapacity(() => this.spawnAgent(spec))
  }

  /** Agents of this session that have not ended: running tasks, and spawns being prepared. */
  get runningCount(): number {
    let n = this.starting
    for (const task of this.tasks.values()) if (task.status === 'running') n++
    return n
  }

  /**
   * Runs `start` holding one slot of the session's concurrent-agent cap, taken before the first
   * await so agents launched in one assistant message cannot all slip past the check.
   * @throws ToolError when {@link runningCount} has reached the cap; nothing was started.
   */
  private async withCapacity<T>(start: () => Promise<T>): Promise<T> {
    const cap = this.options.maxConcurrentAgents ?? DEFAULT_MAX_CONCURRENT_AGENTS
    const running = this.runningCount
    if (running >= cap) {
      throw new ToolError(
        `${running} agents are already running in this session, the most it allows at once (${cap}). Wait for their task notifications, or stop one with TaskStop, before starting another; or do this part yourself.`
      )
    }
    this.starting++
    try {
      return await start()
    } finally {
      this.starting--
    }
  }

  private async spawnAgent(spec: SpawnSpec): Promise<AgentTaskState> {
    const { parent, definition } = spec
    const agentId = newAgentId()
    const depth = parent.depth + 1
    const { model, source } = this.options.resolveModel(definition, spec.model, parent.model)
    const pool =
      this.options.coordinator && parent.depth === 0 && this.options.toolPool ? this.options.toolPool : parent.tools()
    const tools = this.options.resolveTools(definition, pool, spec.isAsync, depth)
    const isolation = spec.isolated ? await createIsolation(parent.cwd, agentId) : undefined
    const cwd = isolation?.path ?? parent.cwd
    let context = this.contexts.get(cwd)
    if (!context) this.contexts.set(cwd, (context = readProjectContext(cwd)))
    const system = await renderSystemPrompt({
      cwd,
      model,
      rolePrompt: definition.systemPrompt,
      omitProjectContext: definition.omitClaudeMd,
      context: await context
    })
    // docs/agents.md#agent-definitions: the definition's own MCP servers, released when its run ends
    const mcp = await this.options.agentMcp?.open(definition)
    const task = this.createTask({
      parent,
      agentId,
      agentName: agentSlug(spec.description),
      agentType: definition.name,
      description: spec.description,
      model,
      modelSource: source,
      isAsync: spec.isAsync,
      cwd,
      messages: [{ role: 'user', content: [{ type: 'text', text: spec.prompt }] }],
      isolation
    })
    task.hooks = this.options.hooks?.start({
      agentId,
      agentType: definition.name,
      agentTranscriptPath: task.transcriptPath
    })
    mcpNotices(this.options.bus, task, mcp)
    task.config = {
      ...mcpRunConfig(tools, mcp),
      system,
      maxTurns: definition.maxTurns,
      mode: () => this.childMode(parent.mode(), definition)
    }
    task.done = runTask(this, task, false).finally(() => releaseIdle(task))
    this.changed()
    return task
  }

  /**
   * Resumes a subagent a previous process of this session left unfinished (restore after restart)
   * from its transcript, in the background, as SendMessage resumes a stopped agent (docs/agents.md#messages-to-a-subagent):
   * its definition's tools and prompt, `message` appended, one task notification to `parent` at
   * the end. Its model is the definition's, resolved again.
   * @throws ToolError when it runs already, or its type is a fork or no longer defined (the message says what to do).
   */
  async resumeFromTranscript(spec: ResumeSpec): Promise<void> {
    if (this.tasks.get(spec.agentId)?.status === 'running') throw new ToolError(`${spec.agentName} is already running.`)
    if (spec.agentType === 'fork')
      throw new ToolError(
        'A fork cannot be resumed after a restart (its prompt cache prefix is gone); fork the leader again.'
      )
    const definition = this.options.definitions().get(spec.agentType)
    if (!definition)
      throw new ToolError(`Its type "${spec.agentType}" is no longer defined; start a new subagent instead.`)
    const { parent } = spec
    const { model, source } = this.options.resolveModel(definition, undefined, parent.model)
    const tools = this.options.resolveTools(definition, parent.tools(), true, parent.depth + 1)
    const system = await renderSystemPrompt({
      cwd: parent.cwd,
      model,
      rolePrompt: definition.systemPrompt,
      omitProjectContext: definition.omitClaudeMd,
      context: await readProjectContext(parent.cwd)
    })
    this.tasks.delete(spec.agentId)
    const task = this.createTask({
      parent,
      agentId: spec.agentId,
      agentName: spec.agentName,
      agentType: definition.name,
      description: spec.agentName,
      model,
      modelSource: source,
      isAsync: true,
      cwd: parent.cwd,
      messages: []
    })
    task.notifyTo = parent
    task.pending.push(spec.message)
    // its definition's MCP servers again (docs/agents.md#agent-definitions), as at its first start
    const mcp = await this.options.agentMcp?.open(definition)
    mcpNotices(this.options.bus, task, mcp)
    task.config = {
      ...mcpRunConfig(tools, mcp),
      system,
      maxTurns: definition.maxTurns,
      mode: () => this.childMode(parent.mode(), definition)
    }
    task.done = runTask(this, task, true).finally(() => releaseIdle(task))
    this.changed()
  }

  /**
   * Starts a fork (docs/agents.md#forks): the parent's rendered system prompt and exact tool list, its model,
   * its whole history ending with the assistant message that called Agent, then the placeholder
   * results and the directive. Runs in the background, 200 turns at most, permission mode `bubble`.
   */
  async spawnFork(spec: ForkSpec): Promise<AgentTaskState> {
    return this.withCapacity(() => this.startFork(spec))
  }

  private async startFork(spec: ForkSpec): Promise<AgentTaskState> {
    const { parent } = spec
    const source = parent.forkSource()
    const agentId = newAgentId()
    const isolation = spec.isolated ? await createIsolation(parent.cwd, agentId) : undefined
    // Fork + worktree (docs/agents.md#forks): the inherited paths name the parent's checkout; say how to translate them.
    const notice = isolation ? forkWorktreeNotice(parent.cwd, isolation) : undefined
    const { messages, extraBreakpoint } = spec.fromPrompt
      ? buildPromptForkMessages(source.messages, spec.directive, notice)
      : buildForkMessages(source.messages, spec.directive, notice)
    const task = this.createTask({
      parent,
      agentId,
      agentName: agentSlug(spec.description),
      agentType: 'fork',
      description: spec.description,
      model: parent.model,
      modelSource: 'parent',
      isAsync: true,
      cwd: isolation?.path ?? parent.cwd,
      messages,
      isolation
    })
    task.config = {
      tools: [...parent.tools()],
      system: source.system,
      maxTurns: FORK_MAX_TURNS,
      mode: () => 'bubble',
      ...(extraBreakpoint ? { extraBreakpoint } : {})
    }
    task.hooks = this.options.hooks?.start({ agentId, agentType: 'fork', agentTranscriptPath: task.transcriptPath })
    task.done = runTask(this, task, false)
    this.changed()
    return task
  }

  /** Registers a new task under its parent (shared by spawn and spawnFork). */
  private createTask(init: TaskInit): AgentTaskState {
    const task = newTaskState(init, this.options)
    const parentTask = this.tasks.get(init.parent.agentId)
    parentTask?.children.add(init.agentId)
    this.tasks.set(init.agentId, task)
    // A parent stopped while this spawn was being prepared must not leave an orphan behind.
    if (parentTask?.controller.signal.aborted) task.controller.abort()
    if (!init.isAsync) linkToParentTurn(task)
    return task
  }

  /**
   * docs/permissions.md#permissions precedence: a parent in bypassPermissions or acceptEdits wins, else the definition's
   * mode, else default. A parent in plan mode keeps every child read-only: a definition cannot
   * lift a child out of the plan.
   */
  childMode(parentMode: PermissionMode, definition: SubagentDefinition): PermissionMode {
    if (parentMode === 'bypassPermissions' || parentMode === 'acceptEdits' || parentMode === 'plan') return parentMode
    return definition.permissionMode ?? 'default'
  }

  /**
   * Moves a running sync task to the background (docs/agents.md#auto-background): the parent continues, a notification
   * follows. Does nothing when background work is disabled: the parent keeps waiting.
   */
  background(agentId: string): void {
    const task = this.require(agentId)
    if (task.status !== 'running' || task.isAsync || this.options.backgroundDisabled) return
    task.isAsync = true
    task.unlinkParent?.()
    this.changed()
  }

  /**
   * Stops a running task and everything it owns — its background shells (verified gone) and its
   * child agents — and waits until it has ended (docs/agents.md#stopping-an-agent). A background task yields exactly one
   * `killed` notification.
   * @throws ToolError when the task is unknown or not running.
   */
  async stop(agentId: string): Promise<AgentTaskView> {
    const task = this.require(agentId)
    if (task.status !== 'running')
      throw new ToolError(
        `Task ${agentId} is not running (it ${task.status === 'killed' ? 'was stopped' : task.status}); there is nothing to stop.`
      )
    task.controller.abort()
    await Promise.all(
      [...task.children].map((id) =>
        this.tasks.get(id)?.status === 'running' ? this.stop(id).catch(() => undefined) : undefined
      )
    )
    await task.shells.killAll()
    await task.done
    return this.view(task)
  }

  /**
   * Esc in the agent's pane: stops the task as {@link stop} does (a subagent's turn is its task:
   * its parent hears `killed`, SendMessage resumes it), and the runner notes the interrupt in its
   * pane as it does for every agent (docs/loop.md#failure-paths).
   * @throws ToolError when the task is unknown or not running.
   */
  async interrupt(agentId: string): Promise<AgentTaskView> {
    const task = this.require(agentId)
    if (task.status === 'running') task.interrupted = true
    return this.stop(agentId)
  }

  /** The Agent tool's call without `name` (SubagentsPort): a subagent or a fork; see launch.ts. @throws ToolError for a refusal. */
  launch(call: AgentCall, parent: ParentAgent): Promise<ToolResult> {
    return launchFromAgentCall(this, parent, call)
  }

  /** The type and model a teammate spawned with `type` / `model` runs with (SubagentsPort). @throws ToolError for an unknown type. */
  teammateProfile(type: string, model: string | undefined, parent: ParentAgent): { agentType: string; model: string } {
    return teammateProfile(this, type, model, parent)
  }

  /**
   * A message to a subagent (docs/agents.md#messages-to-a-subagent): to a running one it is queued for its next tool round;
   * a stopped one is resumed from its transcript with the message appended, and that run ends
   * with one notification to the sender.
   * @throws ToolError for an unknown agent id.
   */
  sendMessage(agentId: string, text: string, from: ParentAgent): 'queued' | 'resumed' {
    const task = this.require(agentId)
    if (task.status === 'running') {
      task.pending.push(text)
      return 'queued'
    }
    task.status = 'running'
    task.isAsync = true
    task.notified = false
    task.interrupted = false
    task.notifyTo = from
    task.controller = new AbortController()
    task.pending.push(text)
    // its inline MCP servers were stopped when its last run ended: its tools start them again on use
    task.done = runTask(this, task, true).finally(() => releaseIdle(task))
    this.changed()
    return 'resumed'
  }

  /** The task, for tools. @throws ToolError naming the known ids when it does not exist. */
  require(agentId: string): AgentTaskState {
    const task = this.tasks.get(agentId)
    if (!task) {
      const known = [...this.tasks.keys()]
      throw new ToolError(
        `No agent task with id ${agentId}. ${known.length ? `Known tasks: ${known.join(', ')}.` : 'No agent has been spawned in this session.'}`
      )
    }
    return task
  }

  get(agentId: string): AgentTaskState | undefined {
    return this.tasks.get(agentId)
  }

  /** Every task of the session, as views. */
  list(): AgentTaskView[] {
    return [...this.tasks.values()].map((t) => this.view(t))
  }

  /** True while any task runs. */
  anyRunning(): boolean {
    return [...this.tasks.values()].some((t) => t.status === 'running')
  }

  /** Stops every running task (session end). */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.tasks.values()]
        .filter((t) => t.status === 'running')
        .map((t) => this.stop(t.agentId).catch(() => undefined))
    )
    await this.options.hooks?.stopAll()
  }

  /** Called after any task starts, changes mode or ends. */
  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener)
    return toDisposable(() => this.listeners.delete(listener))
  }

  /** @internal */
  changed(): void {
    for (const l of [...this.listeners]) l()
  }

  /** The task as tools and the UI see it: its internal state (controller, shells, history…) left out. */
  view(task: AgentTaskState): AgentTaskView {
    return taskView(task)
  }
}
