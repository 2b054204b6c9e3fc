import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { runGit, serialisePerRepo } from './git'
import { worktreeBranchFor, worktreePathFor } from './naming'
import { ensureExcluded, headCommit, locateRepo } from './repo'
import { WORKTREE_RECORD_FILE, type Worktree, type WorktreeRecord } from './types'

/** Input of {@link createWorktree}. */
export interface CreateWorktreeOptions {
  /** The parent agent's cwd; the repository, its top level and HEAD are taken from here. */
  cwd: string
  /** The child's id, `a` + 16 hex (docs/tools.md#tools). */
  agentId: string
  signal?: AbortSignal
}

/**
 * Creates the isolated worktree of docs/agents.md#worktree-isolation: `<repo root>/.swarmdesk/worktrees/agent-<id8>` on a
 * new branch `worktree-agent-<id8>` at the parent's current HEAD, where the repo root is
 * `git rev-parse --show-toplevel` in the parent's cwd. A parent in a linked worktree therefore
 * gets its child nested under that linked worktree (and branched from its HEAD), a parent in a
 * submodule under the submodule; the parent's HEAD, index and files are never touched.
 *
 * The first call for a repository adds `.swarmdesk/worktrees/` to the common dir's
 * `info/exclude`. Writes are serialised per repository (see `serialisePerRepo`), so parallel
 * calls all succeed.
 * @throws NotAGitRepositoryError, UnbornHeadError, InvalidAgentIdError, GitCommandError.
 */
export async function createWorktree(opts: CreateWorktreeOptions): Promise<Worktree> {
  const { repoRoot, commonDir } = await locateRepo(opts.cwd)
  const wtPath = worktreePathFor(repoRoot, opts.agentId)
  const branch = worktreeBranchFor(opts.agentId)
  return serialisePerRepo(commonDir, async () => {
    // HEAD is read inside the queue so the base is the parent's HEAD at creation, not at request.
    const baseCommit = await headCommit(opts.cwd, repoRoot)
    await ensureExcluded(commonDir)
    await mkdir(path.dirname(wtPath), { recursive: true })
    await runGit(['worktree', 'add', '--quiet', '-b', branch, wtPath, baseCommit], repoRoot, { signal: opts.signal })
    const worktree: Worktree = { path: wtPath, branch, baseCommit, repoRoot }
    try {
      await writeRecord(worktree, opts.agentId)
    } catch (err) {
      // A fresh worktree without its record could never be swept; undo it while it is surely empty.
      await runGit(['worktree', 'remove', '--force', wtPath], repoRoot).catch(() => undefined)
      await runGit(['branch', '-D', branch], repoRoot).catch(() => undefined)
      throw err
    }
    return worktree
  })
}

async function writeRecord(wt: Worktree, agentId: string): Promise<void> {
  const adminDir = (await runGit(['rev-parse', '--absolute-git-dir'], wt.path)).trim()
  const record: WorktreeRecord = {
    schemaVersion: 1,
    agentId,
    branch: wt.branch,
    baseCommit: wt.baseCommit,
    createdAt: new Date().toISOString()
  }
  await writeFile(path.join(adminDir, WORKTREE_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`)
}
