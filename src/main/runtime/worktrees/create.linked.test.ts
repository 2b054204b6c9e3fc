import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createWorktree } from './create'
import { finishWorktree } from './finish'
import { agentIdWith, git, makeRepo, type TestRepo } from './repo.testkit'

let repo: TestRepo | undefined
afterEach(() => repo?.cleanup())

describe('a parent working in a linked worktree', () => {
  it('gets its child under its own top level, branched from its own HEAD, excluded via the common git dir', async () => {
    repo = makeRepo()
    const linked = path.join(repo.base, 'feature')
    git(repo.root, 'worktree', 'add', '--quiet', '-b', 'feature', linked)
    writeFileSync(path.join(linked, 'feature.txt'), 'f\n')
    git(linked, 'add', 'feature.txt')
    git(linked, 'commit', '--quiet', '-m', 'feature work')
    const linkedHead = git(linked, 'rev-parse', 'HEAD')
    const mainHead = repo.head()

    const wt = await createWorktree({ cwd: linked, agentId: agentIdWith('feed0001') })
    expect(wt).toEqual({
      path: path.join(linked, '.swarmdesk', 'worktrees', 'agent-feed0001'),
      branch: 'worktree-agent-feed0001',
      baseCommit: linkedHead,
      repoRoot: linked
    })
    expect(readFileSync(path.join(wt.path, 'feature.txt'), 'utf8')).toBe('f\n')
    expect(readFileSync(path.join(repo.root, '.git', 'info', 'exclude'), 'utf8')).toContain('.swarmdesk/worktrees/\n')
    expect(git(linked, 'status', '--porcelain')).toBe('')

    expect(git(linked, 'rev-parse', 'HEAD')).toBe(linkedHead)
    expect(git(linked, 'symbolic-ref', 'HEAD')).toBe('refs/heads/feature')
    expect(repo.head()).toBe(mainHead)

    expect((await finishWorktree(wt)).kept).toBe(false)
    expect(git(repo.root, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(2)
  })
})
