import { randomBytes } from 'node:crypto'
import { FAST_MODEL, ModelError, costOf, type AssistantMessage, type ModelRequest } from '../../model'
import { ToolError, type ToolContext } from '../types'

/** One request a tool makes to the model as an agent of its own (docs/tools.md#web-tools). */
export interface SideRequest {
  /** The agent's name and type for the scripted model: `web-fetch`, `web-search`. */
  agent: string
  system: string
  /** The one user message. */
  prompt: string
  /** Server tools passed through to the request (WebSearch's `web_search_20250305`). */
  tools?: ModelRequest['tools']
  /** Output cap, tokens. */
  maxTokens: number
}

/**
 * Sends one request to the fast model ({@link FAST_MODEL}) as its own agent: name and type
 * `request.agent`, a fresh id (`a` + 16 hex digits) per call, the caller's working directory. So
 * the scripted model picks its script by that name, `type:<name>` or `*`, and it never takes the
 * calling agent's turns. Its usage is counted against the caller.
 * @throws ToolError when the tool has no model access or the request fails (the model's reason in it).
 */
export async function sideRequest(request: SideRequest, ctx: ToolContext): Promise<AssistantMessage> {
  const side = ctx.sideModel
  if (!side) throw new ToolError(`${request.agent} needs the model, and this agent's tools have no model access.`)
  const agent = { id: `a${randomBytes(8).toString('hex')}`, name: request.agent, type: request.agent, cwd: ctx.cwd }
  try {
    for await (const event of side.client.stream(
      {
        model: FAST_MODEL,
        maxTokens: request.maxTokens,
        system: [{ type: 'text', text: request.system }],
        tools: request.tools ?? [],
        messages: [{ role: 'user', content: request.prompt }]
      },
      { agent, signal: ctx.signal }
    )) {
      if (event.type !== 'response') continue
      side.recordUsage(event.usage, costOf(event.model, event.usage), event.model)
      return event.message
    }
  } catch (error) {
    if (!(error instanceof ModelError)) throw error
    if (error.kind === 'aborted') throw new ToolError('The request was aborted.')
    throw new ToolError(`The model could not answer for ${request.agent}: ${error.message}`)
  }
  throw new ToolError(`The model stream for ${request.agent} ended without a response.`)
}

/** The text blocks of an answer, joined by blank lines. */
export function answerText(message: AssistantMessage): string {
  return message.content
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('\n\n')
    .trim()
}
