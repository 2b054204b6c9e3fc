import { randomBytes } from 'node:crypto'
import { ToolError } from '../types'

/** One cell of a Jupyter notebook (nbformat 4), as far as Swarmdesk reads and writes it. */
export interface NotebookCell {
  cell_type: 'code' | 'markdown' | 'raw'
  id?: string
  source: string | string[]
  metadata?: Record<string, unknown>
  outputs?: NotebookOutput[]
  execution_count?: number | null
  [key: string]: unknown
}

/** One output of a code cell: a stream, a result or display, or an error (nbformat 4). */
export interface NotebookOutput {
  output_type: 'stream' | 'execute_result' | 'display_data' | 'error' | string
  name?: string
  text?: string | string[]
  data?: Record<string, string | string[] | unknown>
  ename?: string
  evalue?: string
  traceback?: string[]
}

/** A whole `.ipynb` document: its cells plus whatever else it holds, kept as it was. */
export interface Notebook {
  cells: NotebookCell[]
  nbformat?: number
  nbformat_minor?: number
  [key: string]: unknown
}

/** Joins nbformat's multiline string (a string or a list of lines) into one string. */
export function joinSource(source: string | string[] | unknown): string {
  if (Array.isArray(source)) return source.map(String).join('')
  return typeof source === 'string' ? source : ''
}

/** Splits text into nbformat's list of lines, each keeping its newline (as Jupyter writes them). */
export function splitSource(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/)
}

/**
 * Parses an `.ipynb` file's text.
 * @throws ToolError naming the file when it is not JSON or has no `cells` list.
 */
export function parseNotebook(text: string, path: string): Notebook {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new ToolError(`${path} is not a valid notebook: its JSON does not parse (${(error as Error).message}).`)
  }
  if (typeof data !== 'object' || data === null || !Array.isArray((data as Notebook).cells)) {
    throw new ToolError(`${path} is not a valid notebook: it has no "cells" list.`)
  }
  return data as Notebook
}

/** The notebook as Jupyter writes it: JSON indented by one space, ending in a newline. */
export function serializeNotebook(notebook: Notebook): string {
  return JSON.stringify(notebook, null, 1) + '\n'
}

/** A cell's id as the model addresses it: its own `id`, else `cell-<index>` (older notebooks have none). */
export function cellIdOf(cell: NotebookCell, index: number): string {
  return typeof cell.id === 'string' && cell.id !== '' ? cell.id : `cell-${index}`
}

/**
 * The index of the cell `cellId` names: a cell's `id`, or `cell-N` (0-based) for a notebook whose
 * cells carry no ids. @throws ToolError listing the ids there are.
 */
export function findCell(notebook: Notebook, cellId: string, path: string): number {
  const byId = notebook.cells.findIndex((c) => c.id === cellId)
  if (byId >= 0) return byId
  const m = /^cell-(\d+)$/.exec(cellId)
  if (m && Number(m[1]) < notebook.cells.length) return Number(m[1])
  const ids = notebook.cells.map(cellIdOf).slice(0, 20).join(', ')
  throw new ToolError(
    `No cell "${cellId}" in ${path}. Its cells are: ${ids || '(none)'}. Read the notebook to see them.`
  )
}

/** A fresh cell id, for notebooks whose format (nbformat ≥ 4.5) gives every cell one. */
export function newCellId(): string {
  return randomBytes(4).toString('hex')
}

/** Whether cells of this notebook carry ids (nbformat 4.5 and later). */
export function usesCellIds(notebook: Notebook): boolean {
  return (notebook.nbformat ?? 0) > 4 || ((notebook.nbformat ?? 0) === 4 && (notebook.nbformat_minor ?? 0) >= 5)
}

/** Characters of one output's text shown by Read; past it the output is cut with a note. */
const OUTPUT_CHARS = 10_000

/**
 * A notebook as Read shows it (docs/tools.md#notebooks): each cell as `<cell id="…" type="…">`,
 * its source, then its outputs (stream text, `text/plain` results, errors; other media named but
 * left out), `</cell>`.
 */
export function renderNotebook(notebook: Notebook): string {
  const parts = notebook.cells.map((cell, i) => {
    const lines = [`<cell id="${cellIdOf(cell, i)}" type="${cell.cell_type}">`, joinSource(cell.source)]
    for (const output of cell.outputs ?? []) lines.push(renderOutput(output))
    lines.push('</cell>')
    return lines.join('\n')
  })
  return parts.length === 0 ? '(The notebook has no cells.)' : parts.join('\n\n')
}

function renderOutput(output: NotebookOutput): string {
  let text: string
  if (output.output_type === 'stream') text = joinSource(output.text)
  else if (output.output_type === 'error') text = `${output.ename ?? 'Error'}: ${output.evalue ?? ''}`
  else {
    const data = output.data ?? {}
    const media = Object.keys(data).filter((k) => k !== 'text/plain')
    text = [joinSource(data['text/plain']), ...media.map((k) => `[${k} output not shown]`)]
      .filter((s) => s !== '')
      .join('\n')
  }
  if (text.length > OUTPUT_CHARS)
    text = `${text.slice(0, OUTPUT_CHARS)}\n[output cut: ${text.length - OUTPUT_CHARS} more characters]`
  return `<output type="${output.output_type}">\n${text.replace(/\n$/, '')}\n</output>`
}
