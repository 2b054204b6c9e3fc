import type { MailboxKind, MailboxSource } from '../../../../shared/ipc'

/** What each kind is called in the inspector (docs/teams.md#mailbox types in words; docs/claude-code-teams.md#its-protocol for Claude Code's own). */
export const KIND_LABELS: Readonly<Record<MailboxKind, string>> = {
  plain: 'Message',
  idle_notification: 'Idle',
  permission_request: 'Permission request',
  permission_response: 'Permission answer',
  sandbox_permission_request: 'Network request',
  sandbox_permission_response: 'Network answer',
  plan_approval_request: 'Plan for approval',
  plan_approval_response: 'Plan verdict',
  shutdown_request: 'Shutdown request',
  shutdown_approved: 'Shutdown approved',
  shutdown_rejected: 'Shutdown rejected',
  task_assignment: 'Task assignment',
  mode_set_request: 'Mode change',
  task_completed: 'Task completed',
  teammate_terminated: 'Teammate ended',
  other_protocol: 'Other protocol message'
}

/** How the inspector names a message's team: `Swarmdesk · {team}` or `Claude Code · {team}`. */
export function teamLabel(source: MailboxSource, team: string): string {
  return `${source === 'claude-code' ? 'Claude Code' : 'Swarmdesk'} · ${team}`
}

/** Local wall-clock time of an ISO timestamp, `HH:MM:SS`; the input itself when it is not a date. */
export function timeOf(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })
}

/** JSON pretty-printed (2 spaces) when `text` is JSON, else `text` as it is: the card's "Raw" view. */
export function prettyRaw(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}
