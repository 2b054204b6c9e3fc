import type { MailboxEntry } from '../../shared/ipc'
import { parseMessageBody, type MailboxMessage, type ProtocolBody } from '../../shared/mailbox'

// One mailbox message as the inspector lists it (docs/ui.md#the-workspace-ui): its kind, a readable
// one-line summary of any structured body, and the order of the list.

/** Message ids compared as text: they start with their time, so this is send order. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** The inspector's order: by message id (time-ordered), then by recipient (a broadcast's copies). */
export function compareEntries(a: MailboxEntry, b: MailboxEntry): number {
  return compareIds(a.id, b.id) || compareIds(a.to, b.to)
}

/** A message of Swarmdesk's team `team` as the inspector's entry, with its kind and a one-line summary. */
export function toEntry(message: MailboxMessage, read: boolean, rev: number, team: string): MailboxEntry {
  const body = parseMessageBody(message.text)
  const kind = body.kind === 'structured' ? body.body.type : body.kind === 'invalid' ? body.type : 'plain'
  const described =
    body.kind === 'structured'
      ? describeBody(body.body)
      : body.kind === 'invalid'
        ? `Malformed ${body.type}: ${body.error}`
        : firstLine(message.text)
  return {
    key: `${message.to}/${message.id}`,
    id: message.id,
    source: 'swarmdesk',
    team,
    from: message.from,
    to: message.to,
    timestamp: message.timestamp,
    ...(message.color !== undefined ? { color: message.color } : {}),
    kind,
    summary: message.summary?.trim() || described,
    read,
    text: message.text,
    ...(body.kind === 'invalid' ? { invalid: body.error } : {}),
    rev
  }
}

/** One readable line for a structured body (never JSON): what the inspector lists when the sender gave no summary. */
export function describeBody(body: ProtocolBody): string {
  switch (body.type) {
    case 'idle_notification':
      return `Idle (${body.idleReason ?? 'available'})${body.summary ? `: ${body.summary}` : ''}`
    case 'permission_request':
      return `Asks to use ${body.toolName}${primaryArgument(body.input) ? ` on ${primaryArgument(body.input)}` : ''}`
    case 'permission_response':
      return body.decision === 'allow'
        ? 'Permission allowed'
        : `Permission denied${body.reason ? `: ${body.reason}` : ''}`
    case 'sandbox_permission_request':
      return `Asks for network access to ${body.hostPattern.host}`
    case 'sandbox_permission_response':
      return `Network access to ${body.host} ${body.allow ? 'allowed' : 'refused'}${body.reason ? `: ${body.reason}` : ''}`
    case 'plan_approval_request':
      return `Plan for approval: ${firstLine(body.plan)}`
    case 'plan_approval_response':
      return body.approve
        ? `Plan approved${body.permissionMode ? ` (${body.permissionMode})` : ''}`
        : `Plan rejected${body.feedback ? `: ${body.feedback}` : ''}`
    case 'shutdown_request':
      return `Shutdown requested${body.reason ? `: ${body.reason}` : ''}`
    case 'shutdown_approved':
      return 'Shutdown approved'
    case 'shutdown_rejected':
      return `Shutdown rejected: ${body.reason}`
    case 'task_assignment':
      return `Task #${body.taskId} assigned: ${body.subject}`
    case 'mode_set_request':
      return `Permission mode set to ${body.mode}`
  }
}

/** The argument a person recognises a tool call by: a path, a command, a pattern or a URL. */
export function primaryArgument(input: Record<string, unknown>): string | undefined {
  for (const k of ['file_path', 'notebook_path', 'path', 'command', 'pattern', 'url']) {
    const v = input[k]
    if (typeof v === 'string' && v.trim()) return firstLine(v)
  }
  return undefined
}

function firstLine(text: string, max = 140): string {
  const line = text.trim().split('\n', 1)[0] ?? ''
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
