import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NotebookEditTool, type NotebookEditInput } from './notebookEdit'
import { ReadTool } from './read'
import { makeTempDir, makeToolContext } from '../tools.testkit'
import type { ToolContext } from '../types'

let dir: string
let cleanup: () => Promise<void>
let ctx: ToolContext

beforeEach(async () => {
  ;({ dir, cleanup } = await makeTempDir())
  ctx = makeToolContext(dir)
})
afterEach(() => cleanup())

/** A notebook as Jupyter writes one (nbformat 4.5: every cell has an id). */
const NOTEBOOK = {
  cells: [
    { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Title\n', 'Some prose.'] },
    {
      cell_type: 'code',
      id: 'calc',
      metadata: {},
      execution_count: 3,
      source: ['x = 2\n', 'print(x * 21)'],
      outputs: [
        { output_type: 'stream', name: 'stdout', text: ['42\n'] },
        {
          output_type: 'execute_result',
          execution_count: 3,
          metadata: {},
          data: { 'text/plain': ['42'], 'image/png': 'iVBOR' }
        }
      ]
    },
    {
      cell_type: 'code',
      id: 'boom',
      metadata: {},
      execution_count: 4,
      source: '1/0',
      outputs: [{ output_type: 'error', ename: 'ZeroDivisionError', evalue: 'division by zero', traceback: [] }]
    }
  ],
  metadata: { kernelspec: { name: 'python3' } },
  nbformat: 4,
  nbformat_minor: 5
}

const edit = (input: NotebookEditInput) => NotebookEditTool.call(input, ctx)
const notebookOnDisk = async (name = 'nb.ipynb') => JSON.parse(await readFile(join(dir, name), 'utf8'))

async function writeNotebook(name = 'nb.ipynb', notebook: unknown = NOTEBOOK): Promise<void> {
  await writeFile(join(dir, name), JSON.stringify(notebook, null, 1))
}

describe('Read of a notebook', () => {
  it('shows each cell with its id and type, its source and its outputs', async () => {
    await writeNotebook()
    const { content } = await ReadTool.call({ file_path: 'nb.ipynb' }, ctx)
    expect(content).toContain('<cell id="intro" type="markdown">\n# Title\nSome prose.\n</cell>')
    expect(content).toContain(
      '<cell id="calc" type="code">\nx = 2\nprint(x * 21)\n<output type="stream">\n42\n</output>'
    )
    expect(content).toContain('<output type="execute_result">\n42\n[image/png output not shown]\n</output>')
    expect(content).toContain('<output type="error">\nZeroDivisionError: division by zero\n</output>')
    expect(content).not.toContain('"cell_type"')
  })
})

describe('NotebookEdit', () => {
  it('refuses a notebook the agent has not read', async () => {
    await writeNotebook()
    await expect(edit({ notebook_path: 'nb.ipynb', cell_id: 'calc', new_source: 'y = 1' })).rejects.toThrow(
      /not been read yet/
    )
    expect(await notebookOnDisk()).toEqual(NOTEBOOK)
  })

  it('refuses a notebook changed on disk since it was read', async () => {
    await writeNotebook()
    await ReadTool.call({ file_path: 'nb.ipynb' }, ctx)
    await writeNotebook('nb.ipynb', {
      ...NOTEBOOK,
      cells: [...NOTEBOOK.cells, { cell_type: 'raw', metadata: {}, source: 'someone else' }]
    })
    await expect(edit({ notebook_path: 'nb.ipynb', cell_id: 'calc', new_source: 'y = 1' })).rejects.toThrow(
      /modified since it was read/
    )
  })

  it('replaces a code cell: new source, outputs and execution count cleared, id and metadata kept', async () => {
    await writeNotebook()
    await ReadTool.call({ file_path: 'nb.ipynb' }, ctx)
    const result = await edit({ notebook_path: 'nb.ipynb', cell_id: 'calc', new_source: 'y = 1\nprint(y)\n' })
    expect(result.content).toBe(`Updated cell calc of ${join(dir, 'nb.ipynb')} (3 cells).`)
    const nb = await notebookOnDisk()
    expect(nb.cells[1]).toEqual({
      cell_type: 'code',
      id: 'calc',
      metadata: {},
      source: ['y = 1\n', 'print(y)\n'],
      execution_count: null,
      outputs: []
    })
    expect(nb.cells[0]).toEqual(NOTEBOOK.cells[0])
    expect(nb.metadata).toEqual(NOTEBOOK.metadata)
    // the agent's own write keeps its read fresh: a second edit needs no new Read
    await edit({ notebook_path: 'nb.ipynb', cell_id: 'intro', new_source: '# New title', cell_type: 'markdown' })
    expect((await notebookOnDisk()).cells[0].source).toEqual(['# New title'])
  })

  it('inserts after a cell, or first without cell_id, with a fresh id; insert needs cell_type', async () => {
    await writeNotebook()
    await ReadTool.call({ file_path: 'nb.ipynb' }, ctx)
    await expect(
      edit({ notebook_path: 'nb.ipynb', cell_id: 'intro', new_source: 'z', edit_mode: 'insert' })
    ).rejects.toThrow(/needs cell_type/)
    await edit({
      notebook_path: 'nb.ipynb',
      cell_id: 'intro',
      new_source: 'import math',
      cell_type: 'code',
      edit_mode: 'insert'
    })
    await edit({ notebook_path: 'nb.ipynb', new_source: 'Preface', cell_type: 'markdown', edit_mode: 'insert' })
    const cells = (await notebookOnDisk()).cells
    expect(cells.map((c: { source: unknown }) => c.source)).toEqual([
      ['Preface'],
      NOTEBOOK.cells[0].source,
      ['import math'],
      NOTEBOOK.cells[1].source,
      '1/0'
    ])
    expect(cells[2]).toMatchObject({ cell_type: 'code', outputs: [], execution_count: null })
    expect(cells[2].id).toMatch(/^[0-9a-f]{8}$/)
    const { content } = await ReadTool.call({ file_path: 'nb.ipynb' }, ctx)
    expect(content).toContain(`<cell id="${cells[2].id}" type="code">\nimport math\n</cell>`)
  })

  it('deletes a cell, and names the cells there are for an unknown id', async () => {
    await writeNotebook()
    await ReadTool.call({ file_path: 'nb.ipynb' }, ctx)
    await expect(
      edit({ notebook_path: 'nb.ipynb', cell_id: 'nope', new_source: '', edit_mode: 'delete' })
    ).rejects.toThrow('No cell "nope" in ' + join(dir, 'nb.ipynb') + '. Its cells are: intro, calc, boom.')
    await edit({ notebook_path: 'nb.ipynb', cell_id: 'boom', new_source: '', edit_mode: 'delete' })
    expect((await notebookOnDisk()).cells.map((c: { id: string }) => c.id)).toEqual(['intro', 'calc'])
  })

  it('addresses the cells of an older notebook without ids as cell-N', async () => {
    const old = {
      cells: [
        { cell_type: 'code', metadata: {}, source: 'a = 1', outputs: [], execution_count: null },
        { cell_type: 'code', metadata: {}, source: 'b = 2', outputs: [], execution_count: null }
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 2
    }
    await writeNotebook('old.ipynb', old)
    expect((await ReadTool.call({ file_path: 'old.ipynb' }, ctx)).content).toContain(
      '<cell id="cell-1" type="code">\nb = 2\n</cell>'
    )
    await edit({ notebook_path: 'old.ipynb', cell_id: 'cell-1', new_source: 'b = 3' })
    await edit({
      notebook_path: 'old.ipynb',
      cell_id: 'cell-0',
      new_source: 'note',
      cell_type: 'markdown',
      edit_mode: 'insert'
    })
    const cells = (await notebookOnDisk('old.ipynb')).cells
    expect(cells.map((c: { source: unknown }) => c.source)).toEqual(['a = 1', ['note'], ['b = 3']])
    expect(cells[1].id).toBeUndefined()
  })

  it('refuses a file that is not a notebook', async () => {
    await writeFile(join(dir, 'a.py'), 'x = 1')
    await expect(edit({ notebook_path: 'a.py', cell_id: 'cell-0', new_source: 'x' })).rejects.toThrow(
      /not a notebook \(\.ipynb\)/
    )
  })

  it('is judged as an edit of the notebook', () => {
    expect(NotebookEditTool.permissionSubject({ notebook_path: 'nb.ipynb', new_source: '' }, { cwd: dir })).toEqual({
      kind: 'edit',
      path: join(dir, 'nb.ipynb')
    })
  })
})
