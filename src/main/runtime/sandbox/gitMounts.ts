import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * What a sandboxed command in `root` may write of git's own files, and what of them stays
 * read-only though it lies in a writable place (docs/sandbox.md#git). Absolute paths, for bwrap
 * `--bind` and `--ro-bind`; a path that does not exist is skipped by the caller.
 */
export interface GitMounts {
  /** Bound read-write after the root: git's metadata the command's git needs to write. */
  writable: string[]
  /** Bound read-only over everything writable: what git would run code from, or be redirected by. */
  readOnly: string[]
}

/**
 * The git metadata of the repository `root` belongs to (docs/sandbox.md#git), found as git finds it:
 * the first `.git` in `root` or a folder above it. Its git directory — `.git/` of a main checkout,
 * or for a linked worktree (an isolated agent's) the repository's common git dir its `.git` file
 * leads to — is writable and bound onto itself, so it is a mount point a command cannot rename
 * away and replace: a commit, a branch, a stash, a rebase, a fetch write objects, refs, logs,
 * `packed-refs` and the lock files beside them there, and a worktree's HEAD and index in its admin
 * folder `worktrees/<name>/`. Read-only inside it: `hooks`, `config`, `config.worktree` and a
 * `commondir` if present; each admin folder's `commondir`, `gitdir` and `config.worktree`; the
 * same files of each submodule's git directory (`modules/<name>/`) — admin folders and submodule
 * git dirs are bound onto themselves too, so they cannot be swapped either; a linked worktree's `.git`
 * file (rewritten, it would point git elsewhere); and the folder `core.hooksPath` names.
 *
 * A missing `hooks` folder is created empty. When the repository turns on `extensions.worktreeConfig`, a missing `config.worktree` of the git
 * dir and of each admin folder is created empty, so there is a file to hold read-only (git reads
 * it only with that extension). Not covered: a `commondir` file created in the git dir where none
 * was would point git, run later in the main checkout, to another config.
 */
export function gitMounts(root: string): GitMounts {
  const dotGit = findDotGit(root)
  if (!dotGit) return { writable: [], readOnly: [] }
  const top = path.dirname(dotGit)
  if (lstatSync(dotGit).isDirectory()) return withHooksPath(mainGitDir(dotGit), dotGit, top)
  const adminDir = gitDirOfFile(dotGit)
  if (!adminDir) return { writable: [], readOnly: [dotGit] }
  // a linked worktree's admin folder names the common dir; a submodule's checkout points to a whole git dir
  const gitDir = commonDirOf(adminDir) ?? adminDir
  const mounts = mainGitDir(gitDir)
  return withHooksPath({ writable: mounts.writable, readOnly: [dotGit, ...mounts.readOnly] }, gitDir, top)
}

/**
 * A git directory: writable, its code and redirections read-only, and those of its worktrees'
 * admin folders and submodules' git dirs, each of which is bound onto itself too (a folder that
 * is not a mount point could be renamed away, taking its read-only files with it, and replaced).
 */
function mainGitDir(gitDir: string): GitMounts {
  const admins = subfolders(path.join(gitDir, 'worktrees'))
  const modules = subfolders(path.join(gitDir, 'modules'))
  if (worktreeConfigOn(gitDir)) for (const dir of [gitDir, ...admins]) ensureFile(path.join(dir, 'config.worktree'))
  // a repository made without hooks (git init --template=) gets an empty folder to hold read-only
  for (const dir of [gitDir, ...modules]) mkdirSync(path.join(dir, 'hooks'), { recursive: true })
  const readOnly = ['hooks', 'config', 'config.worktree', 'commondir'].map((f) => path.join(gitDir, f))
  for (const admin of admins)
    readOnly.push(...['commondir', 'gitdir', 'config.worktree'].map((f) => path.join(admin, f)))
  for (const sub of modules)
    readOnly.push(...['hooks', 'config', 'config.worktree', 'commondir'].map((f) => path.join(sub, f)))
  return { writable: [gitDir, ...admins, ...modules], readOnly }
}

/** `mounts` with the `core.hooksPath` of the config in `commonDir` read-only (relative to the checkout `top`). */
function withHooksPath(mounts: GitMounts, commonDir: string, top: string): GitMounts {
  const config = readText(path.join(commonDir, 'config'))
  const hooksPath = config?.match(/^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/im)?.[1]
  if (!hooksPath) return mounts
  const resolved = hooksPath.startsWith('~/')
    ? path.join(process.env.HOME ?? '/', hooksPath.slice(2))
    : path.resolve(top, hooksPath)
  return { ...mounts, readOnly: [...mounts.readOnly, resolved] }
}

/** The first `<dir>/.git` (folder or file) from `root` up to `/`. */
function findDotGit(root: string): string | undefined {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.git')
    if (existsSync(candidate)) return candidate
    if (path.dirname(dir) === dir) return undefined
  }
}

/** The git dir a `.git` file names (`gitdir: <path>`, relative to the file's folder). */
function gitDirOfFile(file: string): string | undefined {
  const target = readText(file)?.match(/^gitdir:\s*(.+?)\s*$/m)?.[1]
  return target ? path.resolve(path.dirname(file), target) : undefined
}

/** The common git dir a linked worktree's admin folder names in its `commondir` file. */
function commonDirOf(adminDir: string): string | undefined {
  const target = readText(path.join(adminDir, 'commondir'))?.trim()
  return target ? path.resolve(adminDir, target) : undefined
}

/** Whether the repository's config turns on `extensions.worktreeConfig` (per-worktree config files). */
function worktreeConfigOn(commonDir: string): boolean {
  return /^\s*worktreeconfig\s*=\s*(true|yes|on|1)\s*$/im.test(readText(path.join(commonDir, 'config')) ?? '')
}

function ensureFile(file: string): void {
  if (!existsSync(file)) writeFileSync(file, '')
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(dir, e.name))
  } catch {
    return []
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}
