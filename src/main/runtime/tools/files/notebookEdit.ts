import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { z } from 'zod'
import { type Tool, type ToolContext, type ToolResult, ToolError } from '../types'
import {
  findCell,
  newCellId,
  parseNotebook,
  serializeNotebook,
  splitSource,
  usesCellIds,
  type NotebookCell
} from './notebookFormat'
import { canonicalPath, resolveToolPath } from './paths'
import { assertFreshRead, recordFileState, statIfExists, writeTextAtomic } from './writeGuard'

const NotebookEditInput = z.object({
  notebook_path: z
    .string()
    .min(1)
    .describe('Path of the .ipynb notebook: absolute, or relative to the working directory.'),
  cell_id: z
    .string()
    .optional()
    .describe(
      'The cell to edit or delete, or after which to insert (absent: insert at the beginning). Its id as Read shows it.'
    ),
  new_source: z.string().describe('The new source of the cell (ignored for delete).'),
  cell_type: z
    .enum(['code', 'markdown'])
    .optional()
    .describe('The cell type: required for insert; for replace, changes the type.'),
  edit_mode: z.enum(['replace', 'insert', 'delete']).optional().describe('replace (default), insert or delete.')
})

/** Input of NotebookEdit (Claude Code's fields). */
export type NotebookEditInput = z.infer<typeof NotebookEditInput>

/**
 * NotebookEdit (docs/tools.md#notebooks): replaces, inserts or deletes one cell of a Jupyter
 * notebook. The read-before-write rule applies as for Edit: the agent must have Read the notebook,
 * unchanged since. A replaced or new code cell has no outputs and no execution count (they
 * belonged to the old source). Written atomically, as Jupyter writes it.
 * Errors (as ToolError): not an `.ipynb`, missing, not read or changed since, bad JSON, unknown
 * cell, insert without `cell_type`, replace or delete without `cell_id`.
 */
export const NotebookEditTool: Tool<NotebookEditInput> = {
  name: 'NotebookEdit',
  description: [
    'Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb).',
    '- notebook_path may be absolute or relative to the working directory; Read the notebook first.',
    '- cell_id is the id Read shows (`<cell id="…">`). edit_mode: replace (default), insert (after cell_id, or first when cell_id is absent; cell_type required), delete.',
    '- new_source is the whole new source of the cell.'
  ].join('\n'),
  inputSchema: NotebookEditInput,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  permissionSubject: (input, ctx) => ({ kind: 'edit', path: resolveToolPath(ctx.cwd, input.notebook_path) }),
  call: editNotebook
}

async function editNotebook(input: NotebookEditInput, ctx: ToolContext): Promise<ToolResult> {
  const path = resolveToolPath(ctx.cwd, input.notebook_path)
  if (extname(path) !== '.ipynb') throw new ToolError(`${path} is not a notebook (.ipynb). Use Edit for other files.`)
  const stats = await statIfExists(path)
  if (!stats) throw new ToolError(`Notebook does not exist: ${path}. Create it with Write first.`)
  const canonical = await canonicalPath(path)
  assertFreshRead(ctx, canonical, stats, 'edit')
  const notebook = parseNotebook(await readFile(path, 'utf8'), path)
  const mode = input.edit_mode ?? 'replace'
  let said: string
  if (mode === 'insert') {
    if (!input.cell_type) throw new ToolError('edit_mode "insert" needs cell_type: "code" or "markdown".')
    const at = input.cell_id === undefined ? 0 : findCell(notebook, input.cell_id, path) + 1
    const cell = freshCell(input.cell_type, input.new_source, usesCellIds(notebook))
    notebook.cells.splice(at, 0, cell)
    said = `Inserted a ${input.cell_type} cell${cell.id ? ` ${cell.id}` : ''} at position ${at}`
  } else {
    if (input.cell_id === undefined)
      throw new ToolError(`edit_mode "${mode}" needs cell_id: the cell to ${mode}, as Read shows it.`)
    const index = findCell(notebook, input.cell_id, path)
    if (mode === 'delete') {
      notebook.cells.splice(index, 1)
      said = `Deleted cell ${input.cell_id}`
    } else {
      const old = notebook.cells[index]
      const type =
        input.cell_type ?? (old.cell_type === 'markdown' ? 'markdown' : old.cell_type === 'raw' ? 'raw' : 'code')
      notebook.cells[index] = {
        ...freshCell(type, input.new_source, false),
        ...(old.id ? { id: old.id } : {}),
        metadata: old.metadata ?? {}
      }
      said = `Updated cell ${input.cell_id}`
    }
  }
  await writeTextAtomic(path, serializeNotebook(notebook))
  await recordFileState(ctx, canonical, false)
  return { content: `${said} of ${path} (${notebook.cells.length} cells).` }
}

function freshCell(type: NotebookCell['cell_type'], source: string, withId: boolean): NotebookCell {
  const cell: NotebookCell = {
    cell_type: type,
    ...(withId ? { id: newCellId() } : {}),
    metadata: {},
    source: splitSource(source)
  }
  if (type === 'code') Object.assign(cell, { execution_count: null, outputs: [] })
  return cell
}
