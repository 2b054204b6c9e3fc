import { type BackgroundShells } from '../pty'
import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { ParentAgent, FileStateCache, Tool } from '../tools'
import type { Usage } from '../../../shared/events'
import type { PermissionMode } from '../../../shared/permissions'
import type { Worktree } from '../worktrees'
import type { SubagentHookHandle } from '../hooks'
import type { McpServerConfig } from '../mcp'

/** A subagent definition as the runtime uses it (docs/agents.md#agent-definitions). */
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
  /** MCP servers it gets besides its parent's tools: configured names, or inline servers started for it. */
  mcpServers?: Array<string | { name: string; config: McpServerConfig }>
}

/** Life-cycle status of an agent task (docs/agents.md#task-notifications notification statuses plus `running`). */
export type AgentTaskStatus = 'running' | 'completed' | 'failed' | 'killed'

/** A running or ended subagent as the registry tracks it (docs/agents.md#sync-and-background-runs, docs/agents.md#auto-background, docs/agents.md#task-notifications, docs/agents.md#messages-to-a-subagent, docs/agents.md#stopping-an-agent). */
export interface AgentTaskView {
  agentId: string
  agentName: string
  agentType: string
  description: string
  parentId: string
  depth: number
  model: string
  /** What decided the model: `env`, `argument`, `definition` or `parent` (docs/agents.md#agent-definitions). */
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
  /** The agent's root: the workspace, or its own worktree (docs/agents.md#worktree-isolation). */
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
  /** A notification was sent for the current run (exactly one per run, docs/agents.md#task-notifications). */
  notified: boolean
  /** The current run was stopped by the agent's interrupt (Esc, {@link SubagentRuntime.interrupt}): its pane says so. */
  interrupted?: boolean
  /** Who gets the notification of a run triggered by SendMessage (docs/agents.md#messages-to-a-subagent). */
  notifyTo?: ParentAgent
  /** Detaches a sync task from its parent's turn (when it moves to the background). */
  unlinkParent?: () => void
  /** How the task runs, kept for resumes. */
  config?: TaskRunConfig
  /** The worktree handle while the agent runs isolated. */
  isolation?: Worktree
  /** Its SubagentStart/SubagentStop pair (docs/hooks.md#hooks). */
  hooks?: SubagentHookHandle
}

/** The fixed parts of a task's runs: tools, rendered system prompt, turn cap, mode. */
export interface TaskRunConfig {
  tools: Tool[]
  system: TextBlockParam[]
  maxTurns?: number
  mode: () => PermissionMode
  /** A fork's breakpoint on its last placeholder tool_result (docs/agents.md#forks). */
  extraBreakpoint?: { messageIndex: number; blockIndex: number }
  /** Stops the servers started for it (its inline MCP servers) after each run; a resume starts them again on use. */
  release?: () => Promise<void>
}
