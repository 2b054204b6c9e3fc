import { randomUUID } from 'node:crypto'

// Claude Code's team protocol: JSON documents inside a message's `text` (docs/claude-code-teams.md#its-protocol).
// Field names are 2.1.197's: `requestId`, `approved`, `planContent`, `taskId` as a string.

/** Claude Code's name for the team's leader: every teammate's `from` for the lead, and its inbox file. */
export const CLAUDE_LEAD_NAME = 'team-lead'

/** What a message's `text` is to a reader: its protocol `type` (or `plain`) and one readable line. */
export interface ReadableMessage {
  kind: string
  summary: string
  /** The JSON inside `text` that claims a `type` but misses a field that type needs: what is missing. */
  invalid?: string
}

function firstLine(text: string, max = 160): string {
  const line = text.trim().split('\n', 1)[0] ?? ''
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

const REQUIRED: Record<string, string[]> = {
  task_assignment: ['taskId', 'subject'],
  idle_notification: ['from'],
  plan_approval_request: ['requestId', 'planContent'],
  plan_approval_response: ['requestId', 'approved'],
  shutdown_request: ['requestId'],
  shutdown_approved: ['requestId'],
  shutdown_rejected: ['requestId'],
  permission_request: ['request_id'],
  permission_response: ['request_id']
}

const s = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v))

/**
 * Reads a message's `text` as a person would: plain text as its first line, a protocol document
 * (`task_assignment`, `idle_notification`, `plan_approval_request`/`_response`,
 * `shutdown_request`/`_approved`/`_rejected`, `permission_request`/`_response`, and any other
 * `type`) as one sentence, never as JSON.
 */
export function readMessageText(text: string): ReadableMessage {
  let body: Record<string, unknown> | undefined
  try {
    const data: unknown = JSON.parse(text)
    if (
      typeof data === 'object' &&
      data !== null &&
      !Array.isArray(data) &&
      typeof (data as { type?: unknown }).type === 'string'
    )
      body = data as Record<string, unknown>
  } catch {
    // plain text
  }
  if (!body) return { kind: 'plain', summary: firstLine(text) }
  const doc = body
  const kind = doc.type as string
  const missing = (REQUIRED[kind] ?? []).filter((f) => doc[f] === undefined)
  const summary = describe(kind, doc)
  return missing.length > 0 ? { kind, summary, invalid: `${kind} without ${missing.join(', ')}` } : { kind, summary }
}

function describe(kind: string, b: Record<string, unknown>): string {
  switch (kind) {
    case 'task_assignment':
      return `Task #${s(b.taskId)} assigned: ${s(b.subject)}${b.assignedBy ? ` (by ${s(b.assignedBy)})` : ''}`
    case 'idle_notification':
      return `Idle (${s(b.idleReason) || 'available'})${b.completedTaskId ? `, finished task #${s(b.completedTaskId)}` : ''}${b.summary ? `: ${s(b.summary)}` : ''}`
    case 'plan_approval_request':
      return `Plan for approval: ${firstLine(s(b.planContent))}`
    case 'plan_approval_response':
      return b.approved === true
        ? `Plan approved${b.permissionMode ? ` (${s(b.permissionMode)})` : ''}`
        : `Plan rejected${b.feedback ? `: ${s(b.feedback)}` : ''}`
    case 'shutdown_request':
      return `Shutdown requested${b.reason ? `: ${s(b.reason)}` : ''}`
    case 'shutdown_approved':
      return 'Shutdown approved'
    case 'shutdown_rejected':
      return `Shutdown rejected${b.reason ? `: ${s(b.reason)}` : ''}`
    case 'permission_request':
      return `Asks to use ${s(b.tool_name ?? b.toolName) || 'a tool'}${b.description ? `: ${firstLine(s(b.description))}` : ''}`
    case 'permission_response':
      return s(b.subtype ?? b.decision) === 'success' || b.decision === 'allow'
        ? 'Permission allowed'
        : `Permission answered: ${s(b.subtype ?? b.decision) || 'no decision'}${b.error ? ` (${s(b.error)})` : ''}`
    case 'task_completed':
      return `Task #${s(b.taskId)} completed${b.taskSubject ? `: ${s(b.taskSubject)}` : ''}`
    case 'teammate_terminated':
      return s(b.message) || 'Teammate terminated'
    default:
      return `${kind.replace(/_/g, ' ')}${b.message ? `: ${firstLine(s(b.message))}` : ''}`
  }
}

/** The fields Claude Code adds to every message it writes: schema version 1 and a fresh id. */
export function messageIdentity(): { msgV: number; msg_id: string } {
  return { msgV: 1, msg_id: randomUUID() }
}

/** A `task_assignment` as TaskUpdate writes it when the leader sets an owner. */
export function taskAssignment(task: { id: string; subject: string; description: string }, by: string): string {
  return JSON.stringify({
    type: 'task_assignment',
    taskId: task.id,
    subject: task.subject,
    description: task.description,
    assignedBy: by,
    timestamp: new Date().toISOString()
  })
}

/** A `shutdown_request` as SendMessage writes it: `requestId` is `shutdown-<epoch ms>@<recipient>`. */
export function shutdownRequest(to: string, from: string, reason?: string): { requestId: string; text: string } {
  const requestId = `shutdown-${Date.now()}@${to}`
  const body = {
    type: 'shutdown_request',
    requestId,
    from,
    ...(reason ? { reason } : {}),
    timestamp: new Date().toISOString()
  }
  return { requestId, text: JSON.stringify(body) }
}

/**
 * A `plan_approval_response` as the leader writes it: approved plans carry the mode the teammate
 * goes on in (`default` unless given), rejected ones the feedback.
 */
export function planApprovalResponse(
  requestId: string,
  approved: boolean,
  options: { feedback?: string; permissionMode?: string } = {}
): string {
  return JSON.stringify({
    type: 'plan_approval_response',
    requestId,
    approved,
    ...(options.feedback ? { feedback: options.feedback } : {}),
    timestamp: new Date().toISOString(),
    ...(approved ? { permissionMode: options.permissionMode ?? 'default' } : {})
  })
}
