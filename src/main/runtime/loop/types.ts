import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { RuntimeEventInput, Usage } from '../../../shared/events'
import type { ModelClient, ModelError, AgentIdentity } from '../model'
import type { Tool, ToolContext } from '../tools'
import type { Budget } from './budget'
import type { CutText } from './fullText'
import type { WithoutAgent } from '../events'

/** Runtime events the loop itself produces (the runner stamps the agent on them). */
export type LoopRuntimeEvent = WithoutAgent<
  Extract<
    RuntimeEventInput,
    {
      type:
        | 'assistant_text'
        | 'tool_call'
        | 'tool_result'
        | 'tool_output'
        | 'usage'
        | 'permission_request'
        | 'permission_decided'
        | 'notice'
        | 'agent_state'
    }
  >
>

/** What `query()` yields: runtime events plus streaming detail the event stream does not carry. */
export type LoopEvent =
  | LoopRuntimeEvent
  | { type: 'text_delta'; text: string }
  | { type: 'message'; role: 'assistant' | 'user'; message: MessageParam }
  /**
   * The history was compacted (docs/loop.md#the-agent-loop): older messages replaced by a summary (`summary`, '' when
   * only texts were cut), oversized texts cut (`cut`, each kept whole in a file); `messages` is the
   * whole new history, `replaced` the old length − the new length + 1.
   */
  | { type: 'compacted'; summary: string; replaced: number; cut: CutText[]; messages: MessageParam[] }

/** How a `query()` run ended: one case of a union, never flags. */
export type QueryEnd =
  | { reason: 'completed'; finalText: string; turns: number }
  | { reason: 'max_turns'; finalText: string; turns: number }
  | { reason: 'budget'; finalText: string; turns: number }
  | { reason: 'aborted'; finalText: string; turns: number }
  | { reason: 'model_error'; error: ModelError; finalText: string; turns: number }

/** The answer of a {@link PermissionGate}: run the call, or report `message` to the model. */
export type GateDecision = { behavior: 'allow' } | { behavior: 'deny'; message: string }

/**
 * Decides whether one tool call may run (docs/permissions.md#permissions), asking a person if needed. It emits its
 * `permission_request`/`permission_decided` events through `emit` so they stay in order with the
 * loop's own events.
 */
export type PermissionGate = (
  call: { tool: Tool; input: unknown; toolUseId: string },
  emit: (event: LoopEvent) => void,
  signal: AbortSignal
) => Promise<GateDecision>

/** Everything one `query()` run needs. */
export interface QueryParams {
  agent: AgentIdentity
  model: string
  system: TextBlockParam[]
  tools: Tool[]
  /** The conversation so far; the loop appends to it in place (user prompt must already be last). */
  messages: MessageParam[]
  /**
   * The agent's transcript (.jsonl), where every message the loop yields is recorded before the
   * loop goes on. A text too big for the context window is cut only after it is recorded there,
   * and is kept whole in a folder beside it (`fullTextDir`); the cut's marker names both.
   */
  transcriptPath: string
  client: ModelClient
  /** Model requests allowed in this run. Default: no limit. */
  maxTurns?: number
  /** Output cap per response, tokens. Default 8192. */
  maxTokens?: number
  budget?: Budget
  signal: AbortSignal
  /** The agent's tool context, without the per-call fields. */
  toolContext: Omit<ToolContext, 'signal' | 'toolUseId' | 'onOutput'>
  gate: PermissionGate
  /**
   * Called at each turn boundary, before the request: the agent's tools anew when they changed
   * (an MCP server's list changed, docs/tools.md#mcp-servers), else undefined. The loop then
   * replaces `tools` with them; a request under way never changes.
   */
  refreshTools?: () => Promise<Tool[] | undefined>
  /** Messages queued for this agent (task notifications, teammate messages), taken at each turn boundary. */
  drainPending?: () => string[]
  /** A fork's fourth cache breakpoint, on its last placeholder tool_result (docs/loop.md#the-agent-loop, docs/agents.md#forks). */
  extraBreakpoint?: { messageIndex: number; blockIndex: number }
  /** Context window in tokens; compaction starts past 85% of it, and no request passes it. Default: the model's. */
  contextWindow?: number
  /** Called with each usage and its cost, in USD, after every response. */
  onUsage?: (usage: Usage, costUsd: number, model: string) => void
}
