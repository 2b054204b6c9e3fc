import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '../../../shared/events'
import type { PermissionMode } from '../../../shared/permissions'
import type { FileStateCache } from '../tools/fileState'
import type { BackgroundShells, Tool } from '../tools/types'
import type { Worktree } from '../worktrees'
import type { SubagentHookHandle } from '../hooks'

/**
 * An agent that can spawn children and receive their task notifications: the leader, or a
 * subagent that was given the Agent tool (SPEC §5 nesting).
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
  /** Signal of the parent's current turn: sync children stop with it (SPEC §6.7). */
  turnSignal(): AbortSignal
  /**
   * Queues a user-message text block for the parent's next turn boundary (SPEC §6.5); an idle
   * parent is woken at once.
   */
  enqueue(text: string): void
  /** True for a background agent: it cannot prompt a person in its own name (SPEC §4). */
  readonly isAsync: boolean
  /** True for a fork (its query source is `agent:builtin:fork`): a fork cannot fork (SPEC §7). */
  readonly isFork: boolean
  /** The agent's rendered system prompt and its history as the next request sends them, for forks (SPEC §7). */
  forkSource(): { system: TextBlockParam[]; messages: MessageParam[] }
}

/** A subagent definition as the runtime uses it (SPEC §5). */
export interface SubagentDefinition {
  name: string
  description: string
  /** Undefined = inherit every tool of the parent. */
  tools?: string[]
  disallowedTools: string[]
  /** `inherit`, an alias or a model id. */
  model?: string
  permissionMode?: PermissionMode
  maxTurns?: number
  background: boolean
  isolation?: 'worktree'
  omitClaudeMd: boolean
  systemPrompt: string
}

/** Life-cycle status of an agent task (SPEC §6.5 notification statuses plus `running`). */
export type AgentTaskStatus = 'running' | 'completed' | 'failed' | 'killed'

/** A running or ended subagent as the registry tracks it (SPEC §6.3–6.7). */
export interface AgentTaskView {
  agentId: string
  agentName: string
  agentType: string
  description: string
  parentId: string
  depth: number
  model: string
  /** What decided the model: `env`, `argument`, `definition` or `parent` (SPEC §5). */
  modelSource: string
  status: AgentTaskStatus
  isAsync: boolean
  startedAt: number
  endedAt?: number
  usage: Usage
  costUsd: number
  toolUses: number
  transcriptPath: string
  finalText: string
  denied: string[]
  /** The agent's root: the workspace, or its own worktree (SPEC §8). */
  cwd: string
  /** The isolated worktree, and after the agent ended whether it was kept. */
  worktree?: { path: string; branch: string; kept?: boolean; reason?: string }
}

/** Internal state of a task beyond its view. */
export interface AgentTaskState extends AgentTaskView {
  parent: ParentAgent
  controller: AbortController
  shells: BackgroundShells
  fileState: FileStateCache
  children: Set<string>
  pending: string[]
  messages: MessageParam[]
  /** Resolves once the task has ended and cleaned up. */
  done: Promise<void>
  /** A notification was sent for the current run (exactly one per run, SPEC §6.5). */
  notified: boolean
  /** Who gets the notification of a run triggered by SendMessage (SPEC §6.6). */
  notifyTo?: ParentAgent
  /** Detaches a sync task from its parent's turn (when it moves to the background). */
  unlinkParent?: () => void
  /** How the task runs, kept for resumes. */
  config?: TaskRunConfig
  /** The worktree handle while the agent runs isolated. */
  isolation?: Worktree
  /** Its SubagentStart/SubagentStop pair (SPEC §9.9). */
  hooks?: SubagentHookHandle
}

/** The fixed parts of a task's runs: tools, rendered system prompt, turn cap, mode. */
export interface TaskRunConfig {
  tools: Tool[]
  system: TextBlockParam[]
  maxTurns?: number
  mode: () => PermissionMode
  /** A fork's breakpoint on its last placeholder tool_result (SPEC §7). */
  extraBreakpoint?: { messageIndex: number; blockIndex: number }
}
