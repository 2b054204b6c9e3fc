import { realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'

/** Where a request path leads inside the static directory. */
export type StaticLookup =
  | { kind: 'file'; path: string; size: number }
  /** No such file (or a directory): 404. */
  | { kind: 'missing' }
  /** A path that escapes the directory, by `..`, an encoded separator or a symlink: 403. */
  | { kind: 'outside' }
  /** A path that does not decode: 400. */
  | { kind: 'malformed' }

/**
 * Maps a URL path to a regular file under `root` (docs/events.md#event-stream-and-command-line: nothing outside the built renderer is
 * ever served). The path is decoded once, resolved, and checked for containment both as written
 * and after symlinks are followed; `/` is `index.html`.
 */
export async function lookupStatic(root: string, urlPath: string): Promise<StaticLookup> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return { kind: 'malformed' }
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'outside' }
  const wanted = decoded === '/' ? '/index.html' : decoded
  const base = resolve(root)
  const target = resolve(base, `.${wanted}`)
  if (!contains(base, target)) return { kind: 'outside' }
  let real: string
  let realBase: string
  try {
    ;[real, realBase] = await Promise.all([realpath(target), realpath(base)])
  } catch {
    return { kind: 'missing' }
  }
  if (!contains(realBase, real)) return { kind: 'outside' }
  const info = await stat(real).catch(() => undefined)
  if (!info?.isFile()) return { kind: 'missing' }
  return { kind: 'file', path: real, size: info.size }
}

/** The index page of a static directory. */
export function indexFile(root: string): string {
  return join(root, 'index.html')
}

function contains(dir: string, target: string): boolean {
  const rel = relative(dir, target)
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel)
}
