import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { runGit, serialisePerRepo } from './git'
import { isBelow, listWorktrees, pendingWork, removeWorktree } from './inspect'
import { WORKTREES_DIR } from './naming'
import { locateRepo } from './repo'
import { WORKTREE_RECORD_FILE, WorktreeRecordSchema, type SweepResult, type WorktreeRecord } from './types'

/** Input of {@link sweepStaleWorktrees}. */
export interface SweepOptions {
  /** The checkout whose `.swarmdesk/worktrees/` is swept (usually the workspace's repo root). */
  repoRoot: string
  /** True for a worktree path an agent of this process is still using; those are never touched. */
  isActive: (worktreePath: string) => boolean
}

/**
 * The startup sweep of docs/agents.md#worktree-isolation. Runs `git worktree prune` (forgets worktrees whose directory is
 * gone), then looks at every registered worktree below `<repoRoot>/.swarmdesk/worktrees/` —
 * nested ones first, so a clean parent whose nested child was removed can go too — and removes
 * those that are inactive, unlocked and clean by the same rule as {@link finishWorktree}, with the
 * base read from the record `createWorktree` left in git's admin dir. A worktree without a
 * readable record, or any git error, is kept. Never throws for a single worktree; throws
 * NotAGitRepositoryError/GitCommandError only when the repository itself cannot be read.
 */
export async function sweepStaleWorktrees(opts: SweepOptions): Promise<SweepResult> {
  const { repoRoot, commonDir } = await locateRepo(opts.repoRoot)
  const dir = path.join(repoRoot, WORKTREES_DIR)
  return serialisePerRepo(commonDir, async () => {
    await runGit(['worktree', 'prune'], repoRoot)
    const candidates = (await listWorktrees(repoRoot))
      .filter((w) => isBelow(dir, w.path))
      .sort((a, b) => b.path.split(path.sep).length - a.path.split(path.sep).length)
    const result: SweepResult = { removed: [], kept: [] }
    for (const wt of candidates) {
      const removable = !opts.isActive(wt.path) && !wt.locked && (await sweepOne(repoRoot, wt.path))
      ;(removable ? result.removed : result.kept).push(wt.path)
    }
    return result
  })
}

/** True when the worktree was clean and is now removed; false (kept) on work or any error. */
async function sweepOne(repoRoot: string, wtPath: string): Promise<boolean> {
  try {
    const record = await readRecord(wtPath)
    if (!record) return false
    if (await pendingWork({ path: wtPath, branch: record.branch, baseCommit: record.baseCommit })) return false
    await removeWorktree(repoRoot, wtPath, record.branch)
    return true
  } catch {
    return false
  }
}

/** The record written at creation, or undefined when it is missing or not ours. */
export async function readRecord(wtPath: string): Promise<WorktreeRecord | undefined> {
  const adminDir = (await runGit(['rev-parse', '--absolute-git-dir'], wtPath)).trim()
  try {
    const parsed = WorktreeRecordSchema.safeParse(
      JSON.parse(await readFile(path.join(adminDir, WORKTREE_RECORD_FILE), 'utf8'))
    )
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}
