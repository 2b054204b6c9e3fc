import { z } from 'zod'
import { sendToTeam, StructuredMessageSchema } from '../team/sendToTeam'
import { ToolError, type Tool } from '../types'

/** SendMessage input (docs/tools.md#tools): plain text, or one of the team protocol's structured messages. */
export const SendMessageInputSchema = z.object({
  to: z.string().describe('Recipient: a teammate\'s name, "*" for every teammate, or a subagent id (a + 16 hex digits)'),
  message: z.union([z.string(), StructuredMessageSchema]).describe('The message text, or a structured shutdown_request / shutdown_response / plan_approval_response'),
  summary: z.string().optional().describe('A 5-10 word preview of a message to teammates')
})

const AGENT_ID = /^a[0-9a-f]{16}$/

/**
 * SendMessage (docs/agents.md#messages-to-a-subagent, docs/teams.md#sendmessage-between-teammates). To a subagent by id: a running one gets it at its next tool
 * round; a stopped one is resumed from its transcript with the message, and that run ends with
 * one task notification to the sender. To a teammate's name or `*`: delivered through the team's
 * mailbox with docs/teams.md#sendmessage-between-teammates's validations (see `sendToTeam`).
 */
export const SendMessageTool: Tool<z.infer<typeof SendMessageInputSchema>> = {
  name: 'SendMessage',
  description: 'Send a message to a teammate by name ("*" for the whole team), or to a subagent you started by its agent id: a running agent reads it at its next step; a finished subagent is resumed with it and reports back with a task notification.',
  inputSchema: SendMessageInputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  async call(input, ctx) {
    if (!ctx.services) throw new ToolError('SendMessage is not available to this agent.')
    if (!input.to.trim()) throw new ToolError('`to` is empty: name a teammate, "*" for the whole team, or a subagent id.')
    if (!AGENT_ID.test(input.to)) {
      if (!ctx.services.team) throw new ToolError(`"${input.to}" is not a subagent id (a + 16 hex digits), and this agent is not in a team.`)
      return sendToTeam(ctx.services.team, input, ctx)
    }
    if (typeof input.message !== 'string') throw new ToolError('Structured messages go to teammates only; send a subagent plain text.')
    const text = `Message from ${ctx.services.self.agentName}:\n${input.message}`
    const how = ctx.services.subagents.sendMessage(input.to, text, ctx.services.self)
    return { content: how === 'queued' ? `Message queued for ${input.to}; it reads it at its next step.` : `${input.to} had stopped; it was resumed with your message and will report back with a task notification.` }
  }
}
