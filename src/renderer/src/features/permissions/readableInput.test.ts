import { describe, expect, it } from 'vitest'
import { diffLines, inputSummary, isPlanApproval, planLines, readableInput } from './readableInput'

describe('readable permission input', () => {
  it('names the server and tool of an MCP call and shows its arguments', () => {
    expect(
      readableInput({ tool: 'mcp__memory__create_entities', input: { entities: [{ name: 'Ada' }], dry_run: true } })
    ).toEqual({
      kind: 'fields',
      title: 'calls create_entities of the MCP server memory with',
      rows: [
        { label: 'entities', value: '[{"name":"Ada"}]' },
        { label: 'dry run', value: 'true' }
      ]
    })
  })

  it('shows a sandbox network question as the host it asks for', () => {
    expect(readableInput({ tool: 'SandboxNetwork', input: { host: 'registry.npmjs.org' } })).toEqual({
      kind: 'path',
      label: 'network',
      value: 'registry.npmjs.org',
      extra: 'a sandboxed command asks to connect'
    })
  })

  it('shows a Bash command with its description', () => {
    expect(readableInput({ tool: 'Bash', input: { command: 'npm test -- --run', description: 'Run tests' } })).toEqual({
      kind: 'command',
      command: 'npm test -- --run',
      description: 'Run tests'
    })
  })

  it('shows the diff of an Edit with lines classified for colour', () => {
    const diff =
      'Index: /w/src/x.ts\n' + '='.repeat(67) + '\n--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n'
    const view = readableInput({
      tool: 'Edit',
      input: { file_path: '/w/src/x.ts', old_string: 'old', new_string: 'new' },
      diff
    })
    expect(view).toEqual({
      kind: 'diff',
      path: '/w/src/x.ts',
      lines: [
        { kind: 'meta', text: '--- a/src/x.ts' },
        { kind: 'meta', text: '+++ b/src/x.ts' },
        { kind: 'hunk', text: '@@ -1,2 +1,2 @@' },
        { kind: 'context', text: ' keep' },
        { kind: 'del', text: '-old' },
        { kind: 'add', text: '+new' }
      ]
    })
  })

  it('shows a Write without a diff as added lines', () => {
    expect(readableInput({ tool: 'Write', input: { file_path: '/w/a.txt', content: 'a\nb' } })).toEqual({
      kind: 'diff',
      path: '/w/a.txt',
      lines: [
        { kind: 'add', text: '+a' },
        { kind: 'add', text: '+b' }
      ]
    })
  })

  it('shows a Bash command with the directory it runs in', () => {
    expect(readableInput({ tool: 'Bash', input: { command: 'ls' }, cwd: '/w/app' })).toEqual({
      kind: 'command',
      command: 'ls',
      description: undefined,
      cwd: '/w/app'
    })
  })

  it('shows where a Grep or Glob without a path searches: the agent’s directory', () => {
    expect(readableInput({ tool: 'Glob', input: { pattern: '*.md' }, cwd: '/w/app' })).toEqual({
      kind: 'path',
      label: 'pattern',
      value: '*.md',
      extra: 'in /w/app'
    })
    expect(readableInput({ tool: 'Grep', input: { pattern: 'x', path: 'src' }, cwd: '/w/app' })).toMatchObject({
      extra: 'in src'
    })
  })

  it('shows the path of a Read and the pattern of a Grep or Glob', () => {
    expect(readableInput({ tool: 'Read', input: { file_path: '/etc/hosts' } })).toEqual({
      kind: 'path',
      label: 'file',
      value: '/etc/hosts'
    })
    expect(readableInput({ tool: 'Grep', input: { pattern: 'TODO', path: 'src' } })).toEqual({
      kind: 'path',
      label: 'pattern',
      value: 'TODO',
      extra: 'in src'
    })
    expect(readableInput({ tool: 'Glob', input: { pattern: '**/*.ts' } })).toMatchObject({
      kind: 'path',
      value: '**/*.ts'
    })
  })

  it('reads other tools and inputs it does not recognise as labelled fields, JSON only for an input that is not an object', () => {
    expect(readableInput({ tool: 'Skill', input: { url: 'https://x' } })).toEqual({
      kind: 'fields',
      title: 'calls Skill with',
      rows: [{ label: 'address', value: 'https://x' }]
    })
    expect(readableInput({ tool: 'Bash', input: { cmd: 1 } })).toEqual({
      kind: 'fields',
      title: 'calls Bash with',
      rows: [{ label: 'cmd', value: '1' }]
    })
    expect(readableInput({ tool: 'Bash', input: 'echo' }).kind).toBe('json')
  })

  it('keeps a "\\ No newline" marker as meta', () => {
    expect(diffLines('+x\n\\ No newline at end of file')[1].kind).toBe('meta')
  })
})

describe('plan approvals', () => {
  it('shows the plan of a plan approval line by line, markers kept, code fenced', () => {
    const plan = '## Plan\r\n1. Read `parser.ts`\n- add a test\n\n```ts\n# not a heading\n```\n> note\nDone.\n'
    const view = readableInput({ tool: 'ExitPlanMode', input: { plan } })
    expect(view).toEqual({
      kind: 'plan',
      lines: [
        { kind: 'heading', text: '## Plan' },
        { kind: 'numbered', text: '1. Read `parser.ts`' },
        { kind: 'bullet', text: '- add a test' },
        { kind: 'text', text: '' },
        { kind: 'fence', text: '```ts' },
        { kind: 'code', text: '# not a heading' },
        { kind: 'fence', text: '```' },
        { kind: 'quote', text: '> note' },
        { kind: 'text', text: 'Done.' }
      ]
    })
    expect(planLines('one line')).toEqual([{ kind: 'text', text: 'one line' }])
    expect(isPlanApproval({ tool: 'ExitPlanMode' })).toBe(true)
    expect(isPlanApproval({ tool: 'Bash' })).toBe(false)
  })

  it('reads a plan approval without a plan as its (empty) fields', () => {
    expect(readableInput({ tool: 'ExitPlanMode', input: {} })).toEqual({
      kind: 'fields',
      title: 'calls ExitPlanMode with',
      rows: []
    })
  })
})

describe('every card in words (issue 19 item 5)', () => {
  it('says who a spawn starts, of which type, in which mode and backend, with its prompt', () => {
    const view = readableInput({
      tool: 'Agent',
      input: { name: 'ivy', backend: 'process', mode: 'plan', description: 'reviewer', prompt: 'Review the parser.' }
    })
    expect(view).toEqual({
      kind: 'spawn',
      spawn: {
        who: 'a teammate named ivy',
        type: 'general-purpose',
        mode: 'plan',
        backend: 'process',
        team: undefined,
        model: undefined,
        description: 'reviewer',
        prompt: 'Review the parser.'
      }
    })
    expect(inputSummary(view)).toBe('starts a teammate named ivy (general-purpose, plan mode, process)')
    expect(
      inputSummary(
        readableInput({ tool: 'Agent', input: { subagent_type: 'Explore', prompt: 'Look', run_in_background: true } })
      )
    ).toBe('starts a background subagent (Explore, in the background)')
  })

  it('words SendMessage and the task tools, never JSON', () => {
    const msg = readableInput({
      tool: 'SendMessage',
      input: { to: 'alice', message: { type: 'shutdown_request', reason: 'done' } }
    })
    expect(msg).toEqual({
      kind: 'fields',
      title: 'sends a message to alice',
      rows: [
        { label: 'kind', value: 'shutdown request' },
        { label: 'reason', value: 'done' }
      ]
    })
    const task = readableInput({ tool: 'TaskUpdate', input: { taskId: '3', status: 'in_progress', owner: 'bob' } })
    expect(task).toEqual({
      kind: 'fields',
      title: 'changes a task',
      rows: [
        { label: 'task', value: '#3' },
        { label: 'status', value: 'in_progress' },
        { label: 'owner', value: 'bob' }
      ]
    })
    expect(readableInput({ tool: 'WebFetch', input: { url: 'https://x.test', prompt: 'read it' } }).kind).toBe('fields')
  })

  it('shows a NotebookEdit as the cell it replaces, inserts or deletes, with the new source', () => {
    const path = '/w/analysis.ipynb'
    expect(
      readableInput({ tool: 'NotebookEdit', input: { notebook_path: path, cell_id: 'c2', new_source: 'print(1)' } })
    ).toEqual({
      kind: 'fields',
      title: 'replaces cell c2 of the notebook /w/analysis.ipynb',
      rows: [{ label: 'new source', value: 'print(1)', block: true }]
    })
    expect(
      readableInput({
        tool: 'NotebookEdit',
        input: { notebook_path: path, new_source: '# Notes', cell_type: 'markdown', edit_mode: 'insert' }
      })
    ).toMatchObject({ title: 'inserts a markdown cell at the start of the notebook /w/analysis.ipynb' })
    expect(
      readableInput({
        tool: 'NotebookEdit',
        input: { notebook_path: path, cell_id: 'c1', new_source: '', edit_mode: 'delete' }
      })
    ).toEqual({ kind: 'fields', title: 'deletes cell c1 of the notebook /w/analysis.ipynb', rows: [] })
  })

  it('shows a WebSearch with its query and domain lists', () => {
    expect(
      readableInput({ tool: 'WebSearch', input: { query: 'frobnicator', allowed_domains: ['a.org', 'b.org'] } })
    ).toEqual({
      kind: 'fields',
      title: 'searches the web for “frobnicator”',
      rows: [
        { label: 'query', value: 'frobnicator' },
        { label: 'only from', value: 'a.org, b.org' }
      ]
    })
  })

  it('shows a WebFetch with the domain its rules name, the address and the prompt', () => {
    const view = readableInput({
      tool: 'WebFetch',
      input: { url: 'http://127.0.0.1:8080/notes?x=1', prompt: 'What changed?' }
    })
    expect(view).toEqual({
      kind: 'fields',
      title: 'fetches a web page from 127.0.0.1',
      rows: [
        { label: 'address', value: 'http://127.0.0.1:8080/notes?x=1' },
        { label: 'prompt', value: 'What changed?' }
      ]
    })
    expect(inputSummary(view)).toBe('fetches a web page from 127.0.0.1: http://127.0.0.1:8080/notes?x=1')
  })
})
