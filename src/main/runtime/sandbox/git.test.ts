/**
 * Git under the sandbox (docs/sandbox.md#git), all real: git repositories and a linked worktree
 * laid out as an isolated agent's (`<repo>/.swarmdesk/worktrees/agent-…` on its own branch),
 * commands wrapped by sandboxedCommand and run under /usr/bin/bwrap. Git works from the worktree
 * and from the main checkout; what git would run code from, or be redirected by, stays read-only.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sandboxDefaults } from '../permissions'
import { sandboxAvailability, sandboxedCommand } from './bwrap'
import { gitMounts } from './gitMounts'

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'sbx-git-')))
afterAll(() => rmSync(base, { recursive: true, force: true }))

const ident = 'GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@x GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@x'
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@x', ...args], { cwd, encoding: 'utf8' }).trim()

/** A repository with one commit and a linked worktree where Swarmdesk puts an isolated agent's. */
function repository(name: string): { repo: string; worktree: string; common: string; admin: string } {
  const repo = path.join(base, name)
  mkdirSync(repo)
  git(repo, 'init', '-q', '-b', 'main')
  writeFileSync(path.join(repo, 'a.txt'), 'a\n')
  git(repo, 'add', 'a.txt')
  git(repo, 'commit', '-q', '-m', 'init')
  const worktree = path.join(repo, '.swarmdesk', 'worktrees', 'agent-1')
  // as Swarmdesk does for its worktrees (docs/agents.md#worktree-isolation)
  writeFileSync(path.join(repo, '.git', 'info', 'exclude'), '.swarmdesk/\n')
  git(repo, 'worktree', 'add', '-q', '-b', 'worktree-agent-1', worktree)
  return { repo, worktree, common: path.join(repo, '.git'), admin: path.join(repo, '.git', 'worktrees', 'agent-1') }
}

/** Runs `command` sandboxed with `root` as the agent's root; its exit status and output. */
function sandboxed(root: string, command: string): { status: number | null; out: string } {
  const tmpDir = path.join(base, 'tmp')
  mkdirSync(tmpDir, { recursive: true })
  const wrapped = sandboxedCommand(command, { root, tmpDir, settings: sandboxDefaults() })
  const r = spawnSync('bash', ['-c', wrapped], { encoding: 'utf8' })
  return { status: r.status, out: r.stdout + r.stderr }
}

/** Each of `attempts` (a shell command) fails under the sandbox; the files it aimed at keep their content. */
function expectBlocked(root: string, attempts: Record<string, string>): void {
  const before = Object.fromEntries(Object.keys(attempts).map((f) => [f, safeRead(f)]))
  for (const [file, attempt] of Object.entries(attempts)) {
    const r = sandboxed(root, attempt)
    expect(r.status, `${attempt}: ${r.out}`).not.toBe(0)
    expect(safeRead(file), file).toBe(before[file])
  }
}
const safeRead = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

describe.runIf(sandboxAvailability().ok)('git under the sandbox', () => {
  it('commits, branches, stashes and rebases in an isolated worktree; its hooks, config and pointers stay read-only', () => {
    const { repo, worktree, common, admin } = repository('wt')
    const work = sandboxed(
      worktree,
      [
        `export ${ident}`,
        'echo b > b.txt && git add b.txt && git commit -q -m "from the sandbox"',
        'git switch -q -c topic && echo c > c.txt && git add c.txt && git commit -q -m topic',
        'git switch -q worktree-agent-1 && echo d >> a.txt && git stash -q && git stash pop -q && git commit -qam stash',
        'git rebase -q topic && git log --format=%s'
      ].join(' && ')
    )
    expect(work.status, work.out).toBe(0)
    // no git error on the way (a ref deletion, as stash pop's, locks packed-refs in the common dir)
    expect(work.out.trim().split('\n')).toEqual(['stash', 'topic', 'from the sandbox', 'init'])
    // deleting a branch works; only its config section cannot be dropped, the config being read-only
    const deleted = sandboxed(worktree, 'git branch -q -D topic')
    expect(deleted.status).toBe(0)
    expect(deleted.out).toContain('Update of config-file failed')
    expect(git(repo, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main\nrefs/heads/worktree-agent-1')
    // the commits are the repository's, seen from outside
    expect(git(repo, 'log', '--format=%s', 'worktree-agent-1')).toBe('stash\ntopic\nfrom the sandbox\ninit')

    expectBlocked(worktree, {
      [path.join(common, 'config')]: `echo '[core]' >> ${common}/config`,
      [path.join(common, 'hooks', 'post-commit')]: `echo 'touch /tmp/pwned' > ${common}/hooks/post-commit`,
      [path.join(admin, 'commondir')]: `echo /tmp/evil > ${admin}/commondir`,
      [path.join(admin, 'gitdir')]: `echo /tmp/evil > ${admin}/gitdir`,
      [path.join(worktree, '.git')]: 'echo "gitdir: /tmp/evil" > .git',
      [path.join(repo, 'a.txt')]: `echo changed > ${repo}/a.txt`
    })
    // a mounted file or folder cannot be moved out of the way and replaced
    expect(sandboxed(worktree, 'mv .git old-git').status).not.toBe(0)
    expect(sandboxed(worktree, `mv ${admin} ${admin}-old`).status).not.toBe(0)
    expect(git(worktree, 'status', '--porcelain')).toBe('')
  })

  it("commits in the main checkout, where .git cannot be swapped and its worktrees' pointers stay read-only", () => {
    const { repo, admin } = repository('main')
    const r = sandboxed(repo, `export ${ident} && echo b > b.txt && git add b.txt && git commit -q -m inside`)
    expect(r.status, r.out).toBe(0)
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('inside')
    expectBlocked(repo, {
      [path.join(repo, '.git', 'config')]: `echo '[core]' >> .git/config`,
      [path.join(repo, '.git', 'hooks', 'pre-commit')]: 'echo x > .git/hooks/pre-commit',
      [path.join(admin, 'commondir')]: `echo /tmp/evil > ${admin}/commondir`
    })
    expect(sandboxed(repo, 'mv .git .git-old').status).not.toBe(0)
    expect(sandboxed(repo, `mv ${admin} ${admin}-old`).status).not.toBe(0)
    rmSync(path.join(repo, '.git', 'hooks'), { recursive: true })
    // a repository without a hooks folder gets an empty one, held read-only
    const hookless = sandboxed(repo, 'echo "touch /tmp/pwned" > .git/hooks/pre-commit')
    expect(hookless.out).toContain('Read-only file system')
    expect(readdirSync(path.join(repo, '.git', 'hooks'))).toEqual([])
    expect(git(repo, 'status', '--porcelain')).toBe('')
  })

  it('keeps a core.hooksPath inside the checkout read-only, and finds the repository above a subfolder root', () => {
    const { repo } = repository('husky')
    mkdirSync(path.join(repo, '.husky'))
    writeFileSync(path.join(repo, '.husky', 'pre-commit'), 'true\n')
    git(repo, 'config', 'core.hooksPath', '.husky')
    mkdirSync(path.join(repo, 'pkg'))
    expect(gitMounts(path.join(repo, 'pkg')).readOnly).toContain(path.join(repo, '.husky'))
    expectBlocked(repo, { [path.join(repo, '.husky', 'pre-commit')]: 'echo "touch /tmp/pwned" > .husky/pre-commit' })
  })

  it('mounts nothing of git outside a repository', () => {
    const plain = path.join(base, 'plain')
    mkdirSync(plain)
    expect(gitMounts(plain)).toEqual({ writable: [], readOnly: [] })
  })
})
