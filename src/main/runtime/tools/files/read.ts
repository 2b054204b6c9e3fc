import type { Stats } from 'node:fs'
import { readFile, readdir, stat } from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'
import { z } from 'zod'
import { hasBinaryExtension, looksBinary } from './binary'
import { numberLine, splitLines } from './lineFormat'
import { canonicalPath, errnoCode, resolveToolPath } from './paths'
import { type Tool, type ToolContext, type ToolResult, ToolError } from '../types'
import { recordFileState } from './writeGuard'
import { parseNotebook, renderNotebook } from './notebookFormat'

/** Lines shown when no `limit` is given (Claude Code's default). */
export const DEFAULT_READ_LIMIT = 2000
/**
 * Most characters one Read returns (~25k tokens, Claude Code's budget). Past it the output stops
 * at a line boundary and says where to continue, instead of flooding the context.
 */
export const MAX_READ_CHARS = 100_000
/** Files larger than this (bytes) are refused: Bash `head`/`sed -n` or Grep suit them better. */
export const MAX_READ_BYTES = 32 * 1024 * 1024

const ReadInput = z.object({
  file_path: z.string().min(1).describe('Path of the file to read: absolute, or relative to the working directory.'),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Line number to start reading at (1-based). Only for files too long to read at once.'),
  limit: z.number().int().positive().optional().describe(`Number of lines to read (default ${DEFAULT_READ_LIMIT}).`)
})

/** Input of the Read tool (Claude Code's fields). `offset` and `limit` count lines. */
export type ReadInput = z.infer<typeof ReadInput>

/**
 * Read (docs/tools.md#tools): a text file in `cat -n` style (6-column line numbers, tab, text), at most
 * {@link DEFAULT_READ_LIMIT} lines unless `limit` says otherwise, lines over 2000 characters
 * truncated. Records the file in the agent's file-state cache (partial when lines were left out)
 * so Write and Edit may then change it.
 * Errors (as ToolError): missing file (suggesting a similarly named one), directory, binary file,
 * file over {@link MAX_READ_BYTES}.
 */
export const ReadTool: Tool<ReadInput> = {
  name: 'Read',
  description: [
    'Reads a text file from the local filesystem and returns it with line numbers (cat -n style: number, tab, line).',
    '- file_path may be absolute or relative to the working directory.',
    `- Returns up to ${DEFAULT_READ_LIMIT} lines from the start by default; for longer files pass offset (1-based line) and limit.`,
    '- Lines longer than 2000 characters are truncated.',
    '- A Jupyter notebook (.ipynb) reads as its cells (with their ids) and their outputs.',
    '- Reading a file is required before you Write over it or Edit it.',
    '- Cannot read directories (use Glob, or ls through Bash) or binary files (images, archives, executables).',
    '- When quoting text from the output in an Edit, leave out the line-number prefix.'
  ].join('\n'),
  inputSchema: ReadInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input, ctx) => ({ kind: 'read', path: resolveToolPath(ctx.cwd, input.file_path) }),
  call: readFileTool
}

async function readFileTool(input: ReadInput, ctx: ToolContext): Promise<ToolResult> {
  const path = resolveToolPath(ctx.cwd, input.file_path)
  const stats = await statForRead(path)
  if (stats.isDirectory()) {
    throw new ToolError(
      `${path} is a directory, not a file. Use Glob to find files in it, or ls through Bash to list it.`
    )
  }
  if (!stats.isFile())
    throw new ToolError(`${path} is not a regular file (a device, socket or pipe) and cannot be read.`)
  if (hasBinaryExtension(path)) {
    throw new ToolError(`${path} is a binary file (${extname(path)}) and cannot be shown as text.`)
  }
  if (stats.size > MAX_READ_BYTES) {
    throw new ToolError(
      `${path} is ${stats.size} bytes, over the ${MAX_READ_BYTES}-byte limit of Read. Use Grep to find what you need, or head/sed -n through Bash.`
    )
  }
  const data = await readFile(path).catch((error: unknown) => {
    throw toolErrorFrom(path, error)
  })
  if (looksBinary(data))
    throw new ToolError(`${path} is a binary file (it contains NUL bytes) and cannot be shown as text.`)

  const canonical = await canonicalPath(path)
  if (extname(path) === '.ipynb') {
    // a notebook reads as its cells and their outputs, not as raw JSON (docs/tools.md#notebooks)
    const shown = renderNotebook(parseNotebook(data.toString('utf8'), path))
    await recordFileState(ctx, canonical, false, stats)
    return {
      content:
        shown.length > MAX_READ_CHARS
          ? `${shown.slice(0, MAX_READ_CHARS)}\n\n[Notebook cut at ${MAX_READ_CHARS} characters.]`
          : shown
    }
  }
  const lines = splitLines(data.toString('utf8'))
  if (lines.length === 0) {
    await recordFileState(ctx, canonical, false, stats)
    return { content: `(The file ${path} exists but is empty.)` }
  }
  const start = Math.max(1, input.offset ?? 1)
  if (start > lines.length) {
    await recordFileState(ctx, canonical, true, stats)
    return { content: `(The file ${path} has only ${lines.length} lines, fewer than offset ${start}. Nothing shown.)` }
  }
  const { text, lastShown } = numberRange(lines, start, input.limit ?? DEFAULT_READ_LIMIT)
  const partial = start > 1 || lastShown < lines.length
  await recordFileState(ctx, canonical, partial, stats)
  if (lastShown >= lines.length) return { content: text }
  return {
    content:
      `${text}\n\n[Showing lines ${start}-${lastShown} of ${lines.length}. ` +
      `${lines.length - lastShown} more lines remain: read on with offset=${lastShown + 1}.]`
  }
}

/** Numbers lines `start`..`start+limit-1` (1-based), stopping early at {@link MAX_READ_CHARS}. */
function numberRange(lines: string[], start: number, limit: number): { text: string; lastShown: number } {
  const out: string[] = []
  let chars = 0
  let lineNumber = start
  const end = Math.min(lines.length, start + limit - 1)
  for (; lineNumber <= end; lineNumber++) {
    const numbered = numberLine(lineNumber, lines[lineNumber - 1])
    // Always show at least one line, or a file of one huge line could never be read.
    if (out.length > 0 && chars + numbered.length + 1 > MAX_READ_CHARS) break
    out.push(numbered)
    chars += numbered.length + 1
  }
  return { text: out.join('\n'), lastShown: lineNumber - 1 }
}

async function statForRead(path: string): Promise<Stats> {
  try {
    return await stat(path)
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT' && errnoCode(error) !== 'ENOTDIR') throw toolErrorFrom(path, error)
    const similar = await findSimilarFile(path)
    throw new ToolError(`File does not exist: ${path}.${similar ? ` Did you mean ${similar}?` : ''}`)
  }
}

/**
 * A file in the same directory whose name differs only by case or by extension (`config.ts` for
 * `config.js`), the usual slips; undefined when there is none or the directory is missing.
 */
export async function findSimilarFile(path: string): Promise<string | undefined> {
  const dir = dirname(path)
  const wanted = basename(path).toLowerCase()
  const wantedStem = stem(wanted)
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return undefined
  }
  const match =
    names.find((name) => name.toLowerCase() === wanted) ??
    names.find((name) => wantedStem !== '' && stem(name.toLowerCase()) === wantedStem)
  return match === undefined ? undefined : join(dir, match)
}

function stem(name: string): string {
  return name.slice(0, name.length - extname(name).length)
}

function toolErrorFrom(path: string, error: unknown): ToolError {
  const code = errnoCode(error)
  return new ToolError(`Cannot read ${path}: ${code ?? (error instanceof Error ? error.message : String(error))}.`)
}
