import { existsSync, lstatSync, rmSync } from 'node:fs'
import { redirectsOf, repositoryOf } from './gitMounts'

/** What a sandboxed command left of git's redirections, checked when it ends (docs/sandbox.md#git). */
export interface GitGuard {
  /** Removes what the command created of the watched paths (files and folders); returns those it removed, absolute. */
  sweep(): string[]
}

/**
 * Watches, for one sandboxed command run in `root`, the places git reads code or redirections
 * from that do not exist yet, and so could not be mounted read-only ({@link gitMounts}): the
 * git dir's `commondir` (which would point git, run later outside the sandbox in that checkout,
 * at a config of the command's choosing), `config.worktree`, `config` and `hooks` when missing;
 * the same of each submodule git dir; `commondir`, `gitdir` and `config.worktree` of each
 * worktree admin folder; and the folder `core.hooksPath` names, when the checkout has none yet
 * (`.husky/` before `npm install` made it). Call it after the command was wrapped (the wrapping
 * creates the folders it holds) and before it starts; {@link GitGuard.sweep} after it ended.
 * The sandbox runs each command in its own PID namespace, so nothing the command started is left
 * to create one after the sweep. Outside a repository nothing is watched.
 */
export function watchGitRedirects(root: string): GitGuard {
  const repo = repositoryOf(root)
  const watched = repo
    ? [...redirectsOf(repo), ...(repo.hooksPath ? [repo.hooksPath] : [])].filter((p) => !present(p))
    : []
  return {
    sweep: () => {
      const removed: string[] = []
      for (const p of watched) {
        if (!present(p)) continue
        rmSync(p, { recursive: true, force: true })
        removed.push(p)
      }
      return removed
    }
  }
}

/** Whether `p` exists, a dangling symlink included (which existsSync would miss). */
function present(p: string): boolean {
  if (existsSync(p)) return true
  try {
    lstatSync(p)
    return true
  } catch {
    return false
  }
}
