import { execFile } from 'node:child_process'
import { readdirSync, readlinkSync, statSync } from 'node:fs'
import { sep } from 'node:path'
import { promisify } from 'node:util'
import { sweepStaleWorktrees } from '../worktrees'

const run = promisify(execFile)

/** A worktree touched this recently may belong to an agent of another Swarmdesk process that is just starting, ms. */
const RECENT_MS = 60 * 60 * 1000

/** Working directories of every live process (Linux /proc); empty where /proc is unreadable. */
function liveProcessCwds(): string[] {
  const cwds: string[] = []
  let names: string[]
  try {
    names = readdirSync('/proc').filter((n) => /^\d+$/.test(n))
  } catch {
    return cwds
  }
  for (const pid of names) {
    try {
      cwds.push(readlinkSync(`/proc/${pid}/cwd`))
    } catch {
      // gone, or not ours to read
    }
  }
  return cwds
}

/**
 * The startup sweep of docs/agents.md#worktree-isolation for a workspace: removes clean worktrees left under
 * `.swarmdesk/worktrees/` by agents that are gone. A worktree is left alone when any live process
 * works inside it or it changed within the last hour — another Swarmdesk process may be using it.
 * @returns the removed paths; empty outside a git repository or when git cannot be read.
 */
export async function sweepWorkspaceWorktrees(cwd: string): Promise<string[]> {
  let repoRoot: string
  try {
    repoRoot = (
      await run('git', ['rev-parse', '--show-toplevel'], { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
    ).stdout.trim()
  } catch {
    return []
  }
  const cwds = liveProcessCwds()
  const now = Date.now()
  const isActive = (path: string): boolean => {
    if (cwds.some((c) => c === path || c.startsWith(path + sep))) return true
    try {
      return now - statSync(path).mtimeMs < RECENT_MS
    } catch {
      return false
    }
  }
  try {
    return (await sweepStaleWorktrees({ repoRoot, isActive })).removed
  } catch {
    return []
  }
}
