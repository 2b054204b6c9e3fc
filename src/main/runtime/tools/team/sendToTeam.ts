import { z } from 'zod'
import { messageKind, protocolBody, type ProtocolBody } from '../../../../shared/mailbox'
import type { TeamConfig } from '../../../../shared/teams'
import { ToolError, type ToolContext, type ToolResult } from '../types'
import type { TeamContext } from '../../teamStore'
import { newRequestId } from '../../mailbox'
import { asToolErrors } from './errors'

/** SendMessage's structured messages, with Claude Code's input fields (docs/tools.md#tools). */
export const StructuredMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('shutdown_request'), reason: z.string().optional() }),
  z.object({
    type: z.literal('shutdown_response'),
    request_id: z.string().min(1),
    approve: z.boolean(),
    reason: z.string().optional()
  }),
  z.object({
    type: z.literal('plan_approval_response'),
    request_id: z.string().min(1),
    approve: z.boolean(),
    feedback: z.string().optional()
  })
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
 * `message_sent {from, to, kind}` per call (`to: "*"` for a broadcast) once delivered. A message to
 * a teammate that has ended is delivered all the same (to its inbox), and the result says it will
 * not be read unless the teammate is started again.
 */
export async function sendToTeam(team: TeamContext, input: TeamMessageInput, ctx: ToolContext): Promise<ToolResult> {
  const to = input.to.trim()
  const from = ctx.agentName
  if (!to) throw new ToolError('`to` is empty: name a teammate, or "*" for the whole team.')
  const teamName = team.team()
  if (!teamName)
    throw new ToolError(
      `"${to}" is not a subagent id (a + 16 hex digits), and this session has no team: create one with TeamCreate to message teammates by name.`
    )
  const config = await asToolErrors(() => team.store.config.read(teamName))
  const structured = typeof input.message === 'string' ? undefined : input.message
  if (structured) checkStructured(structured, to, from, team.leaderName)
  else checkPlain(input.message as string)
  const color = config.members.find((m) => m.name === from)?.color
  const caller = { agentId: ctx.agentId, agentName: ctx.agentName }
  if (to === '*') {
    if (structured) throw new ToolError(`A ${structured.type} goes to one teammate, never to "*": name the recipient.`)
    const targets = config.members.map((m) => m.name).filter((n) => n !== from)
    if (targets.length === 0) throw new ToolError(`Team '${teamName}' has no other members to broadcast to.`)
    const text = input.message as string
    await asToolErrors(() =>
      team.store.mailbox.broadcast(teamName, targets, {
        from,
        text,
        ...(input.summary ? { summary: input.summary } : {}),
        ...(color ? { color } : {})
      })
    )
    team.emit(caller, { type: 'message_sent', from, to: '*', kind: 'plain' })
    return {
      content: `Message broadcast to ${targets.length} teammate${targets.length === 1 ? '' : 's'}: ${targets.join(', ')}.`
    }
  }
  const name = recipientName(to, config)
  if (name === from) throw new ToolError(`"${to}" is you: a message to yourself reaches no one.`)
  const { content, requestId } = bodyOf(input.message, from)
  await asToolErrors(() =>
    team.store.mailbox.send(teamName, name, {
      from,
      ...content,
      ...(input.summary ? { summary: input.summary } : {}),
      ...(color ? { color } : {})
    })
  )
  const kind = content.body?.type ?? 'plain'
  team.emit(caller, { type: 'message_sent', from, to: name, kind })
  const ended = endedNote(name, config, team.leaderName)
  if (kind === 'plain') return { content: `Message sent to ${name}.${ended}` }
  return { content: `${kind} sent to ${name}${requestId ? ` (request_id: ${requestId})` : ''}.${ended}` }
}

/**
 * What a sender is told beside "sent" when the recipient has ended (docs/teams.md#sendmessage-between-teammates):
 * a teammate whose member record is inactive (it shut down, was killed or crashed) reads its inbox
 * only if it is started again, so the message waits there unread. Empty for an active member and
 * for the leader.
 */
function endedNote(name: string, config: TeamConfig, leader: string): string {
  const member = config.members.find((m) => m.name === name)
  if (name === leader || member?.isActive !== false) return ''
  return ` But ${name} has ended (it is no longer active in team '${config.name}'): it will not read this message unless it is started again.`
}

/** docs/teams.md#sendmessage-between-teammates's direction rules for structured messages. @throws ToolError */
function checkStructured(message: StructuredMessage, to: string, from: string, leader: string): void {
  if (message.type === 'shutdown_response' && to !== leader)
    throw new ToolError(`A shutdown_response goes only to ${leader}, who asked for the shutdown; not to "${to}".`)
  if ((message.type === 'shutdown_request' || message.type === 'plan_approval_response') && from !== leader)
    throw new ToolError(`Only ${leader} sends a ${message.type}.`)
  if (message.type === 'shutdown_response' && !message.approve && !message.reason?.trim())
    throw new ToolError('Rejecting a shutdown needs a reason: say why you keep working.')
}

/**
 * Plain text must not pass for a protocol body (docs/teams.md#mailbox): a reader would act on it
 * unchecked (a teammate could write its own plan approval). @throws ToolError saying what to send instead.
 */
function checkPlain(text: string): void {
  const kind = messageKind(text)
  if (kind === 'plain') return
  const structured: readonly string[] = ['shutdown_request', 'plan_approval_response']
  const instead =
    kind === 'shutdown_approved' || kind === 'shutdown_rejected'
      ? 'answer a shutdown request with message {type: "shutdown_response", request_id, approve, reason?}'
      : structured.includes(kind)
        ? `send it as the message object {type: "${kind}", …} instead of JSON text`
        : `${kind} messages are the runtime's own; write your message in words`
  throw new ToolError(`Your message text is a JSON ${kind} body, which is not sent as plain text: ${instead}.`)
}

/** The member `to` names (`alice` or `alice@team`). @throws ToolError naming the members. */
function recipientName(to: string, config: TeamConfig): string {
  const suffix = `@${config.name}`
  const name = to.endsWith(suffix) ? to.slice(0, -suffix.length) : to
  if (config.members.some((m) => m.name === name)) return name
  throw new ToolError(
    `"${to}" is not a member of team '${config.name}'. Members: ${config.members.map((m) => m.name).join(', ')}.`
  )
}

/** What the mailbox sends for a message: plain text as is, a structured one as its protocol body. */
function bodyOf(
  message: string | StructuredMessage,
  from: string
): { content: { text: string; body?: never } | { body: ProtocolBody; text?: never }; requestId?: string } {
  if (typeof message === 'string') return { content: { text: message } }
  switch (message.type) {
    case 'shutdown_request': {
      const requestId = newRequestId('shutdown')
      return {
        requestId,
        content: {
          body: protocolBody('shutdown_request', { requestId, ...(message.reason ? { reason: message.reason } : {}) })
        }
      }
    }
    case 'shutdown_response': {
      const requestId = message.request_id
      const body = message.approve
        ? protocolBody('shutdown_approved', { requestId, from })
        : protocolBody('shutdown_rejected', { requestId, from, reason: message.reason ?? '' })
      return { requestId, content: { body } }
    }
    case 'plan_approval_response':
      return {
        requestId: message.request_id,
        content: {
          body: protocolBody('plan_approval_response', {
            requestId: message.request_id,
            approve: message.approve,
            ...(message.feedback ? { feedback: message.feedback } : {})
          })
        }
      }
  }
}
