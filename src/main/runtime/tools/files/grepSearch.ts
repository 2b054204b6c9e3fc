import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { relative, sep } from 'node:path'
import { hasBinaryExtension, looksBinary } from './binary'
import { ancestorIgnoreLayers } from './gitignore'
import { matchingLines, type GrepMatcher } from './grepEngine'
import type { FileMatches } from './grepFormat'
import { mapInSlices } from './pool'
import { throwIfAborted, walkFiles } from './walk'

/** Files larger than this (bytes) are not searched: logs and dumps of that size are Bash's job. */
export const GREP_MAX_FILE_BYTES = 64 * 1024 * 1024
/** Bytes of the first read of each file: enough for most source files, and covers the 8 KB binary sniff. */
const FIRST_READ_BYTES = 64 * 1024

/** Options of {@link searchFiles}. */
export interface GrepSearchOptions {
  /** Absolute path of the directory (walked) or the file (searched whatever its name) to search. */
  root: string
  rootIsFile: boolean
  matcher: GrepMatcher
  multiline: boolean
  /** Filter over paths relative to `root`, POSIX separators (from `glob`/`type`). */
  fileFilter: (relativePath: string) => boolean
  /** Keep each file's lines in the result (content mode needs them; the others do not). */
  keepLines: boolean
  signal?: AbortSignal
}

/** A file with at least one matching line. `lines` is empty unless `keepLines`. */
export type FileHit = FileMatches

/**
 * Searches the files under `root` as ripgrep would by default: honouring .gitignore files (the
 * root's ancestors' up to the repository root, and nested ones), skipping hidden files and
 * directories, `.git`, `.swarmdesk/worktrees`, binary files (known extension, or NUL in the first
 * 8 KB) and files over {@link GREP_MAX_FILE_BYTES}. `.gitignore` applies even outside a git
 * repository (rg's `--no-require-git`), so a plain directory behaves like a checkout.
 * @returns files with matches, sorted by path.
 * @throws ToolError when `signal` aborts.
 */
export async function searchFiles(options: GrepSearchOptions): Promise<FileHit[]> {
  const candidates = options.rootIsFile ? [options.root] : await listCandidates(options)
  const scratch = Buffer.allocUnsafe(FIRST_READ_BYTES)
  const hits = await mapInSlices(
    candidates,
    (path) => searchOne(path, scratch, options),
    () => throwIfAborted(options.signal)
  )
  return hits
    .filter((hit): hit is FileHit => hit !== undefined)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

async function listCandidates(options: GrepSearchOptions): Promise<string[]> {
  const files = await walkFiles({
    root: options.root,
    gitignore: true,
    ignoreStack: await ancestorIgnoreLayers(options.root),
    hidden: false,
    linkedFiles: false,
    signal: options.signal
  })
  return files.filter((path) => !hasBinaryExtension(path) && options.fileFilter(toPosix(relative(options.root, path))))
}

function searchOne(path: string, scratch: Buffer, options: GrepSearchOptions): FileHit | undefined {
  const data = readSearchable(path, scratch)
  if (!data) return undefined
  let text = data.toString('utf8')
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  if (text.includes('\r')) text = text.replace(/\r\n/g, '\n')
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  const matched = matchingLines(text, lines, options.matcher, options.multiline).filter((line) => line < lines.length)
  if (matched.length === 0) return undefined
  return { path, lines: options.keepLines ? lines : [], matched }
}

/**
 * The file's bytes, or undefined when it is unreadable, too large or binary. Synchronous (run in
 * slices, see `mapInSlices`); most source files fit in one {@link FIRST_READ_BYTES} read, so a
 * file costs open + read + close.
 */
function readSearchable(path: string, scratch: Buffer): Buffer | undefined {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return undefined
  }
  try {
    const firstRead = readSync(fd, scratch, 0, scratch.length, 0)
    if (looksBinary(scratch.subarray(0, firstRead))) return undefined
    // No copy: the caller decodes it before the next file overwrites the scratch buffer.
    if (firstRead < scratch.length) return scratch.subarray(0, firstRead)
    const size = fstatSync(fd).size
    if (size > GREP_MAX_FILE_BYTES) return undefined
    const whole = Buffer.allocUnsafe(size)
    scratch.copy(whole, 0, 0, firstRead)
    let filled = firstRead
    while (filled < size) {
      const got = readSync(fd, whole, filled, size - filled, filled)
      if (got === 0) break
      filled += got
    }
    return whole.subarray(0, filled)
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/** Stats of the search root; undefined when it does not exist. */
export async function statRoot(path: string): Promise<{ isFile: boolean; isDirectory: boolean } | undefined> {
  try {
    const stats = await stat(path)
    return { isFile: stats.isFile(), isDirectory: stats.isDirectory() }
  } catch {
    return undefined
  }
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/')
}
