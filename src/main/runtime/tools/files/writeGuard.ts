import type { Stats } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { errnoCode } from './paths'
import { type ToolContext, ToolError } from '../types'

/**
 * Enforces the read-before-write rule of Write and Edit (docs/tools.md#tools) on an existing file: the agent
 * must have Read it in this context, and it must not have changed on disk since (same mtime and
 * size as when read). Without this an agent overwrites edits made by a person, a formatter or
 * another agent between its Read and its write.
 * @param canonical the file's canonical path (the cache key).
 * @param current the file's stats now.
 * @throws ToolError telling the model to Read (again) first.
 */
export function assertFreshRead(ctx: ToolContext, canonical: string, current: Stats, verb: 'write' | 'edit'): void {
  const entry = ctx.fileState.get(canonical)
  if (!entry) {
    throw new ToolError(`File has not been read yet: ${canonical}. Read it first before you ${verb} it.`)
  }
  if (entry.mtimeMs !== current.mtimeMs || entry.size !== current.size) {
    throw new ToolError(
      `File has been modified since it was read (by a person, a formatter or another agent): ${canonical}. ` +
        `Read it again before you ${verb} it.`
    )
  }
}

/**
 * Records what `canonical` looks like in the agent's file-state cache: after a Read, with the
 * stats taken before reading (if the file changes while being read, the next write is refused,
 * never let through); after this agent's own write, from a fresh stat, so a following Edit is
 * not refused as "changed since read".
 * @param partial true when only part of the file was shown (Read with offset/limit cutting it).
 */
export async function recordFileState(
  ctx: ToolContext,
  canonical: string,
  partial: boolean,
  stats?: Stats
): Promise<void> {
  const seen = stats ?? (await stat(canonical))
  ctx.fileState.set(canonical, { mtimeMs: seen.mtimeMs, size: seen.size, partial, readAt: Date.now() })
}

/**
 * Writes `content` (UTF-8) to `path` atomically (temp file + rename, so a crash or a concurrent
 * reader never sees half a file), creating parent directories. An existing file keeps its mode
 * (write-file-atomic copies mode and owner of the file it replaces).
 * @throws the fs error (EACCES, EISDIR…) for the caller to turn into a ToolError.
 */
export async function writeTextAtomic(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFileAtomic(path, content, { encoding: 'utf8' })
}

/** `N line` / `N lines` for the line count of `text` ({@link countLines}). */
export function describeLineCount(text: string): string {
  const lines = countLines(text)
  return `${lines} ${lines === 1 ? 'line' : 'lines'}`
}

/** Number of lines of `text` as an editor counts them: a trailing newline does not start a line; '' has 0. */
export function countLines(text: string): number {
  if (text === '') return 0
  const newlines = text.split('\n').length - 1
  return text.endsWith('\n') ? newlines : newlines + 1
}

/** Stats of `path`, or undefined when nothing is there. @throws ToolError for other fs errors. */
export async function statIfExists(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path)
  } catch (error) {
    const code = errnoCode(error)
    if (code === 'ENOENT') return undefined
    if (code === 'ENOTDIR') throw new ToolError(`${path}: a parent of this path is a file, not a directory.`)
    throw new ToolError(`Cannot access ${path}: ${code ?? String(error)}.`)
  }
}
