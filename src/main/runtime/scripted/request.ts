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

/** One message of the conversation: a string or content blocks. */
export const MessageParamSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(ContentBlockSchema)])
})
/** A validated message. */
export type MessageParam = z.infer<typeof MessageParamSchema>

/** The request body; `max_tokens` is required as by the API, but the answer is not cut to it. */
export const MessagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(MessageParamSchema).min(1),
  system: z.union([z.string(), z.array(ContentBlockSchema)]).optional(),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  stream: z.boolean().optional()
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

/** The newest user message's texts joined by newlines, where `when` conditions are looked for (docs/scenarios.md#scripted-model-scenarios). */
export function newestUserText(request: MessagesRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]
    if (message.role === 'user') return messageTexts(message).join('\n')
  }
  return ''
}
