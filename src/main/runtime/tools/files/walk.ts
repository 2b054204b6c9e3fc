import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { type IgnoreStack, isIgnored, loadIgnoreLayer } from './gitignore'
import { ToolError } from '../types'

/** Options of {@link walkFiles}. */
export interface WalkOptions {
  /** Absolute directory to list files under. Never itself skipped, whatever its name. */
  root: string
  /** Apply `.gitignore` files met in the walk on top of `ignoreStack` (Grep: yes; Glob: no). */
  gitignore: boolean
  /** Layers applying from above the root (see `ancestorIgnoreLayers`); only used with `gitignore`. */
  ignoreStack?: IgnoreStack
  /** Enter directories and list files whose name starts with a dot. */
  hidden: boolean
  /** Directory names never entered below the root (Glob: `node_modules`). */
  skipDirNames?: ReadonlySet<string>
  /**
   * List symlinked files met in the walk (default true: Glob lists names). Grep passes false:
   * it reads contents, and a link inside the workspace may point at a file outside it or at one a
   * deny rule covers, which the permission check of the search directory never saw (ripgrep and
   * `grep -r` skip such links too).
   */
  linkedFiles?: boolean
  /** Stop promptly when aborted: throws ToolError. */
  signal?: AbortSignal
}

/**
 * Lists the regular files under `root` (absolute paths, unordered). Always skipped: `.git`
 * (directory, or the file of a linked worktree) and `.swarmdesk/worktrees`, where other agents'
 * isolated checkouts live (docs/agents.md#worktree-isolation). Symlinked files are listed unless `linkedFiles` is false;
 * symlinked directories are not entered (no cycles, no escaping the tree). Unreadable directories
 * are skipped silently.
 *
 * Written by hand rather than over fdir because nested .gitignore files make each directory's
 * rules depend on the files of its ancestors, which need loading (async) before its entries are
 * judged; fdir's exclude callback is synchronous.
 * @throws ToolError when `signal` aborts.
 */
export async function walkFiles(options: WalkOptions): Promise<string[]> {
  const files: string[] = []
  await visit(options.root, options.gitignore ? (options.ignoreStack ?? []) : [], options, files)
  return files
}

async function visit(dir: string, inherited: IgnoreStack, options: WalkOptions, files: string[]): Promise<void> {
  throwIfAborted(options.signal)
  let entries: Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return
  }
  let stack = inherited
  if (options.gitignore && entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory())) {
    const layer = await loadIgnoreLayer(dir)
    if (layer) stack = [...inherited, layer]
  }
  const subdirs: string[] = []
  for (const entry of entries) {
    const name = entry.name
    if (name === '.git' || (!options.hidden && name.startsWith('.'))) continue
    const path = join(dir, name)
    if (entry.isDirectory()) {
      if (options.skipDirNames?.has(name) || (name === 'worktrees' && basename(dir) === '.swarmdesk')) continue
      if (options.gitignore && isIgnored(stack, path, true)) continue
      subdirs.push(path)
    } else if (
      entry.isFile() ||
      (entry.isSymbolicLink() && options.linkedFiles !== false && (await isFileTarget(path)))
    ) {
      if (options.gitignore && isIgnored(stack, path, false)) continue
      files.push(path)
    }
  }
  await Promise.all(subdirs.map((subdir) => visit(subdir, stack, options, files)))
}

async function isFileTarget(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

/** Throws the ToolError a search returns when its call is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ToolError('Interrupted: the search was aborted.')
}
