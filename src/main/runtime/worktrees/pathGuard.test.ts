import { mkdirSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { forkWorktreeNotice, translatePath, worktreePathGuard } from './pathGuard'
import type { Worktree } from './types'
import { makeRepo } from './repo.testkit'

const wt: Worktree = {
  repoRoot: '/w/repo',
  path: '/w/repo/.swarmdesk/worktrees/agent-1234abcd',
  branch: 'worktree-agent-1234abcd',
  baseCommit: 'c0ffee'.padEnd(40, '0')
}

describe('worktreePathGuard', () => {
  const guard = worktreePathGuard(wt)

  it('refuses an absolute path into the parent checkout, naming the worktree and the translated path', () => {
    const verdict = guard('/w/repo/src/a.ts')
    expect(verdict).toEqual({
      ok: false,
      message:
        '/w/repo/src/a.ts is in the parent checkout /w/repo; this agent works in the isolated worktree /w/repo/.swarmdesk/worktrees/agent-1234abcd: use /w/repo/.swarmdesk/worktrees/agent-1234abcd/src/a.ts',
      translatedPath: '/w/repo/.swarmdesk/worktrees/agent-1234abcd/src/a.ts'
    })
    expect(guard('/w/repo').ok).toBe(false)
  })

  it('allows paths in the worktree and leaves paths outside the repository to the permission engine', () => {
    expect(guard('/w/repo/.swarmdesk/worktrees/agent-1234abcd')).toEqual({ ok: true })
    expect(guard('/w/repo/.swarmdesk/worktrees/agent-1234abcd/src/new.ts')).toEqual({ ok: true })
    expect(guard('/etc/hosts')).toEqual({ ok: true })
    expect(guard('/w/repository-next/x')).toEqual({ ok: true })
    expect(guard('src/a.ts')).toEqual({ ok: true })
    expect(guard('../../../src/a.ts').ok).toBe(false)
  })

  it("refuses another agent's worktree and the git directory without offering a translation", () => {
    const other = guard('/w/repo/.swarmdesk/worktrees/agent-99999999/src/a.ts')
    expect(other).toMatchObject({ ok: false, message: expect.stringMatching(/another agent's worktree/) })
    expect(other).not.toHaveProperty('translatedPath')
    expect(guard('/w/repo/.git/config')).toMatchObject({ ok: false, message: expect.stringMatching(/git directory/) })
  })

  it('judges a symlink inside the worktree by where it leads', () => {
    const repo = makeRepo()
    try {
      const real: Worktree = {
        ...wt,
        repoRoot: repo.root,
        path: path.join(repo.root, '.swarmdesk', 'worktrees', 'agent-1234abcd')
      }
      mkdirSync(real.path, { recursive: true })
      symlinkSync(path.join(repo.root, 'src'), path.join(real.path, 'escape'))
      const verdict = worktreePathGuard(real)(path.join(real.path, 'escape', 'a.ts'))
      expect(verdict).toMatchObject({ ok: false, translatedPath: path.join(real.path, 'src', 'a.ts') })
    } finally {
      repo.cleanup()
    }
  })
})

describe('translatePath and the fork notice', () => {
  it('maps parent checkout paths into the worktree and leaves others alone', () => {
    expect(translatePath(wt, '/w/repo/pkg/b.ts')).toBe('/w/repo/.swarmdesk/worktrees/agent-1234abcd/pkg/b.ts')
    expect(translatePath(wt, '/w/repo/.swarmdesk/worktrees/agent-1234abcd/x')).toBe(
      '/w/repo/.swarmdesk/worktrees/agent-1234abcd/x'
    )
    expect(translatePath(wt, '/tmp/x')).toBe('/tmp/x')
  })

  it("tells a fork that inherited paths are the parent's and where the parent's cwd is in its worktree", () => {
    const notice = forkWorktreeNotice('/w/repo/pkg', wt)
    expect(notice).toContain('/w/repo/pkg')
    expect(notice).toContain('/w/repo/.swarmdesk/worktrees/agent-1234abcd/pkg')
    expect(notice).toMatch(/translate/i)
  })
})
