import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createWorktree } from './create'
import { finishWorktree } from './finish'
import { agentIdWith, git, makeRepo, type TestRepo } from './repo.testkit'

let repo: TestRepo | undefined
afterEach(() => repo?.cleanup())

describe('parallel isolated agents', () => {
  it('three worktrees created at once each commit on their own branch; the parent HEAD and files are untouched', async () => {
    repo = makeRepo()
    const headBefore = repo.head()
    const branchBefore = git(repo.root, 'symbolic-ref', 'HEAD')
    const fileBefore = readFileSync(path.join(repo.root, 'src', 'a.ts'), 'utf8')

    const ids = ['aaaa0001', 'bbbb0002', 'cccc0003']
    const wts = await Promise.all(ids.map((id8) => createWorktree({ cwd: repo!.root, agentId: agentIdWith(id8) })))
    expect(new Set(wts.map((w) => w.path)).size).toBe(3)

    await Promise.all(
      wts.map(async (wt, i) => {
        writeFileSync(path.join(wt.path, 'src', 'a.ts'), `export const a = ${i + 10}\n`)
        git(wt.path, 'commit', '--quiet', '-am', `agent ${i}`)
      })
    )
    for (const [i, wt] of wts.entries()) {
      expect(git(repo.root, 'log', '-1', '--format=%s', wt.branch)).toBe(`agent ${i}`)
      expect(git(repo.root, 'rev-parse', `${wt.branch}~1`)).toBe(headBefore)
      expect(readFileSync(path.join(wt.path, 'src', 'a.ts'), 'utf8')).toBe(`export const a = ${i + 10}\n`)
    }

    expect(repo.head()).toBe(headBefore)
    expect(git(repo.root, 'symbolic-ref', 'HEAD')).toBe(branchBefore)
    expect(readFileSync(path.join(repo.root, 'src', 'a.ts'), 'utf8')).toBe(fileBefore)
    expect(git(repo.root, 'status', '--porcelain')).toBe('')

    const results = await Promise.all(wts.map((wt) => finishWorktree(wt)))
    expect(results.every((r) => r.kept)).toBe(true)
  })

  it('finishes many clean worktrees in parallel without lock failures', async () => {
    repo = makeRepo()
    const wts = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createWorktree({ cwd: repo!.root, agentId: agentIdWith(`0000000${i}`) }))
    )
    const results = await Promise.all(wts.map((wt) => finishWorktree(wt)))
    expect(results.map((r) => r.kept)).toEqual(Array(6).fill(false))
    expect(git(repo.root, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1)
  })
})
