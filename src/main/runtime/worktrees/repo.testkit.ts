import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Runs git synchronously in `cwd` for test setup and assertions; returns trimmed stdout. Test helper only. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' }
  }).trim()
}

/** A temp repository with one commit (`README.md`, `src/a.ts`) on `main`, its own identity set. */
export interface TestRepo {
  base: string
  root: string
  head(): string
  cleanup(): void
}

/** Creates a {@link TestRepo}; `commit: false` leaves HEAD unborn. Test helper only. */
export function makeRepo(opts: { commit?: boolean } = {}): TestRepo {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'swarmdesk-wt-')))
  const root = path.join(base, 'repo')
  mkdirSync(path.join(root, 'src'), { recursive: true })
  git(root, 'init', '--quiet', '-b', 'main')
  git(root, 'config', 'user.name', 'Test User')
  git(root, 'config', 'user.email', 'test@example.com')
  if (opts.commit !== false) {
    writeFileSync(path.join(root, 'README.md'), 'hello\n')
    writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1\n')
    git(root, 'add', '.')
    git(root, 'commit', '--quiet', '-m', 'initial')
  }
  return {
    base,
    root,
    head: () => git(root, 'rev-parse', 'HEAD'),
    cleanup: () => rmSync(base, { recursive: true, force: true })
  }
}

/** A fresh agent id of the runtime's shape (`a` + 16 hex) with a chosen 8-hex prefix. */
export function agentIdWith(id8: string): string {
  return `a${id8}deadbeef`
}
