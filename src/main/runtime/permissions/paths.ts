import { lstatSync, readdirSync, readlinkSync } from 'node:fs'
import path from 'node:path'
import { PermissionsError } from './errors'

/**
 * Canonical paths for permission checks (docs/permissions.md#permissions): `..` and symlinks are resolved the way the
 * kernel does — segment by segment, so `link/..` is the parent of the link's target, not of the
 * link — including a link whose target does not exist yet (read with readlink, so a dangling
 * link pointing outside the workspace is seen as outside). Below the longest existing ancestor
 * the rest is joined lexically (a directory that does not exist cannot be a link).
 *
 * The segments are read with synchronous `lstat`/`readlink` calls: each is a few microseconds on
 * a local disk, where an awaited one is a thread-pool round trip and a promise; a decision resolves
 * two or more paths of several segments on every tool call, so this is most of what the engine
 * costs per turn (docs/permissions.md#permissions).
 */

/**
 * How the file system compares names: the seam through which case-insensitive file systems are
 * handled (and modelled in tests on Linux, which has none). On one, `SECRETS/key.pem` is
 * `secrets/key.pem`: {@link canonicalPath} then spells every existing segment as it is on disk,
 * and {@link isWithin} and rule matching compare without case, so a deny rule, the workspace
 * boundary and protected directories cannot be dodged by case. Defaults to insensitive on macOS
 * and Windows, whose default file systems are (a case-sensitive APFS volume is then judged as if
 * it were not: a rule naming `SRC/` also covers `src/`).
 */
export const fileSystemCase: { insensitive: boolean } = {
  insensitive: process.platform === 'darwin' || process.platform === 'win32'
}

/** A name folded for comparison on a case-insensitive file system (Unicode-normalised, lower case). */
export function foldName(name: string): string {
  return name.normalize('NFC').toLowerCase()
}

/** More links than this in one path is a loop (Linux's MAXSYMLINKS is 40). */
const MAX_LINKS = 40

/**
 * Links here are per-process (`/proc/self/cwd`, `/proc/<pid>/root`, `/dev/fd/3`): read in the
 * engine's process they name the engine's directory or files, not those of the command or tool
 * that will use the path, so a path through one cannot be canonicalised (it asks).
 */
const PROCESS_LINK_DIRS = ['/proc', '/dev/fd']

/** Thrown for a symlink loop, or a path through a per-process link; callers treat the path as unknown (ask). */
export class PathLoopError extends PermissionsError {
  override name = 'PathLoopError'
}

/**
 * The longest path the engine resolves, in bytes: Linux's PATH_MAX (`<linux/limits.h>`, 4096,
 * the terminating NUL included). The kernel refuses longer paths (ENAMETOOLONG), so no tool can
 * use one; resolving a model's multi-megabyte "path" segment by segment would only burn time.
 */
export const MAX_PATH_BYTES = 4096

/** Thrown for a path longer than {@link MAX_PATH_BYTES}: no file can have it, so the engine refuses it rather than asking (a PathLoopError for callers that only know that one). */
export class PathTooLongError extends PathLoopError {
  override name = 'PathTooLongError'
}

/**
 * The canonical absolute form of `p` (absolute, or relative to `cwd`).
 * @throws PathLoopError when resolving needs more than 40 links.
 * @throws PathTooLongError when `p` (or `cwd` joined with it) is {@link MAX_PATH_BYTES} bytes or longer.
 */
export async function canonicalPath(p: string, cwd: string): Promise<string> {
  if (p.length >= MAX_PATH_BYTES || Buffer.byteLength(path.join(path.isAbsolute(p) ? '' : cwd, p)) >= MAX_PATH_BYTES) {
    throw new PathTooLongError(
      `a path of ${Buffer.byteLength(p)} bytes (${JSON.stringify(p.slice(0, 60))}…) is longer than the ${MAX_PATH_BYTES - 1} bytes a path may have; no file has it`
    )
  }
  const pending = path.resolve(cwd, '.').split('/').filter(Boolean)
  if (path.isAbsolute(p)) pending.length = 0
  pending.push(...p.split('/'))
  let current = '/'
  let exists = true
  let links = 0
  while (pending.length > 0) {
    let seg = pending.shift() as string
    if (seg === '' || seg === '.') continue
    if (seg === '..') {
      current = path.dirname(current)
      continue
    }
    if (exists && fileSystemCase.insensitive) seg = spelledOnDisk(current, seg)
    const next = path.join(current, seg)
    if (!exists) {
      current = next
      continue
    }
    let isLink: boolean
    try {
      isLink = lstatSync(next).isSymbolicLink()
    } catch {
      exists = false
      current = next
      continue
    }
    if (!isLink) {
      current = next
      continue
    }
    if (PROCESS_LINK_DIRS.some((d) => isWithin(next, d)))
      throw new PathLoopError(
        `${p} goes through ${next}, a link that means something else in the process that will use it (e.g. /proc/self/cwd is that process's directory)`
      )
    if (++links > MAX_LINKS) throw new PathLoopError(`too many symbolic links resolving ${p}`)
    const target = readlinkSync(next)
    if (path.isAbsolute(target)) current = '/'
    pending.unshift(...target.split('/'))
  }
  return current
}

/** The entry of `dir` that `seg` names on a case-insensitive file system: an exact match first, else one equal without case. */
function spelledOnDisk(dir: string, seg: string): string {
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch {
    return seg
  }
  if (entries.includes(seg)) return seg
  const key = foldName(seg)
  return entries.find((e) => foldName(e) === key) ?? seg
}

/**
 * Whether `child` is `parent` or below it, comparing whole segments (`/w/app` never contains
 * `/w/app_evil`); without case on a case-insensitive file system ({@link fileSystemCase}).
 */
export function isWithin(child: string, parent: string): boolean {
  if (fileSystemCase.insensitive) {
    child = foldName(child)
    parent = foldName(parent)
  }
  if (child === parent) return true
  const prefix = parent.endsWith('/') ? parent : parent + '/'
  return child.startsWith(prefix)
}

/** Directories whose contents change what runs or what is allowed; relative to the agent's root (docs/permissions.md#permissions). */
export const PROTECTED_DIRS = ['.git', '.swarmdesk', '.claude'] as const

/**
 * Start-up and configuration files that make later commands run code: shell rc files, and the
 * per-user configs of tools a read-only command may load (git's `core.fsmonitor`/`core.pager`,
 * npm's `script-shell`) — a workspace copy is read when HOME points at it.
 */
export const SHELL_RC_FILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.cshrc',
  '.tcshrc',
  '.inputrc',
  '.gitconfig',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.curlrc',
  '.wgetrc'
] as const

/**
 * Why `target` (canonical) is protected for an agent rooted at `root` (canonical), or undefined.
 * Protected: anything under `<root>/.git`, `<root>/.swarmdesk`, `<root>/.claude` (at any depth
 * below the root: nested repositories' `.git` too), any shell rc file wherever it is, and the
 * settings and trust files in `extraFiles`. Resolved against the agent's own root, so an agent
 * whose root is a worktree under `<repo>/.swarmdesk/worktrees/` may edit its own files.
 */
export function protectedReason(target: string, root: string, extraFiles: readonly string[]): string | undefined {
  // Names are compared without case on every file system: `.GIT/hooks` is `.git/hooks` wherever
  // the workspace may later be checked out or copied, and asking for it costs nothing.
  const base = path.basename(target)
  if ((SHELL_RC_FILES as readonly string[]).includes(foldName(base)))
    return `${base} is a start-up or tool configuration file (it can make later commands run code)`
  if (extraFiles.some((f) => foldName(f) === foldName(target))) return `${target} is a settings file`
  if (!isWithin(foldName(target), foldName(root))) return undefined
  const segs = path.relative(foldName(root), foldName(target)).split('/')
  const hit = segs.find((s) => (PROTECTED_DIRS as readonly string[]).includes(s))
  return hit ? `${hit}/ is protected` : undefined
}
