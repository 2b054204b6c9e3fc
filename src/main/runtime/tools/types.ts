import type { ImageBlockParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { z } from 'zod'
import type { PermissionSubject } from '../../../shared/permissions'
import type { SandboxMark, Usage } from '../../../shared/events'
import type { ModelClient } from '../model'
import type { BackgroundShells, PtyHost } from '../pty'
import type { FileStateCache } from './files/fileState'
import type { AgentServices } from './ports'
import type { SandboxSettings } from '../permissions'

/**
 * What a tool call may use (docs/tools.md#tools, docs/agents.md#context-isolation). One context per agent; the loop adds the per-call
 * fields (`toolUseId`, `signal`, `onOutput`).
 */
export interface ToolContext {
  agentId: string
  agentName: string
  /** The agent's root (workspace root, or its worktree when isolated). Relative paths resolve here; Bash runs here. Absolute, canonical. */
  cwd: string
  /** Aborts the call: the tool must stop its work (kill its process group) and return promptly. */
  signal: AbortSignal
  /** Files this agent has read in this context, for the read-before-write rule of Write/Edit. */
  fileState: FileStateCache
  /** The process-wide owner of every PTY (never a worker thread: STACK.md). */
  pty: PtyHost
  /** Background shells this agent owns; killed with the agent. */
  shells: BackgroundShells
  /** Id of the tool_use block being executed. */
  toolUseId: string
  /** Raw terminal output (ANSI intact) for the agent's pane; absent when nobody watches. */
  onOutput?: (data: string) => void
  /** The session's agent services, for the tools that spawn, stop or message agents (Agent, TaskStop, SendMessage). */
  services?: AgentServices
  /** The calling agent's model access, for tools that ask the model on their own (WebFetch, WebSearch); the loop sets it per call. */
  sideModel?: SideModel
  /**
   * The Bash sandbox's settings, this session's temp folder and the agent's network proxy socket
   * (docs/sandbox.md); absent = no sandbox, no `proxySocket` = no network inside it.
   */
  sandbox?: { settings: SandboxSettings; tmpDir: string; proxySocket?: string }
}

/**
 * Model access for a tool's own request (docs/tools.md#web-tools): the caller's client, and where the
 * request's usage is counted (the caller's budget and costs, as a response of its own would be).
 */
export interface SideModel {
  client: ModelClient
  /** Counts one response of a tool's own request; `costUsd` in USD. */
  recordUsage(usage: Usage, costUsd: number, model: string): void
}

/**
 * What a tool call returns to the model. `isError` marks a failure the model can act on.
 * `content` is the text form (events, panes); `blocks`, when set, is what the model gets instead
 * (text and image blocks: an MCP tool's image, docs/tools.md#mcp-servers).
 */
export interface ToolResult {
  content: string
  isError?: boolean
  blocks?: Array<TextBlockParam | ImageBlockParam>
  /** A Bash command's, while the sandbox is on: how it ran (docs/sandbox.md#the-pane-mark); the `tool_result` event carries it. */
  sandbox?: SandboxMark
}

/**
 * A tool (docs/tools.md#tools): name, zod input schema (sent to the API as JSON Schema), read-only and
 * concurrency flags, a permission subject, and `call`. A failure the model can act on is thrown
 * as {@link ToolError} (or returned with `isError`); any other throw is a bug and ends the loop.
 */
export interface Tool<I = unknown> {
  readonly name: string
  /** Shown to the model in the tools list. */
  readonly description: string
  readonly inputSchema: z.ZodType<I>
  /** A JSON Schema sent to the model as is instead of `inputSchema`'s (an MCP server's own schema). */
  readonly inputJsonSchema?: Record<string, unknown>
  /** True when the call changes nothing outside the agent's own state. */
  isReadOnly(input: I): boolean
  /** True when calls of one assistant message may run in parallel with it (docs/loop.md#the-agent-loop). */
  isConcurrencySafe(input: I): boolean
  /** What the call touches, for the permission engine (docs/permissions.md#permissions). Relative paths are resolved against `ctx.cwd` by the engine. */
  permissionSubject(input: I, ctx: Pick<ToolContext, 'cwd'>): PermissionSubject
  call(input: I, ctx: ToolContext): Promise<ToolResult>
}

/**
 * A tool failure the model can act on: becomes a tool_result with `is_error: true` and this
 * message (docs/loop.md#the-agent-loop: tool failures go back as data; only bugs end the loop).
 */
export class ToolError extends Error {
  override readonly name = 'ToolError'
  constructor(message: string) {
    super(message)
  }
}
