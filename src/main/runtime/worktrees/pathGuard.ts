import { realpathSync } from 'node:fs'
import path from 'node:path'
import { isBelow } from './inspect'
import { WORKTREES_DIR } from './naming'
import type { Worktree } from './types'

/** Verdict of a {@link WorktreePathGuard}. `translatedPath` is the same file in the worktree, when there is one. */
export type PathGuardVerdict = { ok: true } | { ok: false; message: string; translatedPath?: string }

/** Checks one absolute path a tool of an isolated agent is about to read or write. */
export type WorktreePathGuard = (absPath: string) => PathGuardVerdict

function within(root: string, p: string): boolean {
  return p === root || isBelow(root, p)
}

/**
 * Resolves symlinks in the longest existing prefix of `p`, so a link inside the worktree that
 * points into the parent checkout is judged by where it leads; the missing rest (a file about to
 * be written) is appended as is.
 */
function canonical(p: string): string {
  const abs = path.resolve(p)
  let head = abs
  const rest: string[] = []
  for (;;) {
    try {
      return path.join(realpathSync.native(head), ...rest.reverse())
    } catch {
      const parent = path.dirname(head)
      if (parent === head) return abs
      rest.push(path.basename(head))
      head = parent
    }
  }
}

/**
 * Maps a path in the parent's checkout to the same repository-relative path in the worktree
 * (`<repoRoot>/src/a.ts` → `<worktree>/src/a.ts`). Paths already in the worktree, outside the
 * parent checkout, in its `.git`, or in another agent's worktree are returned unchanged. Purely
 * lexical, so it also works for paths that do not exist (yet).
 */
export function translatePath(worktree: Worktree, absPath: string): string {
  const p = path.resolve(absPath)
  if (within(worktree.path, p) || !within(worktree.repoRoot, p)) return p
  const rel = path.relative(worktree.repoRoot, p)
  if (within('.git', rel) || within(WORKTREES_DIR, rel)) return p
  return path.join(worktree.path, rel)
}

/**
 * The path guard of docs/agents.md#worktree-isolation ("cwd pinned … writes outside it are refused") for Read/Write/Edit/
 * Glob/Grep of an isolated agent. Refuses an absolute path inside the parent's checkout
 * (`worktree.repoRoot`) but outside the worktree, naming the worktree and the translated path so
 * the model can retry at once; refuses other agents' worktrees and the git directory without a
 * translation. Paths in the worktree pass; paths outside the repository pass too — those are the
 * permission engine's to decide. A relative path is taken as relative to the worktree (the
 * agent's pinned cwd), never to the process's cwd.
 */
export function worktreePathGuard(worktree: Worktree): WorktreePathGuard {
  const root = canonical(worktree.repoRoot)
  const own = canonical(worktree.path)
  const here = `this agent works in the isolated worktree ${worktree.path}`
  return (absPath) => {
    const p = canonical(path.resolve(worktree.path, absPath))
    if (within(own, p) || !within(root, p)) return { ok: true }
    const rel = path.relative(root, p)
    if (within(WORKTREES_DIR, rel))
      return { ok: false, message: `${absPath} is in another agent's worktree; ${here} and may not touch it` }
    if (within('.git', rel))
      return {
        ok: false,
        message: `${absPath} is in the repository's git directory; ${here}: use git commands from there instead`
      }
    const translatedPath = path.join(worktree.path, rel)
    return {
      ok: false,
      message: `${absPath} is in the parent checkout ${worktree.repoRoot}; ${here}: use ${translatedPath}`,
      translatedPath
    }
  }
}

/**
 * The notice docs/agents.md#forks gives a fork that runs in a worktree: the conversation it inherited speaks of
 * the parent's directory, and every path in it must be read as the same path in the worktree.
 */
export function forkWorktreeNotice(parentCwd: string, worktree: Worktree): string {
  return [
    `You inherited the conversation above from a parent agent working in ${parentCwd}, but you run in an isolated git worktree of the same repository: ${worktree.path} (branch ${worktree.branch}).`,
    `Paths in the inherited messages refer to the parent's checkout ${worktree.repoRoot}. Translate each one to your worktree by replacing that prefix with ${worktree.path}; the parent's directory ${parentCwd} is ${translatePath(worktree, parentCwd)} for you. Tools refuse absolute paths into the parent's checkout.`,
    `Your worktree starts at the parent's last commit (${worktree.baseCommit.slice(0, 12)}): edits the parent had not committed are not in it, so read a file again before you edit it. What you change stays in your worktree and branch; the parent's files are never touched.`
  ].join('\n')
}
