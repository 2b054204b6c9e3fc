import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ofType, runCli, tempWorkspace } from './cli.testkit'

const resolve = createRequire(import.meta.url).resolve
const memory = resolve('@modelcontextprotocol/server-memory/dist/index.js')
const filesystem = resolve('@modelcontextprotocol/server-filesystem/dist/index.js')

let home: string
let work: string
let cleanup: () => void
beforeEach(() => {
  ;({ home, work, cleanup } = tempWorkspace())
})
afterEach(() => cleanup())

const env = (): Record<string, string> => ({ SWARMDESK_HOME: home, ANTHROPIC_API_KEY: '' })

/** Processes whose command line holds `marker`. */
function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'))
}

describe('swarmdesk run --mcp-config', () => {
  it('the leader calls an MCP tool of server-memory, the model gets its result, and run exits after the server did', async () => {
    const graph = join(home, 'graph.jsonl')
    const config = join(home, 'mcp.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          memory: { command: process.execPath, args: [memory, `--marker=${home}`], env: { MEMORY_FILE_PATH: graph } }
        }
      })
    )
    const scenario = join(home, 's.yaml')
    writeFileSync(
      scenario,
      [
        'agents:',
        '  team-lead:',
        '    - tools:',
        '        - name: mcp__memory__create_entities',
        '          input: { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] }',
        '    - tools: [{ name: mcp__memory__read_graph, input: {} }]',
        '    - text: "The graph: {{last_tool_result}}"',
        ''
      ].join('\n')
    )
    const run = await runCli(
      [
        'run',
        '--cwd',
        work,
        '--scenario',
        scenario,
        '--mcp-config',
        config,
        '--json',
        '--approve',
        'all',
        'remember Ada'
      ],
      { env: env() }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    // MCP calls ask by default (docs/permissions.md#mcp-tools): --approve all answered
    expect(ofType(run.events, 'permission_request').map((r) => r.tool)).toEqual([
      'mcp__memory__create_entities',
      'mcp__memory__read_graph'
    ])
    const results = ofType(run.events, 'tool_result')
    expect(results.every((r) => !r.isError)).toBe(true)
    const texts = ofType(run.events, 'assistant_text').map((e) => e.text)
    expect(texts.join('')).toMatch(/The graph: .*Ada.*wrote the first program/s)
    expect(readFileSync(graph, 'utf8')).toContain('"name":"Ada"')
    expect(processesWith(`--marker=${home}`)).toEqual([])
  }, 60_000)

  it('a subagent gets its definition’s mcpServers: a configured one shared, an inline one started for it and closed', async () => {
    const graph = join(home, 'graph.jsonl')
    writeFileSync(
      graph,
      JSON.stringify({ type: 'entity', name: 'Grace', entityType: 'person', observations: [] }) + '\n'
    )
    const config = join(home, 'mcp.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          memory: { command: process.execPath, args: [memory, `--marker=${home}`], env: { MEMORY_FILE_PATH: graph } }
        }
      })
    )
    writeFileSync(join(work, 'note.txt'), 'inline server read me\n')
    mkdirSync(join(work, '.swarmdesk', 'agents'), { recursive: true })
    writeFileSync(
      join(work, '.swarmdesk', 'agents', 'librarian.md'),
      [
        '---',
        'name: librarian',
        'description: looks things up',
        'tools: Read',
        'mcpServers:',
        '  - memory',
        '  - files:',
        `      command: ${JSON.stringify(process.execPath)}`,
        `      args: [${JSON.stringify(filesystem)}, ${JSON.stringify(work)}, "--marker=${home}"]`,
        '---',
        'You look things up.',
        ''
      ].join('\n')
    )
    const scenario = join(home, 's.yaml')
    writeFileSync(
      scenario,
      [
        'agents:',
        '  team-lead:',
        "    - tools: [{ name: Agent, input: { subagent_type: librarian, description: 'look up', prompt: 'look' } }]",
        '    - text: "Lead got: {{last_tool_result}}"',
        "  'type:librarian':",
        '    - tools: [{ name: mcp__memory__read_graph, input: {} }]',
        `    - tools: [{ name: mcp__files__read_text_file, input: { path: ${JSON.stringify(join(work, 'note.txt'))} } }]`,
        '    - text: "Librarian read: {{last_tool_result}}"',
        ''
      ].join('\n')
    )
    const run = await runCli(
      ['run', '--cwd', work, '--scenario', scenario, '--mcp-config', config, '--json', '--approve', 'all', 'look up'],
      { env: env() }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const results = ofType(run.events, 'tool_result').map((r) => r.output)
    expect(results.some((o) => o.includes('Grace'))).toBe(true)
    expect(results.some((o) => o.includes('inline server read me'))).toBe(true)
    const texts = ofType(run.events, 'assistant_text')
      .map((e) => e.text)
      .join('')
    expect(texts).toMatch(/Lead got: [\s\S]*Librarian read: inline server read me/)
    expect(ofType(run.events, 'notice').filter((n) => n.level === 'warning')).toEqual([])
    expect(processesWith(`--marker=${home}`)).toEqual([])
  }, 90_000)

  it('a malformed --mcp-config is bad usage naming file and field', async () => {
    const config = join(home, 'bad.json')
    writeFileSync(config, JSON.stringify({ mcpServers: { x: { type: 'http' } } }))
    const run = await runCli(['run', '--cwd', work, '--mcp-config', config, '--json', 'hi'], { env: env() })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`${config}: mcpServers.x`)
  })
})

describe('a project’s .mcp.json in a headless run', () => {
  it('a malformed .mcp.json is bad usage naming file and field, before anything runs', async () => {
    writeFileSync(join(work, '.mcp.json'), JSON.stringify({ mcpServers: { x: { command: 'node', args: '--port 1' } } }))
    const run = await runCli(['run', '--cwd', work, '--json', 'hi'], { env: env() })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/\.mcp\.json: mcpServers\.x\.args: .*it must be a list of strings/)
    expect(ofType(run.events, 'assistant_text')).toEqual([])
  })

  it('an unapproved project server is not started and is reported once, teammates of both backends included; an approved one starts', async () => {
    const server = (file: string) => ({
      command: process.execPath,
      args: [memory, `--marker=${home}`],
      env: { MEMORY_FILE_PATH: join(home, file) }
    })
    writeFileSync(
      join(work, '.mcp.json'),
      JSON.stringify({ mcpServers: { proj: server('p.jsonl'), ok: server('o.jsonl') } })
    )
    mkdirSync(join(work, '.swarmdesk'), { recursive: true })
    writeFileSync(join(work, '.swarmdesk', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['ok'] }))
    const probe = (who: string): string[] => [
      `  ${who}:`,
      '    - tools:',
      '        - { name: mcp__proj__read_graph, input: {} }',
      '        - { name: mcp__ok__read_graph, input: {} }',
      ...Array.from({ length: 6 }, () => '    - text: "Done."')
    ]
    const scenario = join(home, 's.yaml')
    writeFileSync(
      scenario,
      [
        'agents:',
        '  team-lead:',
        '    - tools: [{ name: TeamCreate, input: { team_name: crew } }]',
        '    - tools:',
        '        - { name: Agent, input: { name: wally, backend: worker, description: w, prompt: Start. } }',
        '        - { name: Agent, input: { name: pat, backend: process, description: p, prompt: Start. } }',
        '    - tools:',
        '        - { name: mcp__proj__read_graph, input: {} }',
        '        - { name: mcp__ok__read_graph, input: {} }',
        ...Array.from({ length: 10 }, () => '    - text: "Noted."'),
        ...probe('wally'),
        ...probe('pat'),
        ''
      ].join('\n')
    )
    const run = await runCli(
      ['run', '--cwd', work, '--scenario', scenario, '--permission-mode', 'bypassPermissions', '--json', 'go'],
      { env: env() }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const reports = ofType(run.events, 'notice').filter((n) => n.message.includes("'proj'"))
    expect(reports).toHaveLength(1)
    expect(reports[0]).toMatchObject({ level: 'warning', agentName: 'team-lead' })
    expect(reports[0]!.message).toMatch(/is not approved; not started\. Approve it with enabledMcpjsonServers/)
    const calls = ofType(run.events, 'tool_call')
    const results = ofType(run.events, 'tool_result')
    for (const who of ['team-lead', 'wally', 'pat']) {
      const of = (tool: string) =>
        results.find((r) => r.toolUseId === calls.find((c) => c.agentName === who && c.name === tool)?.toolUseId)
      expect(of('mcp__proj__read_graph')).toMatchObject({ isError: true })
      expect(of('mcp__proj__read_graph')!.output).toContain('No such tool: mcp__proj__read_graph')
      expect(of('mcp__ok__read_graph')).toMatchObject({ isError: false })
    }
    expect(processesWith(`--marker=${home}`)).toEqual([])
  }, 120_000)
})

describe('swarmdesk mcp list', () => {
  it('lists every server of every source with its state: connected with its tools, failed with why, awaiting approval', async () => {
    writeFileSync(
      join(work, '.mcp.json'),
      JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [memory] } } })
    )
    const config = join(home, 'mcp.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [memory, `--marker=${home}`],
            env: { MEMORY_FILE_PATH: join(home, 'g.jsonl') }
          },
          broken: { command: process.execPath, args: ['-e', 'console.error("cannot start"); process.exit(1)'] }
        }
      })
    )
    const run = await runCli(['mcp', 'list', '--cwd', work, '--mcp-config', config, '--json'], { env: env() })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const entries = JSON.parse(run.stdout) as Array<Record<string, unknown>>
    const byName = Object.fromEntries(entries.map((e) => [e.name, e]))
    expect(byName.memory).toMatchObject({ source: 'flag', transport: 'stdio', state: 'connected' })
    expect(byName.memory!.tools).toContain('read_graph')
    expect(byName.broken).toMatchObject({ state: 'failed' })
    expect(byName.broken!.error).toMatch(/cannot start/)
    expect(byName.proj).toMatchObject({ source: 'project', state: 'awaiting-approval' })
    expect(processesWith(`--marker=${home}`)).toEqual([])
  }, 60_000)
})
