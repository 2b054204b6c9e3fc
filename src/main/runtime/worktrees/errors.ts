/**
 * Errors of the worktree subsystem (docs/agents.md#worktree-isolation). One base, subclassed by blame; `name` survives IPC.
 * Messages are written for the model and the user: they say what is wrong and what would fix it.
 */
export class WorktreeError extends Error {
  override name = 'WorktreeError'
}

/** The parent's cwd is not inside a git repository, so there is nothing to branch from. */
export class NotAGitRepositoryError extends WorktreeError {
  override name = 'NotAGitRepositoryError'
  constructor(readonly cwd: string) {
    super(
      `worktree isolation needs a git repository, but ${cwd} is not inside one; run the agent without isolation or run \`git init\` and commit first`
    )
  }
}

/** The repository has no commit yet (unborn HEAD): a worktree needs a commit to start from. */
export class UnbornHeadError extends WorktreeError {
  override name = 'UnbornHeadError'
  constructor(readonly repoRoot: string) {
    super(
      `worktree isolation needs a commit to branch from, but the repository at ${repoRoot} has no commit yet (unborn HEAD); make a first commit`
    )
  }
}

/** The agent id is not `a` + hex (docs/tools.md#tools), so no stable `agent-<id8>` name can be derived. */
export class InvalidAgentIdError extends WorktreeError {
  override name = 'InvalidAgentIdError'
  constructor(readonly agentId: string) {
    super(
      `cannot name a worktree after agent id ${JSON.stringify(agentId)}: expected "a" followed by at least 8 hex digits`
    )
  }
}

/** A git command exited non-zero (or could not be started). `stderr` is git's own words. */
export class GitCommandError extends WorktreeError {
  override name = 'GitCommandError'
  constructor(
    readonly args: readonly string[],
    readonly cwd: string,
    readonly exitCode: number | string | null,
    readonly stderr: string
  ) {
    super(`git ${args.join(' ')} failed in ${cwd} (exit ${exitCode ?? 'signal'}): ${stderr.trim() || 'no message'}`)
  }
}
