import path from 'node:path'
import { runGit } from './git'

/** One entry of `git worktree list --porcelain -z`. */
export interface ListedWorktree {
  path: string
  /** `refs/heads/…`, absent when detached. */
  branch?: string
  locked: boolean
}

/**
 * Every worktree registered in the repository containing `cwd` (main checkout included).
 * @throws GitCommandError.
 */
export async function listWorktrees(cwd: string): Promise<ListedWorktree[]> {
  const out = await runGit(['worktree', 'list', '--porcelain', '-z'], cwd)
  const result: ListedWorktree[] = []
  let cur: ListedWorktree | undefined
  for (const field of out.split('\0')) {
    if (field === '') {
      if (cur) result.push(cur)
      cur = undefined
    } else if (field.startsWith('worktree ')) {
      cur = { path: field.slice('worktree '.length), locked: false }
    } else if (cur && field.startsWith('branch ')) {
      cur.branch = field.slice('branch '.length)
    } else if (cur && (field === 'locked' || field.startsWith('locked '))) {
      cur.locked = true
    }
  }
  if (cur) result.push(cur)
  return result
}

/** True when `child` is strictly below `parent` (both absolute, normalised). */
export function isBelow(parent: string, child: string): boolean {
  const rel = path.relative(parent, child)
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)
}

/**
 * Why the worktree must be kept, or undefined when it holds nothing worth keeping. Work means, as
 * in docs/agents.md#worktree-isolation: `git status --porcelain` non-empty (untracked files included, ignored files not), or
 * commits beyond `baseCommit` on HEAD or on the agent's branch (it may have switched away). A
 * worktree with another registered worktree nested inside (an isolated grandchild) is kept too:
 * removing it would delete the nested checkout with it.
 * @throws GitCommandError — callers treat any error as "keep".
 */
export async function pendingWork(wt: {
  path: string
  branch: string
  baseCommit: string
}): Promise<string | undefined> {
  const status = await runGit(['status', '--porcelain'], wt.path)
  if (status.trim() !== '') {
    const n = status.split('\n').filter((l) => l.trim() !== '').length
    return `uncommitted changes (${n} path${n === 1 ? '' : 's'} in git status)`
  }
  for (const rev of ['HEAD', `refs/heads/${wt.branch}`]) {
    const count = Number((await runGit(['rev-list', '--count', `${wt.baseCommit}..${rev}`], wt.path)).trim())
    if (count > 0)
      return `${count} new commit${count === 1 ? '' : 's'} on ${rev === 'HEAD' ? 'HEAD' : wt.branch} since ${wt.baseCommit.slice(0, 12)}`
  }
  const nested = (await listWorktrees(wt.path)).filter((w) => isBelow(wt.path, w.path))
  if (nested.length > 0) return `contains another worktree (${nested[0].path})`
  return undefined
}

/**
 * Removes a worktree known to be clean and deletes its branch. `git worktree remove` is run
 * without `--force`: if anything appeared since the check, git refuses and the error propagates.
 * @returns a note when the worktree is gone but the branch could not be deleted.
 * @throws GitCommandError when the worktree itself could not be removed.
 */
export async function removeWorktree(repoRoot: string, wtPath: string, branch: string): Promise<string | undefined> {
  await runGit(['worktree', 'remove', wtPath], repoRoot)
  try {
    await runGit(['branch', '-D', branch], repoRoot)
    return undefined
  } catch (err) {
    return `branch ${branch} could not be deleted: ${(err as Error).message}`
  }
}
