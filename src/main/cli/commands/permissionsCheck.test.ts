import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { PermissionSubject } from '../../../shared/permissions'
import { permissionsCheckCommand } from './permissionsCheck'

/** A small stand-in for the tool registry's mapping. */
function resolveSubject(tool: string, input: unknown, _cwd: string): PermissionSubject {
  const i = (input ?? {}) as Record<string, unknown>
  if (tool === 'Read' || tool === 'Glob' || tool === 'Grep')
    return { kind: 'read', path: String(i.file_path ?? i.path ?? '.') }
  if (tool === 'Write' || tool === 'Edit') {
    if (typeof i.file_path !== 'string') throw new Error('file_path: required')
    return { kind: 'edit', path: i.file_path }
  }
  if (tool === 'Bash') return { kind: 'bash', command: String(i.command) }
  return {
    kind: 'tool',
    tool,
    specifier: typeof i.subagent_type === 'string' ? i.subagent_type : undefined,
    readOnly: false
  }
}

describe('swarmdesk permissions check', () => {
  let ws: string
  let home: string
  let settings: string
  beforeAll(async () => {
    const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'swarmdesk-check-')))
    ws = path.join(base, 'ws')
    home = path.join(base, 'home')
    await mkdir(path.join(ws, 'src'), { recursive: true })
    await mkdir(home)
    settings = path.join(base, 'cli.json')
    await writeFile(settings, JSON.stringify({ permissions: { deny: ['Bash(rm:*)'], allow: ['Agent(Explore)'] } }))
  })

  async function run(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = []
    const err: string[] = []
    const code = await permissionsCheckCommand(argv, resolveSubject, {
      stdout: (l) => out.push(l),
      stderr: (l) => err.push(l),
      env: { SWARMDESK_HOME: home }
    })
    return { code, out, err }
  }

  it('prints one decision line and exits 0 for any decision', async () => {
    const r = await run([
      '--cwd',
      ws,
      '--settings',
      settings,
      '--tool',
      'Bash',
      '--input',
      JSON.stringify({ command: 'ls && rm -rf /' })
    ])
    expect(r.code).toBe(0)
    expect(r.out).toHaveLength(1)
    expect(JSON.parse(r.out[0])).toMatchObject({ decision: 'deny', rule: { rule: 'Bash(rm:*)', source: settings } })
    const allow = await run(['--cwd', ws, '--tool', 'Read', '--input', '{"file_path":"src/a.ts"}'])
    expect(JSON.parse(allow.out[0])).toEqual({ decision: 'allow', reason: expect.any(String), rule: null })
  })

  it('honours --mode and tool rules', async () => {
    const plan = await run(['--cwd', ws, '--mode', 'plan', '--tool', 'Write', '--input', '{"file_path":"src/x.ts"}'])
    expect(JSON.parse(plan.out[0]).decision).toBe('deny')
    const agent = await run([
      '--cwd',
      ws,
      '--settings',
      settings,
      '--tool',
      'Agent',
      '--input',
      '{"subagent_type":"Explore"}'
    ])
    expect(JSON.parse(agent.out[0]).decision).toBe('allow')
  })

  it.each([
    [['--cwd', 'x', '--tool', 'Bash'], /missing --tool NAME and --input JSON/],
    [['--tool', 'Bash', '--input', '{nope'], /--input is not JSON/],
    [['--tool', 'Bash', '--input', '{}', '--mode', 'yolo'], /--mode yolo: use one of/],
    [['--tool', 'Bash', '--input', '{}', '--bogus'], /bogus/],
    [['--tool', 'Write', '--input', '{}'], /--input: file_path: required/]
  ])('exits 2 on bad input %j', async (argv, message) => {
    const r = await run(argv)
    expect(r.code).toBe(2)
    expect(r.out).toEqual([])
    expect(r.err.join('\n')).toMatch(message)
  })

  it('exits 2 naming the file and field when settings do not load', async () => {
    const bad = path.join(path.dirname(settings), 'bad.json')
    await writeFile(bad, JSON.stringify({ permissions: { deny: ['Bash(rm:*)', 'Bash('] } }))
    const r = await run(['--cwd', ws, '--settings', bad, '--tool', 'Bash', '--input', '{"command":"ls"}'])
    expect(r.code).toBe(2)
    expect(r.err.join('\n')).toContain(`${bad} (permissions.deny[1])`)
  })

  it('decides a batch in order, one line out per line in, with a per-line mode', async () => {
    const batch = path.join(path.dirname(settings), 'batch.jsonl')
    await writeFile(
      batch,
      [
        JSON.stringify({ tool: 'Bash', input: { command: 'ls' } }),
        JSON.stringify({ tool: 'Bash', input: { command: 'rm x' } }),
        '',
        JSON.stringify({ tool: 'Edit', input: { file_path: 'src/a.ts' }, mode: 'acceptEdits' }),
        JSON.stringify({ tool: 'Edit', input: { file_path: 'src/a.ts' } })
      ].join('\n')
    )
    const r = await run(['--cwd', ws, '--settings', settings, '--batch', batch])
    expect(r.code).toBe(0)
    expect(r.out.map((l) => JSON.parse(l).decision)).toEqual(['allow', 'deny', 'allow', 'ask'])
  })

  it('exits 2 naming the line of a bad batch line, printing no decisions', async () => {
    const batch = path.join(path.dirname(settings), 'bad-batch.jsonl')
    await writeFile(batch, [JSON.stringify({ tool: 'Bash', input: { command: 'ls' } }), '{"input": {}}'].join('\n'))
    const r = await run(['--cwd', ws, '--batch', batch])
    expect(r.code).toBe(2)
    expect(r.out).toEqual([])
    expect(r.err.join('\n')).toMatch(/bad-batch\.jsonl line 2: tool/)
  })
})
