import { lstat, readlink } from 'node:fs/promises'
import path from 'node:path'
import { PermissionsError } from './errors'

/**
 * Canonical paths for permission checks (SPEC §4): `..` and symlinks are resolved the way the
 * kernel does — segment by segment, so `link/..` is the parent of the link's target, not of the
 * link — including a link whose target does not exist yet (read with readlink, so a dangling
 * link pointing outside the workspace is seen as outside). Below the longest existing ancestor
 * the rest is joined lexically (a directory that does not exist cannot be a link).
 */

/** More links than this in one path is a loop (Linux's MAXSYMLINKS is 40). */
const MAX_LINKS = 40

/** Thrown for a symlink loop; callers treat the path as unknown (ask). */
export class PathLoopError extends PermissionsError {
  override name = 'PathLoopError'
}

/**
 * The canonical absolute form of `p` (absolute, or relative to `cwd`).
 * @throws PathLoopError when resolving needs more than 40 links.
 */
export async function canonicalPath(p: string, cwd: string): Promise<string> {
  const pending = path.resolve(cwd, '.').split('/').filter(Boolean)
  if (path.isAbsolute(p)) pending.length = 0
  pending.push(...p.split('/'))
  let current = '/'
  let exists = true
  let links = 0
  while (pending.length > 0) {
    const seg = pending.shift() as string
    if (seg === '' || seg === '.') continue
    if (seg === '..') { current = path.dirname(current); continue }
    const next = path.join(current, seg)
    if (!exists) { current = next; continue }
    let isLink = false
    try {
      isLink = (await lstat(next)).isSymbolicLink()
    } catch {
      exists = false
      current = next
      continue
    }
    if (!isLink) { current = next; continue }
    if (++links > MAX_LINKS) throw new PathLoopError(`too many symbolic links resolving ${p}`)
    const target = await readlink(next)
    if (path.isAbsolute(target)) current = '/'
    pending.unshift(...target.split('/'))
  }
  return current
}

/** Whether `child` is `parent` or below it, comparing whole segments (`/w/app` never contains `/w/app_evil`). */
export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true
  const prefix = parent.endsWith('/') ? parent : parent + '/'
  return child.startsWith(prefix)
}

/** Directories whose contents change what runs or what is allowed; relative to the agent's root (SPEC §4). */
export const PROTECTED_DIRS = ['.git', '.swarmdesk', '.claude'] as const

/**
 * Start-up and configuration files that make later commands run code: shell rc files, and the
 * per-user configs of tools a read-only command may load (git's `core.fsmonitor`/`core.pager`,
 * npm's `script-shell`) — a workspace copy is read when HOME points at it.
 */
export const SHELL_RC_FILES = [
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv',
  '.zprofile', '.zlogin', '.zlogout', '.kshrc', '.cshrc', '.tcshrc', '.inputrc',
  '.gitconfig', '.npmrc', '.yarnrc', '.yarnrc.yml', '.curlrc', '.wgetrc'
] as const

/**
 * Why `target` (canonical) is protected for an agent rooted at `root` (canonical), or undefined.
 * Protected: anything under `<root>/.git`, `<root>/.swarmdesk`, `<root>/.claude` (at any depth
 * below the root: nested repositories' `.git` too), any shell rc file wherever it is, and the
 * settings and trust files in `extraFiles`. Resolved against the agent's own root, so an agent
 * whose root is a worktree under `<repo>/.swarmdesk/worktrees/` may edit its own files.
 */
export function protectedReason(target: string, root: string, extraFiles: readonly string[]): string | undefined {
  const base = path.basename(target)
  if ((SHELL_RC_FILES as readonly string[]).includes(base)) return `${base} is a start-up or tool configuration file (it can make later commands run code)`
  if (extraFiles.includes(target)) return `${target} is a settings file`
  if (!isWithin(target, root)) return undefined
  const segs = path.relative(root, target).split('/')
  const hit = segs.find((s) => (PROTECTED_DIRS as readonly string[]).includes(s))
  return hit ? `${hit}/ is protected` : undefined
}
