import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createWorktree } from '../worktrees'
import { sweepWorkspaceWorktrees } from './startupSweep'

let repo: string
beforeEach(() => {
  repo = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sweep-')))
  const git = (...a: string[]) =>
    execFileSync('git', a, {
      cwd: repo,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t.invalid',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t.invalid'
      }
    })
  git('init', '-q', '-b', 'main')
  writeFileSync(join(repo, 'a.txt'), 'a\n')
  git('add', '-A')
  git('commit', '-q', '-m', 'a')
})
afterEach(() => rmSync(repo, { recursive: true, force: true }))

describe('startup worktree sweep', () => {
  it('removes an old clean worktree and keeps a recent one and a dirty one', async () => {
    const old = await createWorktree({ cwd: repo, agentId: 'a1111111111111111' })
    const recent = await createWorktree({ cwd: repo, agentId: 'a2222222222222222' })
    const dirty = await createWorktree({ cwd: repo, agentId: 'a3333333333333333' })
    writeFileSync(join(dirty.path, 'scratch.txt'), 'work in progress\n')
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000)
    utimesSync(old.path, twoHoursAgo, twoHoursAgo)
    utimesSync(dirty.path, twoHoursAgo, twoHoursAgo)
    const removed = await sweepWorkspaceWorktrees(repo)
    expect(removed).toEqual([old.path])
    expect(existsSync(old.path)).toBe(false)
    expect(existsSync(recent.path)).toBe(true)
    expect(existsSync(join(dirty.path, 'scratch.txt'))).toBe(true)
  })

  it('does nothing outside a git repository', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'swarmdesk-plain-'))
    try {
      expect(await sweepWorkspaceWorktrees(plain)).toEqual([])
    } finally {
      rmSync(plain, { recursive: true, force: true })
    }
  })
})
