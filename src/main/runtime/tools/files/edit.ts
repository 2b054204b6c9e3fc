import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { detectEol, editSnippet, findLooseMatchLine, findOccurrences, replaceAt } from './editMatch'
import { canonicalPath, errnoCode, resolveToolPath } from './paths'
import { findSimilarFile } from './read'
import { type Tool, type ToolContext, type ToolResult, ToolError } from '../types'
import { assertFreshRead, describeLineCount, recordFileState, statIfExists, writeTextAtomic } from './writeGuard'

const EditInput = z.object({
  file_path: z.string().min(1).describe('Path of the file to edit: absolute, or relative to the working directory.'),
  old_string: z.string().describe('The exact text to replace (must occur once, unless replace_all).'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string (default false).')
})

/** Input of the Edit tool (Claude Code's fields). */
export type EditInput = z.infer<typeof EditInput>

/**
 * Edit (docs/tools.md#tools): exact string replacement in a file the agent has Read (and that has not changed
 * since). old_string must occur exactly once unless `replace_all`. A file whose every line ends
 * in CRLF keeps CRLF: the strings are matched and written with LF, converted back on write, so the
 * model never has to type `\r`. Atomic write, mode preserved, file-state cache updated.
 *
 * Empty old_string (Claude Code's behaviour): on a missing file it creates the file with
 * new_string (no Read needed, like Write); on an existing empty file it fills it (Read needed);
 * on a file with content it is refused.
 *
 * Result: `Edited <path>: replaced N occurrence(s).` and a `cat -n` snippet of the first edited
 * region with 3 lines of context.
 * Errors (as ToolError): not read / changed since read, missing file, old_string not found (with
 * a hint when it matches ignoring whitespace or quote style), several matches without
 * replace_all, old_string equal to new_string.
 */
export const EditTool: Tool<EditInput> = {
  name: 'Edit',
  description: [
    'Replaces exact text in a file.',
    '- You must Read the file first in this conversation; the edit is refused if it changed since.',
    '- old_string must match the file exactly, indentation included, and must be unique in it: add surrounding lines to make it unique, or set replace_all to change every occurrence (e.g. renaming).',
    '- Copy text from Read output without its line-number prefix (number and tab).',
    '- An empty old_string with a file_path that does not exist creates the file with new_string.',
    '- Line endings of a CRLF file are kept; write old_string and new_string with plain newlines.'
  ].join('\n'),
  inputSchema: EditInput,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  permissionSubject: (input, ctx) => ({ kind: 'edit', path: resolveToolPath(ctx.cwd, input.file_path) }),
  call: editFileTool
}

async function editFileTool(input: EditInput, ctx: ToolContext): Promise<ToolResult> {
  if (input.old_string === input.new_string) {
    throw new ToolError('No change to make: old_string and new_string are the same.')
  }
  const path = resolveToolPath(ctx.cwd, input.file_path)
  const canonical = await canonicalPath(path)
  const existing = await statIfExists(canonical)
  if (!existing) {
    if (input.old_string !== '') {
      const similar = await findSimilarFile(path)
      throw new ToolError(`File does not exist: ${path}.${similar ? ` Did you mean ${similar}?` : ''}`)
    }
    await write(path, input.new_string)
    await recordFileState(ctx, await canonicalPath(path), false)
    return { content: `Created ${path} (${describeLineCount(input.new_string)}).` }
  }
  if (existing.isDirectory()) throw new ToolError(`${path} is a directory; give the path of a file.`)
  assertFreshRead(ctx, canonical, existing, 'edit')

  const original = await readFile(canonical, 'utf8').catch((error: unknown) => {
    throw new ToolError(`Cannot read ${path}: ${errnoCode(error) ?? String(error)}.`)
  })
  const eol = detectEol(original)
  const toLf = (text: string): string => (eol === '\r\n' ? text.replace(/\r\n/g, '\n') : text)
  const content = toLf(original)
  const oldString = toLf(input.old_string)
  const newString = toLf(input.new_string)

  let updated: string
  let starts: number[]
  if (oldString === '') {
    if (content.trim() !== '') {
      throw new ToolError(
        `old_string is empty but ${path} has content. Give the text to replace, or use Write to replace the whole file.`
      )
    }
    updated = newString
    starts = [0]
  } else {
    starts = findOccurrences(content, oldString)
    assertUsableMatch(path, content, oldString, starts.length, input.replace_all === true)
    updated = replaceAt(content, starts, oldString.length, newString)
  }
  await write(canonical, eol === '\r\n' ? updated.replace(/\n/g, '\r\n') : updated)
  await recordFileState(ctx, canonical, false)
  const count = starts.length
  return {
    content:
      `Edited ${path}: replaced ${count} ${count === 1 ? 'occurrence' : 'occurrences'}. ` +
      `The edited region now reads (cat -n):\n${editSnippet(updated, starts[0], newString.length)}`
  }
}

function assertUsableMatch(
  path: string,
  content: string,
  oldString: string,
  matches: number,
  replaceAll: boolean
): void {
  if (matches === 0) {
    const loose = findLooseMatchLine(content, oldString)
    const hint =
      loose === undefined
        ? ' Read the file again and copy the text exactly, indentation included.'
        : ` It matches near line ${loose} if whitespace and quote style are ignored: copy that text exactly from the file.`
    throw new ToolError(`old_string was not found in ${path}.${hint}`)
  }
  if (matches > 1 && !replaceAll) {
    throw new ToolError(
      `old_string occurs ${matches} times in ${path}, but replace_all is false. ` +
        'Add surrounding lines to old_string so it matches once, or set replace_all to true to replace every occurrence.'
    )
  }
}

async function write(path: string, content: string): Promise<void> {
  try {
    await writeTextAtomic(path, content)
  } catch (error) {
    throw new ToolError(`Cannot write ${path}: ${errnoCode(error) ?? String(error)}.`)
  }
}
