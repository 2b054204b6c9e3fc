import { existsSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createWorktree } from './create'
import { sweepStaleWorktrees } from './sweep'
import { agentIdWith, git, makeRepo, type TestRepo } from './repo.testkit'

let repo: TestRepo | undefined
afterEach(() => repo?.cleanup())

describe('sweepStaleWorktrees', () => {
  it('removes stale clean worktrees and keeps dirty, committed and active ones', async () => {
    repo = makeRepo()
    const root = repo.root
    const [clean, dirty, committed, active] = await Promise.all(
      ['00000001', '00000002', '00000003', '00000004'].map((id8) =>
        createWorktree({ cwd: root, agentId: agentIdWith(id8) })
      )
    )
    writeFileSync(path.join(dirty.path, 'wip.txt'), 'wip\n')
    writeFileSync(path.join(committed.path, 'README.md'), 'done\n')
    git(committed.path, 'commit', '--quiet', '-am', 'done')

    const result = await sweepStaleWorktrees({ repoRoot: root, isActive: (p) => p === active.path })
    expect(result.removed).toEqual([clean.path])
    expect(result.kept.sort()).toEqual([dirty.path, committed.path, active.path].sort())
    expect(existsSync(clean.path)).toBe(false)
    expect(git(root, 'branch', '--list', clean.branch)).toBe('')
    expect(existsSync(path.join(dirty.path, 'wip.txt'))).toBe(true)
  })

  it('prunes worktrees whose directory was deleted by hand and ignores worktrees elsewhere', async () => {
    repo = makeRepo()
    const wt = await createWorktree({ cwd: repo.root, agentId: agentIdWith('00000001') })
    git(repo.root, 'worktree', 'add', '--quiet', '-b', 'side', path.join(repo.base, 'side'))
    rmSync(wt.path, { recursive: true, force: true })

    const result = await sweepStaleWorktrees({ repoRoot: repo.root, isActive: () => false })
    expect(result).toEqual({ removed: [], kept: [] })
    expect(git(repo.root, 'worktree', 'list', '--porcelain')).not.toContain('agent-00000001')
    expect(existsSync(path.join(repo.base, 'side'))).toBe(true)
  })

  it('keeps a worktree whose record is missing, since its base is unknown', async () => {
    repo = makeRepo()
    const wt = await createWorktree({ cwd: repo.root, agentId: agentIdWith('00000001') })
    const adminDir = git(wt.path, 'rev-parse', '--absolute-git-dir')
    rmSync(path.join(adminDir, 'swarmdesk-worktree.json'))
    const result = await sweepStaleWorktrees({ repoRoot: repo.root, isActive: () => false })
    expect(result).toEqual({ removed: [], kept: [wt.path] })
  })
})
