import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  Tool as ApiTool,
  WebSearchTool20250305,
  WebSearchResultBlockParam
} from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '../../../shared/events'

export type { ContentBlockParam, MessageParam, TextBlockParam, ApiTool, WebSearchTool20250305 }

export type { AgentIdentity } from '../scripted'

/** One Messages API request as the loop builds it (before cache breakpoints are marked). */
export interface ModelRequest {
  model: string
  /** Output cap in tokens. */
  maxTokens: number
  system: TextBlockParam[]
  /** The agent's tools, and server tools passed through to the API (WebSearch's `web_search_20250305`). */
  tools: Array<ApiTool | WebSearchTool20250305>
  messages: MessageParam[]
}

/** An assistant message as kept in history: only the fields the API accepts back. */
export interface AssistantMessage {
  role: 'assistant'
  content: Array<
    | { type: 'text'; text: string }
    | { type: 'tool_use'; id: string; name: string; input: unknown }
    | ServerToolUse
    | WebSearchToolResult
  >
}

/** A server tool's call, run by the API itself (docs/tools.md#web-tools: a web search). */
export interface ServerToolUse {
  type: 'server_tool_use'
  id: string
  name: 'web_search'
  input: unknown
}

/**
 * The API's answer to a web search: its results, or an error object (`{type:
 * "web_search_tool_result_error", error_code}`). Kept whole: the API wants it back untouched.
 */
export interface WebSearchToolResult {
  type: 'web_search_tool_result'
  tool_use_id: string
  content: WebSearchResultBlockParam[] | { type: 'web_search_tool_result_error'; error_code: string }
}

/** What {@link ModelClient.stream} yields while one response streams in. */
export type ModelStreamEvent =
  | { type: 'text_delta'; text: string }
  /** A failed attempt that is retried: `attempt` counts from 1; `delayMs` when this client waits (the SDK's own backoff is not known). */
  | { type: 'retry'; attempt: number; reason: string; delayMs?: number }
  | { type: 'response'; message: AssistantMessage; stopReason: string | null; usage: Usage; model: string }
