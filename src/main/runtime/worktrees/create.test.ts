import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createWorktree } from './create'
import { InvalidAgentIdError, NotAGitRepositoryError, UnbornHeadError } from './errors'
import { agentIdWith, git, makeRepo, type TestRepo } from './repo.testkit'

let repo: TestRepo | undefined
afterEach(() => repo?.cleanup())

describe('createWorktree', () => {
  it('creates .swarmdesk/worktrees/agent-<id8> on branch worktree-agent-<id8> at the parent HEAD', async () => {
    repo = makeRepo()
    const wt = await createWorktree({ cwd: path.join(repo.root, 'src'), agentId: agentIdWith('1234abcd') })
    expect(wt).toEqual({
      path: path.join(repo.root, '.swarmdesk', 'worktrees', 'agent-1234abcd'),
      branch: 'worktree-agent-1234abcd',
      baseCommit: repo.head(),
      repoRoot: repo.root
    })
    expect(git(wt.path, 'rev-parse', 'HEAD')).toBe(repo.head())
    expect(git(wt.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('worktree-agent-1234abcd')
    expect(readFileSync(path.join(wt.path, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1\n')
  })

  it('adds .swarmdesk/worktrees/ to info/exclude exactly once and keeps the parent status clean', async () => {
    repo = makeRepo()
    await createWorktree({ cwd: repo.root, agentId: agentIdWith('00000001') })
    await createWorktree({ cwd: repo.root, agentId: agentIdWith('00000002') })
    const exclude = readFileSync(path.join(repo.root, '.git', 'info', 'exclude'), 'utf8')
    expect(exclude.split('\n').filter((l) => l === '.swarmdesk/worktrees/')).toHaveLength(1)
    expect(git(repo.root, 'status', '--porcelain')).toBe('')
  })

  it('refuses a cwd outside any git repository, saying isolation needs one', async () => {
    repo = makeRepo()
    const err = await createWorktree({ cwd: repo.base, agentId: agentIdWith('1234abcd') }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NotAGitRepositoryError)
    expect((err as Error).message).toMatch(/isolation needs a git repository/)
  })

  it('refuses a repository without commits with a clear error and leaves nothing behind', async () => {
    repo = makeRepo({ commit: false })
    const err = await createWorktree({ cwd: repo.root, agentId: agentIdWith('1234abcd') }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UnbornHeadError)
    expect((err as Error).message).toMatch(/no commit/i)
    expect(existsSync(path.join(repo.root, '.swarmdesk', 'worktrees', 'agent-1234abcd'))).toBe(false)
  })

  it('rejects an agent id that is not a + hex', async () => {
    repo = makeRepo()
    await expect(createWorktree({ cwd: repo.root, agentId: 'worker@team' })).rejects.toBeInstanceOf(InvalidAgentIdError)
  })
})
