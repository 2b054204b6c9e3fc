import { serialisePerRepo } from './git'
import { pendingWork, removeWorktree } from './inspect'
import { locateRepo } from './repo'
import type { FinishResult, Worktree } from './types'

/**
 * Ends an agent's worktree by the rule of docs/agents.md#worktree-isolation: kept when it holds work (uncommitted changes,
 * untracked files or commits beyond `baseCommit` — see `pendingWork`), removed with its branch
 * otherwise. Any git error keeps it, with the error in `reason`: losing an agent's work is worse
 * than leaving a directory behind, and the startup sweep retries clean ones later. Never throws.
 */
export async function finishWorktree(worktree: Worktree): Promise<FinishResult> {
  const kept = (reason: string): FinishResult => ({ kept: true, reason, path: worktree.path, branch: worktree.branch })
  try {
    const work = await pendingWork(worktree)
    if (work) return kept(work)
    const { commonDir } = await locateRepo(worktree.repoRoot)
    return await serialisePerRepo(commonDir, async (): Promise<FinishResult> => {
      // Re-checked under the queue: a sibling's removal or a late write may have raced the first look.
      const late = await pendingWork(worktree)
      if (late) return kept(late)
      const note = await removeWorktree(worktree.repoRoot, worktree.path, worktree.branch)
      return {
        kept: false,
        reason: note ? `no changes; worktree removed, but ${note}` : 'no changes; worktree and branch removed'
      }
    })
  } catch (err) {
    return kept(`kept because git failed: ${(err as Error).message}`)
  }
}
