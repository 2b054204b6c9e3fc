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

/** What git runs code from or is redirected by, in a git dir (a repository's, or a submodule's). */
export const GIT_DIR_FILES = ['hooks', 'config', 'config.worktree', 'commondir'] as const
/** The same, in a linked worktree's admin folder `worktrees/<name>/`. */
export const ADMIN_FILES = ['commondir', 'gitdir', 'config.worktree'] as const

/**
 * The repository a folder belongs to, as git finds it (docs/sandbox.md#git): `dotGit` is the
 * first `.git` (folder or file) in the folder or one above it; `gitDir` the git dir holding its
 * config and hooks — `.git/` of a main checkout, the common dir a linked worktree's `.git` file
 * leads to, a submodule's git dir (undefined when a `.git` file leads nowhere); `linked` when
 * `.git` is a file; `admins` the admin folders `worktrees/<name>/` and `modules` the submodule git
 * dirs `modules/<name>/` of `gitDir`; `hooksPath` the folder `core.hooksPath` names, resolved from
 * the checkout. Absolute paths.
 */
export interface GitRepository {
  dotGit: string
  gitDir?: string
  linked: boolean
  admins: string[]
  modules: string[]
  hooksPath?: string
}

/** The {@link GitRepository} `root` belongs to; undefined outside any repository. */
export function repositoryOf(root: string): GitRepository | undefined {
  const dotGit = findDotGit(root)
  if (!dotGit) return undefined
  const linked = !lstatSync(dotGit).isDirectory()
  let gitDir: string | undefined = dotGit
  if (linked) {
    const adminDir = gitDirOfFile(dotGit)
    // a linked worktree's admin folder names the common dir; a submodule's checkout points to a whole git dir
    gitDir = adminDir && (commonDirOf(adminDir) ?? adminDir)
  }
  if (!gitDir) return { dotGit, linked, admins: [], modules: [] }
  const hooksPath = hooksPathOf(gitDir, path.dirname(dotGit))
  return {
    dotGit,
    gitDir,
    linked,
    admins: subfolders(path.join(gitDir, 'worktrees')),
    modules: subfolders(path.join(gitDir, 'modules')),
    ...(hooksPath ? { hooksPath } : {})
  }
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
 * it only with that extension). What is still missing cannot be held by a mount; the command's
 * end removes what it created of it ({@link watchGitRedirects}).
 */
export function gitMounts(root: string): GitMounts {
  const repo = repositoryOf(root)
  if (!repo) return { writable: [], readOnly: [] }
  if (!repo.gitDir) return { writable: [], readOnly: [repo.dotGit] }
  const { gitDir, admins, modules } = repo
  if (worktreeConfigOn(gitDir)) for (const dir of [gitDir, ...admins]) ensureFile(path.join(dir, 'config.worktree'))
  // a repository made without hooks (git init --template=) gets an empty folder to hold read-only
  for (const dir of [gitDir, ...modules]) mkdirSync(path.join(dir, 'hooks'), { recursive: true })
  const readOnly = [
    ...(repo.linked ? [repo.dotGit] : []),
    ...redirectsOf(repo),
    ...(repo.hooksPath ? [repo.hooksPath] : [])
  ]
  return { writable: [gitDir, ...admins, ...modules], readOnly }
}

/** Every path of {@link GIT_DIR_FILES} and {@link ADMIN_FILES} in the repository's git dirs and admin folders. */
export function redirectsOf(repo: GitRepository): string[] {
  if (!repo.gitDir) return []
  const gitDir = repo.gitDir
  return [
    ...GIT_DIR_FILES.map((f) => path.join(gitDir, f)),
    ...repo.admins.flatMap((admin) => ADMIN_FILES.map((f) => path.join(admin, f))),
    ...repo.modules.flatMap((sub) => GIT_DIR_FILES.map((f) => path.join(sub, f)))
  ]
}

/** The folder `core.hooksPath` names in the config of `commonDir`, resolved from the checkout `top`. */
function hooksPathOf(commonDir: string, top: string): string | undefined {
  const config = readText(path.join(commonDir, 'config'))
  const hooksPath = config?.match(/^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/im)?.[1]
  if (!hooksPath) return undefined
  return hooksPath.startsWith('~/')
    ? path.join(process.env.HOME ?? '/', hooksPath.slice(2))
    : path.resolve(top, hooksPath)
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
