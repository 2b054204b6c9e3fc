import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createWorktree } from './create'
import { finishWorktree } from './finish'
import { agentIdWith, git, makeRepo, type TestRepo } from './repo.testkit'

let repo: TestRepo | undefined
afterEach(() => repo?.cleanup())

function branchExists(root: string, branch: string): boolean {
  return git(root, 'branch', '--list', branch) !== ''
}

describe('finishWorktree', () => {
  it('removes a clean worktree: directory and branch gone', async () => {
    repo = makeRepo()
    const wt = await createWorktree({ cwd: repo.root, agentId: agentIdWith('1234abcd') })
    const result = await finishWorktree(wt)
    expect(result.kept).toBe(false)
    expect(existsSync(wt.path)).toBe(false)
    expect(branchExists(repo.root, wt.branch)).toBe(false)
  })

  it('keeps and reports a worktree holding an untracked file', async () => {
    repo = makeRepo()
    const wt = await createWorktree({ cwd: repo.root, agentId: agentIdWith('1234abcd') })
    writeFileSync(path.join(wt.path, 'notes.txt'), 'draft\n')
    const result = await finishWorktree(wt)
    expect(result).toEqual({
      kept: true,
      reason: expect.stringMatching(/uncommitted changes/),
      path: wt.path,
      branch: wt.branch
    })
    expect(existsSync(path.join(wt.path, 'notes.txt'))).toBe(true)
    expect(branchExists(repo.root, wt.branch)).toBe(true)
  })

  it('keeps a worktree whose status is clean but which has a new commit', async () => {
    repo = makeRepo()
    const wt = await createWorktree({ cwd: repo.root, agentId: agentIdWith('1234abcd') })
    writeFileSync(path.join(wt.path, 'README.md'), 'changed\n')
    git(wt.path, 'commit', '--quiet', '-am', 'change')
    expect(git(wt.path, 'status', '--porcelain')).toBe('')
    const result = await finishWorktree(wt)
    expect(result.kept).toBe(true)
    expect(result.reason).toMatch(/1 new commit/)
    expect(existsSync(wt.path)).toBe(true)
  })

  it('keeps a worktree whose agent committed and then switched HEAD back to the base', async () => {
    repo = makeRepo()
    const wt = await createWorktree({ cwd: repo.root, agentId: agentIdWith('1234abcd') })
    writeFileSync(path.join(wt.path, 'README.md'), 'changed\n')
    git(wt.path, 'commit', '--quiet', '-am', 'change')
    git(wt.path, 'checkout', '--quiet', '--detach', wt.baseCommit)
    const result = await finishWorktree(wt)
    expect(result.kept).toBe(true)
    expect(result.reason).toMatch(/worktree-agent-1234abcd/)
  })

  it('keeps the worktree when git fails, with the error in the reason', async () => {
    repo = makeRepo()
    const wt = await createWorktree({ cwd: repo.root, agentId: agentIdWith('1234abcd') })
    // Tests run as root, so permissions cannot break git; a .git file pointing nowhere does.
    writeFileSync(path.join(wt.path, '.git'), 'gitdir: /nonexistent/swarmdesk/gitdir\n')
    const result = await finishWorktree(wt)
    expect(result.kept).toBe(true)
    expect(result.reason).toMatch(/git failed.*not a git repository/is)
    expect(existsSync(wt.path)).toBe(true)
    expect(branchExists(repo.root, wt.branch)).toBe(true)
  })

  it("keeps a clean worktree that holds an isolated grandchild's worktree, so the nested work survives", async () => {
    repo = makeRepo()
    const outer = await createWorktree({ cwd: repo.root, agentId: agentIdWith('0000000a') })
    const inner = await createWorktree({ cwd: outer.path, agentId: agentIdWith('0000000b') })
    expect(inner.path).toBe(path.join(outer.path, '.swarmdesk', 'worktrees', 'agent-0000000b'))
    writeFileSync(path.join(inner.path, 'wip.txt'), 'wip\n')
    const result = await finishWorktree(outer)
    expect(result.kept).toBe(true)
    expect(result.reason).toMatch(/contains another worktree/)
    expect(existsSync(path.join(inner.path, 'wip.txt'))).toBe(true)
  })
})
