import { z } from 'zod'

/**
 * One agent's isolated checkout (docs/agents.md#worktree-isolation). All paths are absolute and symlink-resolved (as git
 * reports them).
 */
export interface Worktree {
  /** `<repoRoot>/.swarmdesk/worktrees/agent-<id8>`: the agent's pinned cwd. */
  path: string
  /** `worktree-agent-<id8>`, created at `baseCommit`. */
  branch: string
  /** Full sha of the parent's HEAD when the worktree was made; "new commits" are counted from it. */
  baseCommit: string
  /** `git rev-parse --show-toplevel` in the parent's cwd: the parent's own checkout (a linked worktree or submodule when the parent is in one). */
  repoRoot: string
}

/** What {@link finishWorktree} did. A discriminated union: a kept worktree always carries where it is. */
export type FinishResult =
  { kept: true; reason: string; path: string; branch: string } | { kept: false; reason: string }

/** What {@link sweepStaleWorktrees} did, as absolute worktree paths. */
export interface SweepResult {
  removed: string[]
  kept: string[]
}

/** File name of the record written into git's per-worktree admin dir (`.git/worktrees/<name>/`). */
export const WORKTREE_RECORD_FILE = 'swarmdesk-worktree.json'

/**
 * The record kept beside git's own per-worktree files so the startup sweep knows each worktree's
 * base. It lives in the admin dir rather than in the checkout because there it never shows up in
 * `git status`, and `git worktree remove`/`prune` delete it together with the worktree.
 */
export const WorktreeRecordSchema = z.object({
  schemaVersion: z.literal(1),
  agentId: z.string(),
  branch: z.string(),
  baseCommit: z.string().regex(/^[0-9a-f]{40,64}$/),
  createdAt: z.string()
})

/** Parsed {@link WorktreeRecordSchema}. */
export type WorktreeRecord = z.infer<typeof WorktreeRecordSchema>
