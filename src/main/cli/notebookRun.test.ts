import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

const dirs = useTempWorkspace()

const NOTEBOOK = {
  cells: [
    {
      cell_type: 'code',
      id: 'c1',
      metadata: {},
      execution_count: 1,
      source: ['print(1)'],
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['1\n'] }]
    }
  ],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5
}

describe('NotebookEdit through the real runtime and the scripted model', () => {
  it('the leader reads a notebook, sees its cells and outputs, then edits a cell once a person allows it', async () => {
    writeFileSync(join(dirs.work, 'nb.ipynb'), JSON.stringify(NOTEBOOK))
    writeFileSync(
      join(dirs.work, 's.yaml'),
      [
        'agents:',
        '  team-lead:',
        '    - tools: [{ name: Read, input: { file_path: nb.ipynb } }]',
        '    - tools: [{ name: NotebookEdit, input: { notebook_path: nb.ipynb, cell_id: c1, new_source: "print(2)" } }]',
        '    - text: "done: {{last_tool_result}}"',
        ''
      ].join('\n')
    )
    const run = await runCli(['run', '--scenario', 's.yaml', '--json', '--approve', 'all', 'edit the notebook'], {
      cwd: dirs.work,
      env: { SWARMDESK_HOME: dirs.home, ANTHROPIC_API_KEY: '' }
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const results = ofType(run.events, 'tool_result')
    expect(results[0]!.output).toContain('<cell id="c1" type="code">\nprint(1)\n<output type="stream">\n1\n</output>')
    expect(results[1]).toMatchObject({
      isError: false,
      output: `Updated cell c1 of ${join(dirs.work, 'nb.ipynb')} (1 cells).`
    })
    // an edit of a workspace file asks in default mode, like Edit
    expect(ofType(run.events, 'permission_request').map((r) => r.tool)).toEqual(['NotebookEdit'])
    expect(JSON.parse(readFileSync(join(dirs.work, 'nb.ipynb'), 'utf8')).cells[0]).toMatchObject({
      source: ['print(2)'],
      outputs: [],
      execution_count: null
    })
  })
})
