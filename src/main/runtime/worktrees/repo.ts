import { appendFile, mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { GitCommandError, NotAGitRepositoryError, UnbornHeadError } from './errors'
import { runGit } from './git'
import { EXCLUDE_LINE } from './naming'

/** Where a cwd sits in git: its checkout's top level and the repository's common git dir. */
export interface RepoLocation {
  /** `git rev-parse --show-toplevel`: for a parent in a linked worktree or a submodule, that checkout — not the main one. */
  repoRoot: string
  /** `git rev-parse --git-common-dir` (absolute): the dir shared by all worktrees, holding `info/exclude` and `worktrees/`. */
  commonDir: string
}

/**
 * Locates the repository containing `cwd`.
 * @throws NotAGitRepositoryError when `cwd` is outside any repository; GitCommandError otherwise.
 */
export async function locateRepo(cwd: string): Promise<RepoLocation> {
  let out: string
  try {
    out = await runGit(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir'], cwd)
  } catch (err) {
    if (err instanceof GitCommandError && /not a git repository/i.test(err.stderr))
      throw new NotAGitRepositoryError(cwd)
    throw err
  }
  const [repoRoot, commonDir] = out.split('\n').map((l) => l.trim())
  return { repoRoot, commonDir }
}

/**
 * The full sha of HEAD in `cwd`.
 * @throws UnbornHeadError when the repository has no commit yet.
 */
export async function headCommit(cwd: string, repoRoot: string): Promise<string> {
  try {
    return (await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], cwd)).trim()
  } catch (err) {
    if (err instanceof GitCommandError && err.exitCode === 1) throw new UnbornHeadError(repoRoot)
    throw err
  }
}

/**
 * Adds {@link EXCLUDE_LINE} to `<commonDir>/info/exclude` unless a line already says so. The common
 * dir's exclude file applies to every worktree of the repository, so one line keeps the
 * worktrees out of `git status` in the main checkout and in any linked one. Not atomic across
 * processes: callers run it inside the per-repo queue.
 */
export async function ensureExcluded(commonDir: string): Promise<void> {
  const file = path.join(commonDir, 'info', 'exclude')
  let text = ''
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const lines = text.split(/\r?\n/).map((l) => l.trim())
  if (lines.includes(EXCLUDE_LINE) || lines.includes(`/${EXCLUDE_LINE}`)) return
  await mkdir(path.dirname(file), { recursive: true })
  const sep = text === '' || text.endsWith('\n') ? '' : '\n'
  await appendFile(file, `${sep}${EXCLUDE_LINE}\n`)
}
