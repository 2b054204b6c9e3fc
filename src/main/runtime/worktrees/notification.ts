/** The worktree a finished agent left behind, as reported to its parent. */
export interface WorktreeNotificationInfo {
  worktreePath: string
  worktreeBranch: string
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * The optional `<worktree>` line of a `<task-notification>` (docs/agents.md#task-notifications), included only when the
 * worktree was kept: `<worktree><worktreePath>…</worktreePath><worktreeBranch>…</worktreeBranch></worktree>`,
 * text XML-escaped.
 */
export function worktreeNotificationXml(info: WorktreeNotificationInfo): string {
  return `<worktree><worktreePath>${escapeXml(info.worktreePath)}</worktreePath><worktreeBranch>${escapeXml(info.worktreeBranch)}</worktreeBranch></worktree>`
}
