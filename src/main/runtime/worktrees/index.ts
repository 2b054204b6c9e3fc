/**
 * Worktree isolation (docs/agents.md#worktree-isolation): one git worktree per isolated agent under
 * `<repo root>/.swarmdesk/worktrees/agent-<id8>`, kept or removed when the agent ends, a startup
 * sweep of stale clean ones, and the path guard that pins an isolated agent's tools to it.
 */
export { createWorktree, type CreateWorktreeOptions } from './create'
export { finishWorktree } from './finish'
export { sweepStaleWorktrees, type SweepOptions } from './sweep'
export {
  worktreePathGuard,
  translatePath,
  forkWorktreeNotice,
  type WorktreePathGuard,
  type PathGuardVerdict
} from './pathGuard'
export { worktreeNotificationXml, type WorktreeNotificationInfo } from './notification'
export { agentId8, worktreePathFor, worktreeBranchFor, WORKTREES_DIR, EXCLUDE_LINE } from './naming'
export type { Worktree, FinishResult, SweepResult } from './types'
export { WorktreeError, NotAGitRepositoryError, UnbornHeadError, InvalidAgentIdError, GitCommandError } from './errors'
