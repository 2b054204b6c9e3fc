import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { messageKind } from '../../../../shared/mailbox'
import type { TeamConfig } from '../../../../shared/teams'
import { ToolError, type ToolContext, type ToolResult } from '../types'
import type { TeamContext } from '../../teams'
import { asToolErrors } from './errors'

/** SendMessage's structured messages, with Claude Code's input fields (docs/tools.md#tools). */
export const StructuredMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('shutdown_request'), reason: z.string().optional() }),
  z.object({ type: z.literal('shutdown_response'), request_id: z.string().min(1), approve: z.boolean(), reason: z.string().optional() }),
  z.object({ type: z.literal('plan_approval_response'), request_id: z.string().min(1), approve: z.boolean(), feedback: z.string().optional() })
])
export type StructuredMessage = z.infer<typeof StructuredMessageSchema>

/** What SendMessage's teammate part gets (the tool's input). */
export interface TeamMessageInput {
  to: string
  message: string | StructuredMessage
  summary?: string
}

/**
 * SendMessage to teammates (docs/teams.md#mailbox, docs/teams.md#sendmessage-between-teammates): `to` is a member's name (or `name@team`), or `*`
 * for every member but the sender. Rules, each an error the model can act on: no team; empty
 * `to`; unknown name (the members are listed); a message to oneself; `*` with a structured
 * message; `shutdown_response` to anyone but the leader; `shutdown_request` or
 * `plan_approval_response` from anyone but the leader; `shutdown_response` rejecting without a
 * reason. Structured inputs become the mailbox's protocol bodies: `shutdown_request` gets a new
 * `requestId`; `shutdown_response` becomes `shutdown_approved` / `shutdown_rejected`. Emits one
 * `message_sent {from, to, kind}` per call (`to: "*"` for a broadcast) once delivered.
 */
export async function sendToTeam(team: TeamContext, input: TeamMessageInput, ctx: ToolContext): Promise<ToolResult> {
  const to = input.to.trim()
  const from = ctx.agentName
  if (!to) throw new ToolError('`to` is empty: name a teammate, or "*" for the whole team.')
  const teamName = team.team()
  if (!teamName) throw new ToolError(`"${to}" is not a subagent id (a + 16 hex digits), and this session has no team: create one with TeamCreate to message teammates by name.`)
  const config = await asToolErrors(async () => team.teams.read(teamName))
  const structured = typeof input.message === 'string' ? undefined : input.message
  if (structured) checkStructured(structured, to, from, team.leaderName)
  const color = config.members.find((m) => m.name === from)?.color
  const caller = { agentId: ctx.agentId, agentName: ctx.agentName }
  if (to === '*') {
    if (structured) throw new ToolError(`A ${structured.type} goes to one teammate, never to "*": name the recipient.`)
    const targets = config.members.map((m) => m.name).filter((n) => n !== from)
    if (targets.length === 0) throw new ToolError(`Team '${teamName}' has no other members to broadcast to.`)
    const text = input.message as string
    await asToolErrors(() => team.mailbox.broadcast(teamName, targets, { from, text, ...(input.summary ? { summary: input.summary } : {}), ...(color ? { color } : {}) }))
    team.emit(caller, { type: 'message_sent', from, to: '*', kind: 'plain' })
    return { content: `Message broadcast to ${targets.length} teammate${targets.length === 1 ? '' : 's'}: ${targets.join(', ')}.` }
  }
  const name = recipientName(to, config)
  if (name === from) throw new ToolError(`"${to}" is you: a message to yourself reaches no one.`)
  const { text, requestId } = bodyOf(input.message, from)
  await asToolErrors(() => team.mailbox.send(teamName, name, { from, text, ...(input.summary ? { summary: input.summary } : {}), ...(color ? { color } : {}) }))
  const kind = messageKind(text)
  team.emit(caller, { type: 'message_sent', from, to: name, kind })
  if (kind === 'plain') return { content: `Message sent to ${name}.` }
  return { content: `${kind} sent to ${name}${requestId ? ` (request_id: ${requestId})` : ''}.` }
}

/** docs/teams.md#sendmessage-between-teammates's direction rules for structured messages. @throws ToolError */
function checkStructured(message: StructuredMessage, to: string, from: string, leader: string): void {
  if (message.type === 'shutdown_response' && to !== leader) throw new ToolError(`A shutdown_response goes only to ${leader}, who asked for the shutdown; not to "${to}".`)
  if ((message.type === 'shutdown_request' || message.type === 'plan_approval_response') && from !== leader) throw new ToolError(`Only ${leader} sends a ${message.type}.`)
  if (message.type === 'shutdown_response' && !message.approve && !message.reason?.trim()) throw new ToolError('Rejecting a shutdown needs a reason: say why you keep working.')
}

/** The member `to` names (`alice` or `alice@team`). @throws ToolError naming the members. */
function recipientName(to: string, config: TeamConfig): string {
  const suffix = `@${config.name}`
  const name = to.endsWith(suffix) ? to.slice(0, -suffix.length) : to
  if (config.members.some((m) => m.name === name)) return name
  throw new ToolError(`"${to}" is not a member of team '${config.name}'. Members: ${config.members.map((m) => m.name).join(', ')}.`)
}

/** The mailbox `text` of a message: plain text as is, a structured one as its protocol body's JSON. */
function bodyOf(message: string | StructuredMessage, from: string): { text: string; requestId?: string } {
  if (typeof message === 'string') return { text: message }
  switch (message.type) {
    case 'shutdown_request': {
      const requestId = `shutdown-${randomBytes(4).toString('hex')}`
      return { requestId, text: JSON.stringify({ type: 'shutdown_request', requestId, ...(message.reason ? { reason: message.reason } : {}) }) }
    }
    case 'shutdown_response':
      return {
        requestId: message.request_id,
        text: JSON.stringify(message.approve ? { type: 'shutdown_approved', requestId: message.request_id, from } : { type: 'shutdown_rejected', requestId: message.request_id, from, reason: message.reason ?? '' })
      }
    case 'plan_approval_response':
      return { requestId: message.request_id, text: JSON.stringify({ type: 'plan_approval_response', requestId: message.request_id, approve: message.approve, ...(message.feedback ? { feedback: message.feedback } : {}) }) }
  }
}
