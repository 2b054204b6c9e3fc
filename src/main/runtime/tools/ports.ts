import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { PermissionMode } from '../../../shared/permissions'
import type { TeamContext } from '../teamStore'
import type { FileStateCache } from './files/fileState'
import type { Tool, ToolResult } from './types'

/*
 * The ports of the agent tools (docs/design.md#layers): what Agent, SendMessage, TaskStop and the
 * team tools need from the agents around them, declared here as interfaces so the tools layer
 * never imports the subsystems that implement them (`subagents/` implements SubagentsPort,
 * `teammates/` TeammatesPort, a session or teammate assembles AgentServices).
 */

/**
 * An agent that can spawn children and receive their task notifications: the leader, or a
 * subagent that was given the Agent tool (docs/agents.md#agent-definitions nesting).
 */
export interface ParentAgent {
  agentId: string
  agentName: string
  /** 0 for the main agent. */
  depth: number
  /** The agent's root directory (its worktree when isolated), absolute. */
  cwd: string
  model: string
  mode(): PermissionMode
  /** The parent's own tools, in order (a child's tools are resolved from them). */
  tools(): readonly Tool[]
  fileState: FileStateCache
  /** Signal of the parent's current turn: sync children stop with it (docs/agents.md#stopping-an-agent). */
  turnSignal(): AbortSignal
  /**
   * Queues a user-message text block for the parent's next turn boundary (docs/agents.md#task-notifications); an idle
   * parent is woken at once.
   */
  enqueue(text: string): void
  /** True for a background agent: it cannot prompt a person in its own name (docs/permissions.md#permissions). */
  readonly isAsync: boolean
  /** True for a fork (its query source is `agent:builtin:fork`): a fork cannot fork (docs/agents.md#forks). */
  readonly isFork: boolean
  /** The agent's rendered system prompt and its history as the next request sends them, for forks (docs/agents.md#forks). */
  forkSource(): { system: TextBlockParam[]; messages: MessageParam[] }
}

/** An Agent call as the tool validated it (Claude Code's Agent tool input, docs/tools.md). */
export interface AgentCall {
  description: string
  prompt: string
  subagent_type?: string
  model?: string
  run_in_background?: boolean
  isolation?: 'worktree'
}

/** What the agent tools ask of the session's subagents (implemented by `subagents/`' SubagentRuntime). */
export interface SubagentsPort {
  /**
   * Starts the subagent or fork an Agent call without `name` asks for (its type, sync or in the
   * background, isolated or not) and returns the tool's result: the final answer of a sync agent,
   * `async_launched` for one in the background.
   * @throws ToolError for a refusal the caller can act on (unknown type, too deep, a fork that forks).
   */
  launch(call: AgentCall, parent: ParentAgent): Promise<ToolResult>
  /**
   * The agent type and model a teammate spawned with `subagent_type` / `model` runs with.
   * @throws ToolError for an unknown type, naming the known ones.
   */
  teammateProfile(type: string, model: string | undefined, parent: ParentAgent): { agentType: string; model: string }
  /** Delivers SendMessage to a subagent by id: queued for a running one, or resumes a stopped one. @throws ToolError for an unknown id. */
  sendMessage(agentId: string, text: string, from: ParentAgent): 'queued' | 'resumed'
  /** Stops a running agent task and everything it owns (TaskStop). @throws ToolError for an unknown or ended task. */
  stop(agentId: string): Promise<{ agentId: string; description: string }>
}

/**
 * A teammate spawn as the Agent tool asks for it when it has a `name` (docs/teams.md#spawning-a-teammate);
 * implemented by `teammates/`' supervisor.
 */
export interface TeammateSpawnRequest {
  name: string
  prompt: string
  /** Short description, the initial message's summary. */
  description: string
  agentType: string
  /** Resolved model id. */
  model: string
  /** `plan` means plan approval required; else the mode it starts in. */
  mode: PermissionMode
  backend?: 'worker' | 'process'
  /** A host of the `teammateHosts` setting to run it on over SSH (docs/hosts.md); absent: here. */
  host?: string
}

/** What the Agent tool asks of the leader's teammates. */
export interface TeammatesPort {
  /** Spawns a named teammate into the current team; its prompt goes to its inbox. @throws Error naming what blocked the spawn. */
  spawn(request: TeammateSpawnRequest): Promise<{ name: string; agentId: string; backend: 'worker' | 'process' }>
}

/** What agent-management tools reach through their context. */
export interface AgentServices {
  subagents: SubagentsPort
  /** The calling agent, as a parent of what it spawns. */
  self: ParentAgent
  /** The session's team and task list, for SendMessage to teammates and the task/team tools (docs/teams.md); absent for an agent outside a team's session. */
  team?: TeamContext
  /** The leader's teammates: present for the session's main agent when teammates are enabled. */
  teammates?: TeammatesPort
}
