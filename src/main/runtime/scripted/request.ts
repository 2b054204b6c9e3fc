import { z } from 'zod'

/**
 * The part of a Messages API request body (POST /v1/messages) the scripted server reads. Objects
 * are loose: every other field the SDK or the runtime sends is accepted and kept in the log.
 */
const CacheControlSchema = z.looseObject({ type: z.string() })

/** A content block of any type; only `type` is required here. */
export const ContentBlockSchema = z.looseObject({ type: z.string(), cache_control: CacheControlSchema.nullish() })
/** A validated content block (any type; other fields kept). */
export type ContentBlock = z.infer<typeof ContentBlockSchema>

/**
 * One message of the conversation: a string or content blocks. `system` is the API's
 * mid-conversation system message (beta `mid-conversation-system-2026-04-07`), which Claude Code
 * sends with real content, such as the agent types or a peer's message (docs/model.md#claude-code).
 */
export const MessageParamSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(ContentBlockSchema)])
})
/** A validated message. */
export type MessageParam = z.infer<typeof MessageParamSchema>

/**
 * `thinking` as the API takes it: `enabled` with a budget, `adaptive` (the model decides) or
 * `disabled`. The scripted model thinks nothing either way; a wrong shape is refused as by the API.
 */
export const ThinkingSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('enabled'), budget_tokens: z.number().int().positive() }),
  z.looseObject({ type: z.literal('adaptive') }),
  z.looseObject({ type: z.literal('disabled') })
])

/** A structured-output format: the answer's text must be JSON valid for `schema` (a JSON Schema object). */
export const JsonSchemaFormatSchema = z.looseObject({
  type: z.literal('json_schema'),
  schema: z.record(z.string(), z.unknown())
})

/** `output_config`: `effort` (how hard the model works, ignored here) and an optional structured-output `format`. */
export const OutputConfigSchema = z.looseObject({
  effort: z.string().min(1).optional(),
  format: JsonSchemaFormatSchema.nullish()
})

/**
 * The request body; `max_tokens` is required as by the API, but the answer is not cut to it.
 * `context_management` and `metadata` are accepted as sent (kept in the log, no effect here).
 */
export const MessagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(MessageParamSchema).min(1),
  system: z.union([z.string(), z.array(ContentBlockSchema)]).optional(),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  stream: z.boolean().optional(),
  thinking: ThinkingSchema.optional(),
  output_config: OutputConfigSchema.optional(),
  context_management: z.looseObject({ edits: z.array(z.looseObject({ type: z.string() })).optional() }).optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional()
})
/** A validated request body. */
export type MessagesRequest = z.infer<typeof MessagesRequestSchema>

/** Text of a tool_result block: its string content, or its text blocks joined by newlines. */
export function toolResultText(block: ContentBlock): string {
  const content = block.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n')
}

/** Every text a message carries, in order: text blocks and tool_result texts (a string content is one text). */
export function messageTexts(message: MessageParam): string[] {
  if (typeof message.content === 'string') return [message.content]
  const texts: string[] = []
  for (const block of message.content) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
    else if (block.type === 'tool_result') texts.push(toolResultText(block))
  }
  return texts
}

/**
 * The newest user turn's texts joined by newlines, where `when` conditions are looked for
 * (docs/scenarios.md#turn-selection): every user and system message after the newest assistant
 * message, since a mid-conversation system message (a peer's message, in Claude Code) belongs to
 * the turn it arrives in.
 */
export function newestUserText(request: MessagesRequest): string {
  const texts: string[] = []
  let i = request.messages.length - 1
  while (i >= 0 && request.messages[i].role === 'assistant') i-- // a prefilled answer is not the turn
  for (; i >= 0; i--) {
    const message = request.messages[i]
    if (message.role === 'assistant') break
    texts.unshift(...messageTexts(message))
  }
  return texts.join('\n')
}
