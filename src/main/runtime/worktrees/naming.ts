import path from 'node:path'
import { InvalidAgentIdError } from './errors'

/** Directory, relative to the repo root, holding every isolated worktree (docs/storage.md#layout). */
export const WORKTREES_DIR = path.join('.swarmdesk', 'worktrees')

/** The line added to the common git dir's `info/exclude`; with a slash in the middle it matches only at each checkout's root. */
export const EXCLUDE_LINE = '.swarmdesk/worktrees/'

/**
 * The 8-character name part of an agent's worktree. Agent ids are `a` + 16 hex (docs/tools.md#tools); id8 is
 * the 8 hex digits after the `a`, so the directory reads `agent-1234abcd` rather than
 * `agent-a1234abc`. 32 bits keep collisions between live agents of one repo negligible, and a
 * collision fails loudly (`git worktree add` refuses an existing path or branch).
 * @throws InvalidAgentIdError for any other id shape.
 */
export function agentId8(agentId: string): string {
  const m = /^a([0-9a-f]{8})[0-9a-f]*$/i.exec(agentId)
  if (!m) throw new InvalidAgentIdError(agentId)
  return m[1].toLowerCase()
}

/** `<repoRoot>/.swarmdesk/worktrees/agent-<id8>`. */
export function worktreePathFor(repoRoot: string, agentId: string): string {
  return path.join(repoRoot, WORKTREES_DIR, `agent-${agentId8(agentId)}`)
}

/** `worktree-agent-<id8>`. */
export function worktreeBranchFor(agentId: string): string {
  return `worktree-agent-${agentId8(agentId)}`
}
