import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A fresh git repository with one commit (README.md and notes.txt), as a person's project would
 * be; the caller removes it. Commits need no global git identity. With `name`, the repository is
 * a folder of that name inside the temp folder (tests of folder names in any script).
 * @returns its canonical path.
 */
export function createTempRepo(name?: string): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-repo-')))
  const dir = name === undefined ? base : join(base, name)
  if (name !== undefined) mkdirSync(dir)
  writeFileSync(join(dir, 'README.md'), '# e2e project\n\nA small repository for the end-to-end tests.\n')
  writeFileSync(join(dir, 'notes.txt'), 'first line\n')
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=E2E', '-c', 'user.email=e2e@swarmdesk.invalid', '-c', 'commit.gpgsign=false', ...args],
      { cwd: dir, stdio: 'pipe' }
    )
  git('init', '-q', '-b', 'main')
  git('add', '.')
  git('commit', '-q', '-m', 'Initial commit')
  return dir
}
