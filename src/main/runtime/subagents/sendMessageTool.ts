import { z } from 'zod'
import { ToolError, type Tool } from '../tools/types'

/** SendMessage input (SPEC §3); teammates' structured messages come with teams. */
export const SendMessageInputSchema = z.object({
  to: z.string().describe('Recipient: a subagent id (a + 16 hex digits)'),
  message: z.union([z.string(), z.record(z.string(), z.unknown())]).describe('The message text'),
  summary: z.string().optional()
})

const AGENT_ID = /^a[0-9a-f]{16}$/

/**
 * SendMessage to a subagent by id (SPEC §6.6): a running one gets it at its next tool round; a
 * stopped one is resumed from its transcript with the message, and that run ends with one task
 * notification to the sender. Messages to teammates need a team (a later capability).
 */
export const SendMessageTool: Tool<z.infer<typeof SendMessageInputSchema>> = {
  name: 'SendMessage',
  description: 'Send a message to a subagent you started, by its agent id: a running agent reads it at its next step; a finished one is resumed with it and reports back with a task notification.',
  inputSchema: SendMessageInputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  async call(input, ctx) {
    if (!ctx.services) throw new ToolError('SendMessage is not available to this agent.')
    if (!input.to.trim()) throw new ToolError('`to` is empty: name the agent id to message.')
    if (!AGENT_ID.test(input.to)) throw new ToolError(`"${input.to}" is not a subagent id (a + 16 hex digits). Messages to teammates need an agent team, which this version does not run yet.`)
    if (typeof input.message !== 'string') throw new ToolError('Structured messages go to teammates only; send a subagent plain text.')
    const text = `Message from ${ctx.services.self.agentName}:\n${input.message}`
    const how = ctx.services.subagents.sendMessage(input.to, text, ctx.services.self)
    return { content: how === 'queued' ? `Message queued for ${input.to}; it reads it at its next step.` : `${input.to} had stopped; it was resumed with your message and will report back with a task notification.` }
  }
}
