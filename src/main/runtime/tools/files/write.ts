import { z } from 'zod'
import { canonicalPath, errnoCode, resolveToolPath } from './paths'
import { type Tool, type ToolContext, type ToolResult, ToolError } from '../types'
import { assertFreshRead, describeLineCount, recordFileState, statIfExists, writeTextAtomic } from './writeGuard'

const WriteInput = z.object({
  file_path: z.string().min(1).describe('Path of the file to write: absolute, or relative to the working directory.'),
  content: z.string().describe('The complete new content of the file.')
})

/** Input of the Write tool (Claude Code's fields). */
export type WriteInput = z.infer<typeof WriteInput>

/**
 * Write (docs/tools.md#tools): replaces a file's whole content, or creates it with its parent directories.
 * Overwriting an existing file requires that the agent Read it in this context and that it has
 * not changed on disk since. Atomic (temp file + rename), the file's mode preserved. Updates the
 * file-state cache so a later Edit needs no new Read.
 * Result: `Created <path> (N lines).` or `Updated <path> (N lines).`
 * Errors (as ToolError): not read / changed since read, a directory at the path, fs failures.
 */
export const WriteTool: Tool<WriteInput> = {
  name: 'Write',
  description: [
    'Writes a file to the local filesystem, replacing its whole content or creating it (parent directories included).',
    '- file_path may be absolute or relative to the working directory.',
    '- To overwrite an existing file you must have Read it first in this conversation; the write is refused if it changed since.',
    '- Prefer Edit for changing part of an existing file: it sends only the change.',
    '- Do not create documentation or README files unless asked to.'
  ].join('\n'),
  inputSchema: WriteInput,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  permissionSubject: (input, ctx) => ({ kind: 'edit', path: resolveToolPath(ctx.cwd, input.file_path) }),
  call: writeFileTool
}

async function writeFileTool(input: WriteInput, ctx: ToolContext): Promise<ToolResult> {
  const path = resolveToolPath(ctx.cwd, input.file_path)
  const canonical = await canonicalPath(path)
  const existing = await statIfExists(canonical)
  if (existing?.isDirectory()) throw new ToolError(`${path} is a directory; give the path of a file.`)
  if (existing) assertFreshRead(ctx, canonical, existing, 'write')

  try {
    await writeTextAtomic(canonical, input.content)
  } catch (error) {
    throw new ToolError(`Cannot write ${path}: ${errnoCode(error) ?? String(error)}.`)
  }
  // A created file's canonical path may differ from the resolved one (symlinked parent).
  const written = existing ? canonical : await canonicalPath(path)
  await recordFileState(ctx, written, false)
  return { content: `${existing ? 'Updated' : 'Created'} ${path} (${describeLineCount(input.content)}).` }
}
