import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  Tool as ApiTool
} from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '../../../shared/events'

export type { ContentBlockParam, MessageParam, TextBlockParam, ApiTool }

export type { AgentIdentity } from '../scripted'

/** One Messages API request as the loop builds it (before cache breakpoints are marked). */
export interface ModelRequest {
  model: string
  /** Output cap in tokens. */
  maxTokens: number
  system: TextBlockParam[]
  tools: ApiTool[]
  messages: MessageParam[]
}

/** An assistant message as kept in history: only the fields the API accepts back. */
export interface AssistantMessage {
  role: 'assistant'
  content: Array<{ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown }>
}

/** What {@link ModelClient.stream} yields while one response streams in. */
export type ModelStreamEvent =
  | { type: 'text_delta'; text: string }
  /** A failed attempt that is retried: `attempt` counts from 1; `delayMs` when this client waits (the SDK's own backoff is not known). */
  | { type: 'retry'; attempt: number; reason: string; delayMs?: number }
  | { type: 'response'; message: AssistantMessage; stopReason: string | null; usage: Usage; model: string }
