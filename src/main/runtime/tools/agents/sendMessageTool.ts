import { z } from 'zod'
import { sendToTeam, StructuredMessageSchema } from '../team/sendToTeam'
import { ToolError, type Tool, type ToolContext, type ToolResult } from '../types'

/** SendMessage input (docs/tools.md#tools): plain text, or one of the team protocol's structured messages. */
export const SendMessageInputSchema = z.object({
  to: z
    .string()
    .describe('Recipient: a teammate\'s name, "*" for every teammate, or a subagent id (a + 16 hex digits)'),
  message: z
    .union([z.string(), StructuredMessageSchema])
    .describe('The message text, or a structured shutdown_request / shutdown_response / plan_approval_response'),
  summary: z.string().optional().describe('A 5-10 word preview of a message to teammates')
})

/** What SendMessage is called with. */
export type SendMessageInput = z.infer<typeof SendMessageInputSchema>

const AGENT_ID = /^a[0-9a-f]{16}$/

/**
 * What one caller's SendMessage may reach, and how it answers a shutdown request: the only
 * differences between the leader's SendMessage and a teammate's (docs/teams.md#sendmessage-between-teammates).
 * The team itself always comes from the call's `ctx.services.team`.
 */
export interface SendMessagePort {
  /** The description the model reads. */
  description: string
  /**
   * Whether a `to` that is a subagent id (a + 16 hex digits) goes to the caller's subagents
   * (`ctx.services.subagents`; the leader). False for a teammate: it has no subagents to message
   * by id, so every `to` is a member's name or `*`.
   */
  subagents: boolean
  /**
   * A `shutdown_response` approving, to the leader: not sent from here but recorded by the caller
   * (a teammate's runner sends `shutdown_approved` after releasing its tasks, so the leader's
   * TeamDelete right after it succeeds). Returns the tool result's text.
   * @throws ToolError when no shutdown request waits for an answer.
   */
  approveShutdown?: (requestId: string) => string
  /** Called once a `shutdown_response` rejecting was sent to the leader (the teammate then keeps working). */
  onShutdownRejected?: () => void
}

/**
 * SendMessage (docs/agents.md#messages-to-a-subagent, docs/teams.md#sendmessage-between-teammates),
 * one tool for the leader and every teammate, the caller's differences in `port`. To a subagent by
 * id (when `port.subagents`): a running one gets it at its next tool round; a stopped one is
 * resumed from its transcript with the message, and that run ends with one task notification to
 * the sender. To a member's name or `*`: delivered through the team's mailbox with
 * docs/teams.md#sendmessage-between-teammates's validations (see `sendToTeam`); a
 * `shutdown_response` to the leader goes through `port.approveShutdown` / `port.onShutdownRejected`
 * when the port has them.
 */
export function createSendMessageTool(port: SendMessagePort): Tool<SendMessageInput> {
  return {
    name: 'SendMessage',
    description: port.description,
    inputSchema: SendMessageInputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => false,
    permissionSubject: () => ({ kind: 'none' }),
    call: (input, ctx) =>
      port.subagents && AGENT_ID.test(input.to) ? toSubagent(input, ctx) : toTeam(port, input, ctx)
  }
}

/** A message to one of the caller's subagents, by id. */
async function toSubagent(input: SendMessageInput, ctx: ToolContext): Promise<ToolResult> {
  if (!ctx.services) throw new ToolError('SendMessage is not available to this agent.')
  if (typeof input.message !== 'string')
    throw new ToolError('Structured messages go to teammates only; send a subagent plain text.')
  const text = `Message from ${ctx.services.self.agentName}:\n${input.message}`
  const how = ctx.services.subagents.sendMessage(input.to, text, ctx.services.self)
  return {
    content:
      how === 'queued'
        ? `Message queued for ${input.to}; it reads it at its next step.`
        : `${input.to} had stopped; it was resumed with your message and will report back with a task notification.`
  }
}

/** A message to members of the caller's team, by name or `*`. */
async function toTeam(port: SendMessagePort, input: SendMessageInput, ctx: ToolContext): Promise<ToolResult> {
  const team = ctx.services?.team
  if (!input.to.trim())
    throw new ToolError(
      port.subagents
        ? '`to` is empty: name a teammate, "*" for the whole team, or a subagent id.'
        : '`to` is empty: name a teammate, or "*" for the whole team.'
    )
  if (!team) {
    if (!ctx.services) throw new ToolError('SendMessage is not available to this agent.')
    throw new ToolError(`"${input.to}" is not a subagent id (a + 16 hex digits), and this agent is not in a team.`)
  }
  const message = input.message
  if (typeof message !== 'string' && message.type === 'shutdown_response' && input.to.trim() === team.leaderName) {
    if (message.approve && port.approveShutdown) return { content: port.approveShutdown(message.request_id) }
    const result = await sendToTeam(team, input, ctx)
    if (!message.approve) port.onShutdownRejected?.()
    return result
  }
  return sendToTeam(team, input, ctx)
}

/**
 * The leader's SendMessage (and that of its subagents that inherit it): to its subagents by id,
 * to its team's members by name or `*`.
 */
export const SendMessageTool: Tool<SendMessageInput> = createSendMessageTool({
  description:
    'Send a message to a teammate by name ("*" for the whole team), or to a subagent you started by its agent id: a running agent reads it at its next step; a finished subagent is resumed with it and reports back with a task notification.',
  subagents: true
})
