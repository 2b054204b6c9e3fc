/**
 * The escape through git's missing files is closed (docs/sandbox.md#git): a sandboxed command can
 * create a file git would obey that did not exist, so could not be mounted read-only — the main
 * checkout's `.git/commondir`, a `config.worktree`, the folder `core.hooksPath` names — and git run
 * later outside the sandbox would take code from it. The Bash tool removes what the command created
 * when it ends and says so; a daemon the command left cannot write one later (its own PID namespace).
 * All real: the Bash tool in a real PTY, /usr/bin/bwrap, real git run outside the sandbox after.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxDefaults } from '../../permissions'
import { createPtyHost } from '../../pty/ptyHost'
import type { PtyHost } from '../../pty/types'
import { sandboxAvailability } from '../../sandbox'
import { waitFor } from '../../pty/pty.testkit'
import { BashTool } from './bash'
import { shellToolContext } from './bash.testkit'
import { BashOutputTool } from './bashOutput'

let host: PtyHost
let base: string
beforeAll(() => {
  host = createPtyHost()
  base = realpathSync(mkdtempSync(join(tmpdir(), 'bash-sbx-git-')))
})
afterAll(async () => {
  await host.dispose()
  rmSync(base, { recursive: true, force: true })
})

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@x', ...args], { cwd, encoding: 'utf8' }).trim()

/**
 * A repository with one commit, and beside it an "evil" common dir: a copy of its objects and refs
 * whose config runs `core.fsmonitor`, which touches `pwned` whenever git reads the index there.
 */
function repository(name: string): { repo: string; evil: string; pwned: string } {
  const dir = join(base, name)
  const repo = join(dir, 'repo')
  mkdirSync(repo, { recursive: true })
  git(repo, 'init', '-q', '-b', 'main')
  writeFileSync(join(repo, 'a.txt'), 'a\n')
  git(repo, 'add', 'a.txt')
  git(repo, 'commit', '-q', '-m', 'init')
  const evil = join(dir, 'evil')
  const pwned = join(dir, 'pwned')
  execFileSync('cp', ['-r', join(repo, '.git'), evil])
  writeFileSync(join(evil, 'config'), `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${pwned}; false"\n`)
  return { repo, evil, pwned }
}

/** The Bash tool in `root` with the sandbox on (defaults), as an agent's tool context has it. */
function sandboxedBash(root: string) {
  const settings = sandboxDefaults()
  settings.enabled = true
  const ctx = { ...shellToolContext(host, root), sandbox: { settings, tmpDir: join(base, 'tmp') } }
  return {
    ctx,
    run: (command: string, background = false) =>
      BashTool.call({ command, ...(background ? { run_in_background: true } : {}) }, ctx)
  }
}

describe.runIf(sandboxAvailability().ok)('git files a sandboxed command creates', () => {
  it('are removed when it ends and named in its result; git outside then obeys none', async () => {
    const { repo, evil, pwned } = repository('commondir')
    // the escape, unguarded: git outside the sandbox obeys a commondir and runs the evil config's fsmonitor
    writeFileSync(join(repo, '.git', 'commondir'), `${evil}\n`)
    git(repo, 'status', '--porcelain')
    expect(existsSync(pwned)).toBe(true)
    rmSync(join(repo, '.git', 'commondir'))
    rmSync(pwned)

    const bash = sandboxedBash(repo)
    const result = await bash.run(
      `echo ${evil} > .git/commondir && echo '[core]' > .git/config.worktree && echo planted`
    )
    expect(result.content).toContain('planted')
    expect(result.content).toContain(`Sandbox removed ${join(repo, '.git', 'commondir')}`)
    expect(result.content).toContain(`Sandbox removed ${join(repo, '.git', 'config.worktree')}`)
    expect(existsSync(join(repo, '.git', 'commondir'))).toBe(false)
    expect(existsSync(join(repo, '.git', 'config.worktree'))).toBe(false)
    git(repo, 'status', '--porcelain')
    expect(existsSync(pwned)).toBe(false)
    // an ordinary sandboxed git command is left alone and says nothing of it
    const commit = await bash.run(
      'echo b > b.txt && git add b.txt && git -c user.name=a -c user.email=a@x commit -qm b && git log --format=%s'
    )
    expect(commit.content).toContain('b\ninit')
    expect(commit.content).not.toContain('Sandbox removed')
  })

  it('removes a core.hooksPath folder the checkout did not have yet', async () => {
    const { repo, pwned } = repository('hookspath')
    git(repo, 'config', 'core.hooksPath', '.husky')
    const bash = sandboxedBash(repo)
    const result = await bash.run(
      `mkdir .husky && printf '#!/bin/sh\\ntouch ${pwned}\\n' > .husky/pre-commit && chmod +x .husky/pre-commit`
    )
    expect(result.content).toContain(`Sandbox removed ${join(repo, '.husky')}`)
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'outside')
    expect(existsSync(pwned)).toBe(false)
  })

  it('leaves no process behind to write one after the check', async () => {
    const { repo, evil } = repository('daemon')
    const bash = sandboxedBash(repo)
    const result = await bash.run(
      `setsid nohup bash -c 'sleep 2; echo ${evil} > .git/commondir' >/dev/null 2>&1 & echo detached`
    )
    expect(result.content).toContain('detached')
    await new Promise((r) => setTimeout(r, 4000))
    expect(existsSync(join(repo, '.git', 'commondir'))).toBe(false)
  })

  it("checks a background shell's when it ends, and BashOutput says what was removed", async () => {
    const { repo, evil } = repository('background')
    const bash = sandboxedBash(repo)
    const started = await bash.run(`sleep 1; echo ${evil} > .git/commondir; echo written`, true)
    const shellId = /ID: (\S+)/.exec(started.content)![1]!
    await waitFor(() => bash.ctx.shells.runningCount() === 0, 60_000)
    const read = await BashOutputTool.call({ bash_id: shellId }, bash.ctx)
    expect(read.content).toContain('written')
    expect(read.content).toContain(`Sandbox removed ${join(repo, '.git', 'commondir')}`)
    expect(existsSync(join(repo, '.git', 'commondir'))).toBe(false)
  })
})
