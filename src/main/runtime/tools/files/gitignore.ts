import { readFile, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'

/** The rules of one ignore file, anchored at the directory they are relative to. */
export interface IgnoreLayer {
  /** Absolute directory the patterns are relative to. */
  readonly dir: string
  readonly rules: Ignore
}

/**
 * Ignore layers from the outermost applicable directory down to the deepest: a path is decided
 * by the deepest layer that has an opinion on it, as git does (a nested `!keep.log` re-includes
 * what an outer `*.log` ignored).
 */
export type IgnoreStack = readonly IgnoreLayer[]

/**
 * Reads `<dir>/<file>` (`.gitignore` by default) as a layer anchored at `anchor` (default `dir`);
 * undefined when the file is missing or unreadable (an unreadable ignore file must not fail a
 * search).
 */
export async function loadIgnoreLayer(
  dir: string,
  file = '.gitignore',
  anchor = dir
): Promise<IgnoreLayer | undefined> {
  try {
    const text = await readFile(join(dir, file), 'utf8')
    return { dir: anchor, rules: ignore().add(text) }
  } catch {
    return undefined
  }
}

/**
 * The layers that apply to a search rooted at `root` from above it: the enclosing repository's
 * `.git/info/exclude` and every `.gitignore` between the repository root and `root`'s parent.
 * Searching `src/` must still skip what the top-level .gitignore excludes. Outside a repository
 * (no `.git` in `root` or above) there are none: ignore files above an unrelated directory (a home
 * directory's, say) are not the project's.
 */
export async function ancestorIgnoreLayers(root: string): Promise<IgnoreLayer[]> {
  const chain: string[] = []
  for (let dir = root; ; dir = dirname(dir)) {
    chain.unshift(dir)
    if (await exists(join(dir, '.git'))) break
    if (dirname(dir) === dir) return []
  }
  const repoRoot = chain[0]
  const layers: Array<IgnoreLayer | undefined> = [
    await loadIgnoreLayer(join(repoRoot, '.git', 'info'), 'exclude', repoRoot)
  ]
  // The root's own .gitignore is loaded by the walker when it enters the root.
  for (const dir of chain.slice(0, -1)) layers.push(await loadIgnoreLayer(dir))
  return layers.filter((layer): layer is IgnoreLayer => layer !== undefined)
}

/**
 * Whether `absolutePath` is ignored by `stack`. Directories are tested with a trailing slash so
 * `build/` patterns match them. Paths outside a layer's directory are not its business.
 */
export function isIgnored(stack: IgnoreStack, absolutePath: string, isDirectory: boolean): boolean {
  let ignored = false
  for (const layer of stack) {
    const rel = relative(layer.dir, absolutePath)
    if (rel === '' || rel.startsWith('..')) continue
    const posix = sep === '/' ? rel : rel.split(sep).join('/')
    const result = layer.rules.test(isDirectory ? `${posix}/` : posix)
    if (result.ignored) ignored = true
    else if (result.unignored) ignored = false
  }
  return ignored
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}
