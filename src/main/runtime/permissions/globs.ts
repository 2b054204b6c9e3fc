import { readdir } from 'node:fs/promises'
import path from 'node:path'
import picomatch from 'picomatch'
import { PermissionsError } from './errors'

/** More matches than this and the engine asks instead of checking each (a glob over a huge tree). */
export const GLOB_LIMIT = 1000

/** A glob that matches more than {@link GLOB_LIMIT} paths; the engine asks. */
export class GlobTooWideError extends PermissionsError {
  override name = 'GlobTooWideError'
}

const GLOB_CHARS = /[*?[]/

/** Whether a path argument has characters the shell would expand. */
export const hasGlob = (p: string): boolean => GLOB_CHARS.test(p)

/**
 * Expand a path argument the way the shell will before the command sees it, so each file is
 * checked — a glob such as `src/*` can name a symlink inside the workspace that points outside,
 * which the pattern's own text never shows. Each glob segment is matched against directory
 * entries (dot files included, which is stricter than bash's default); the rest are joined
 * unresolved so canonicalisation still sees every link. No match → the pattern itself, as bash
 * passes it on.
 * @throws GlobTooWideError past {@link GLOB_LIMIT} matches.
 */
export async function expandGlob(p: string, cwd: string): Promise<string[]> {
  let current = [path.isAbsolute(p) ? '' : cwd]
  for (const seg of p.split('/')) {
    if (seg === '' || !hasGlob(seg)) {
      current = current.map((c) => (seg === '' ? c : `${c}/${seg}`))
      continue
    }
    const isMatch = picomatch(seg, { dot: true })
    const next: string[] = []
    for (const dir of current) {
      let entries: string[]
      try {
        entries = await readdir(dir || '/')
      } catch {
        continue
      }
      for (const e of entries) if (isMatch(e)) next.push(`${dir}/${e}`)
      if (next.length > GLOB_LIMIT) throw new GlobTooWideError(`${p} matches more than ${GLOB_LIMIT} paths`)
    }
    current = next
  }
  return current.length === 0 ? [p] : current.map((c) => c || '/')
}
