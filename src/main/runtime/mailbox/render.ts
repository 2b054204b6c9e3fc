import { parseMessageBody, type MailboxMessage, type ProtocolType } from '../../../shared/mailbox'

/**
 * How each structured type reaches the recipient's model (docs/teams.md#mailbox):
 * - `hidden`: never rendered — the runtime and the UI act on it (permission sync, modes, and a
 *   plan verdict, which the blocked ExitPlanMode call returns as its own result);
 * - `element`: a `<teammate-message … type=… request_id=…>` element.
 * docs/teams.md#mailbox names the hidden three and the first four elements; `shutdown_approved`/`_rejected` are
 * rendered too, because the leader's model must learn that a teammate left or refused, and why.
 */
export const MODEL_VISIBILITY: Record<ProtocolType, 'hidden' | 'element'> = {
  permission_request: 'hidden',
  permission_response: 'hidden',
  sandbox_permission_request: 'hidden',
  sandbox_permission_response: 'hidden',
  mode_set_request: 'hidden',
  plan_approval_response: 'hidden',
  shutdown_request: 'element',
  plan_approval_request: 'element',
  idle_notification: 'element',
  task_assignment: 'element',
  shutdown_approved: 'element',
  shutdown_rejected: 'element'
}

/** Escapes a value for a double-quoted XML attribute. */
export function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n/g, '&#10;')
}

/**
 * The text a message becomes in the recipient's model request, or `undefined` when it must never
 * reach a model. Structured bodies: `<teammate-message teammate_id="{from}" type="{type}"
 * request_id="{id}">{content}</teammate-message>`, where `id` is the body's `requestId`, a task
 * assignment's `taskId`, else the message id; content is the reason, plan, summary or task.
 * Plain: `<teammate-message teammate_id="{from}" summary="…">{text}</teammate-message>` (no
 * `summary` attribute without a summary). Raw JSON never reaches a model: a body that claims a
 * protocol type but fails its schema is hidden, like every hidden type.
 */
export function renderForModel(message: MailboxMessage): string | undefined {
  const from = escapeAttribute(message.from)
  const body = parseMessageBody(message.text)
  if (body.kind === 'invalid') return undefined
  if (body.kind === 'plain') {
    const summary = message.summary ? ` summary="${escapeAttribute(message.summary)}"` : ''
    return `<teammate-message teammate_id="${from}"${summary}>${message.text}</teammate-message>`
  }
  const b = body.body
  if (MODEL_VISIBILITY[b.type] === 'hidden') return undefined
  let id = message.id
  let content: string
  switch (b.type) {
    case 'shutdown_request':
      id = b.requestId
      content = b.reason ?? 'The team lead asks you to finish and shut down.'
      break
    case 'plan_approval_request':
      id = b.requestId
      content = b.plan
      break
    case 'idle_notification':
      content = b.failureReason
        ? `${b.summary ? `${b.summary}\n\n` : ''}${b.from}'s ${b.failureKind === 'turn' ? 'turn' : 'model call'} failed: ${b.failureReason}`
        : (b.summary ?? `${b.from} is idle${b.idleReason ? ` (${b.idleReason})` : ''}.`)
      break
    case 'task_assignment':
      id = b.taskId
      content = `Task #${b.taskId} assigned by ${b.assignedBy}: ${b.subject}${b.description ? `\n\n${b.description}` : ''}`
      break
    case 'shutdown_approved':
      id = b.requestId
      content = `${b.from ?? message.from} approved the shutdown and is exiting.`
      break
    case 'shutdown_rejected':
      id = b.requestId
      content = b.reason
      break
    default:
      return undefined
  }
  return `<teammate-message teammate_id="${from}" type="${b.type}" request_id="${escapeAttribute(id)}">${content}</teammate-message>`
}
