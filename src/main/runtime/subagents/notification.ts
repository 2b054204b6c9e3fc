import type { Usage } from '../../../shared/events'

/** What a task notification reports (docs/agents.md#task-notifications). */
export interface TaskNotificationInfo {
  agentId: string
  outputFile: string
  status: 'completed' | 'failed' | 'killed'
  description: string
  result: string
  usage: Usage
  toolUses: number
  durationMs: number
  /** Tool calls that were denied, one line each ("Edit: …"); listed in the result. */
  denied: string[]
  worktree?: { path: string; branch: string }
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

const SUMMARY_VERB: Record<TaskNotificationInfo['status'], string> = {
  completed: 'completed',
  failed: 'failed',
  killed: 'was stopped'
}

/**
 * Renders the `<task-notification>` user-message text of docs/agents.md#task-notifications, exactly one per ended async
 * agent. Denied tool calls are appended to the result so a denial never reads as success.
 */
export function renderTaskNotification(info: TaskNotificationInfo): string {
  const totalTokens =
    info.usage.inputTokens +
    info.usage.outputTokens +
    info.usage.cacheCreationInputTokens +
    info.usage.cacheReadInputTokens
  const denied =
    info.denied.length > 0
      ? `\n\nDenied tool calls (not performed):\n${info.denied.map((d) => `- ${d}`).join('\n')}`
      : ''
  const lines = [
    '<task-notification>',
    `<task-id>${info.agentId}</task-id>`,
    `<output-file>${escapeXml(info.outputFile)}</output-file>`,
    `<status>${info.status}</status>`,
    `<summary>Agent "${escapeXml(info.description)}" ${SUMMARY_VERB[info.status]}</summary>`,
    `<result>${escapeXml(info.result + denied)}</result>`,
    `<usage><total_tokens>${totalTokens}</total_tokens><tool_uses>${info.toolUses}</tool_uses><duration_ms>${Math.round(info.durationMs)}</duration_ms></usage>`
  ]
  if (info.worktree) {
    lines.push(
      `<worktree><worktreePath>${escapeXml(info.worktree.path)}</worktreePath><worktreeBranch>${escapeXml(info.worktree.branch)}</worktreeBranch></worktree>`
    )
  }
  lines.push('</task-notification>')
  return lines.join('\n')
}
