/**
 * MCP servers of teammates on both backends (docs/tools.md#mcp-servers, docs/teams.md#backends),
 * all real: `swarmdesk run --mcp-config` with the scripted model, a worker teammate (a worker
 * thread) and a process teammate (`swarmdesk teammate` in a terminal) of a type whose definition
 * defines an inline server-memory; the session's server is server-everything.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ofType, runCli, tempWorkspace } from './cli.testkit'

const resolve = createRequire(import.meta.url).resolve
const everything = resolve('@modelcontextprotocol/server-everything/dist/index.js')
const memory = resolve('@modelcontextprotocol/server-memory/dist/index.js')
const filesystem = resolve('@modelcontextprotocol/server-filesystem/dist/index.js')
/** A real SDK server whose tool list grows on cue (its add_tool), sending tools/list_changed. */
const growing = fileURLToPath(new URL('../runtime/mcp/growingServer.testkit.cjs', import.meta.url))

let home: string
let work: string
let cleanup: () => void
beforeEach(() => {
  ;({ home, work, cleanup } = tempWorkspace())
})
afterEach(() => cleanup())

/** Processes whose command line holds `marker`. */
function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'))
}

/** A teammate's turns: the session server's get-env, its own server's create_entities, then text for every later turn. */
function teammateTurns(who: string): string[] {
  return [
    `  ${who}:`,
    '    - tools: [{ name: mcp__everything__get-env, input: {} }]',
    `    - tools: [{ name: mcp__memory__create_entities, input: { entities: [{ name: "${who}-entity", entityType: "note", observations: ["seen"] }] } }]`,
    ...Array.from({ length: 8 }, () => '    - text: "Done."')
  ]
}

describe('MCP servers of teammates', () => {
  it('a worker teammate uses the session’s connection, a process teammate its own; each one’s inline server starts for it and none outlives the run', async () => {
    const config = join(home, 'mcp.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio', `--marker=${home}`] } }
      })
    )
    mkdirSync(join(work, '.swarmdesk', 'agents'), { recursive: true })
    writeFileSync(
      join(work, '.swarmdesk', 'agents', 'librarian.md'),
      [
        '---',
        'name: librarian',
        'description: keeps notes',
        'mcpServers:',
        '  - memory:',
        `      command: ${JSON.stringify(process.execPath)}`,
        `      args: [${JSON.stringify(memory)}, "--marker=${home}"]`,
        `      env: { MEMORY_FILE_PATH: ${JSON.stringify(join(home, 'graph.jsonl'))} }`,
        '---',
        'You keep notes.',
        ''
      ].join('\n')
    )
    const scenario = join(home, 's.yaml')
    writeFileSync(
      scenario,
      [
        'agents:',
        '  team-lead:',
        '    - tools: [{ name: TeamCreate, input: { team_name: crew } }]',
        '    - tools:',
        '        - { name: Agent, input: { name: wally, backend: worker, subagent_type: librarian, description: w, prompt: Start. } }',
        '        - { name: Agent, input: { name: pat, backend: process, subagent_type: librarian, description: p, prompt: Start. } }',
        ...Array.from({ length: 12 }, () => '    - text: "Noted."'),
        ...teammateTurns('wally'),
        ...teammateTurns('pat'),
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
        '--permission-mode',
        'bypassPermissions',
        '--json',
        'keep notes'
      ],
      { env: { SWARMDESK_HOME: home, ANTHROPIC_API_KEY: '' } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const calls = ofType(run.events, 'tool_call')
    const results = ofType(run.events, 'tool_result')
    const of = (agent: string, tool: string): { isError: boolean; output: string } => {
      const call = calls.find((c) => c.agentName === agent && c.name === tool)
      return results.find((r) => r.toolUseId === call?.toolUseId) ?? { isError: true, output: `no ${tool} of ${agent}` }
    }
    for (const who of ['wally', 'pat']) {
      const env = of(who, 'mcp__everything__get-env')
      expect(env.isError).toBe(false)
      const created = of(who, 'mcp__memory__create_entities')
      expect(created.isError).toBe(false)
      expect(created.output).toContain(`${who}-entity`)
    }
    // the worker's call ran in the server of the leader's process; the process teammate's in its own
    expect(of('wally', 'mcp__everything__get-env').output).not.toContain('SWARMDESK_AGENT_NAME')
    expect(of('pat', 'mcp__everything__get-env').output).toMatch(/"SWARMDESK_AGENT_NAME": "pat"/)
    expect(ofType(run.events, 'notice').filter((n) => n.level === 'warning' && /MCP/.test(n.message))).toEqual([])
    // every server the run and its teammates started has exited: the session's, and both inline ones
    expect(processesWith(`--marker=${home}`)).toEqual([])
  }, 120_000)

  it('list changes reach both backends from their next request on; a teammate’s subagent gets its definition’s mcpServers', async () => {
    const graph = join(home, 'graph.jsonl')
    writeFileSync(
      graph,
      JSON.stringify({ type: 'entity', name: 'Grace', entityType: 'person', observations: [] }) + '\n'
    )
    writeFileSync(join(work, 'note.txt'), 'inline server read me\n')
    const config = join(home, 'mcp.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          growing: { command: process.execPath, args: [growing, `--marker=${home}`] },
          memory: { command: process.execPath, args: [memory, `--marker=${home}`], env: { MEMORY_FILE_PATH: graph } }
        }
      })
    )
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
    /** A teammate adds a tool (unknown in the same response, there from its next request on), then has a librarian subagent look things up. */
    const teammate = (who: string, sub: string): string[] => [
      `  ${who}:`,
      '    - tools:',
      `        - { name: mcp__growing__add_tool, input: { name: ${who}_tool, reply: "${who} tool here" } }`,
      `        - { name: mcp__growing__${who}_tool, input: {} }`,
      `    - tools: [{ name: mcp__growing__${who}_tool, input: {} }]`,
      `    - tools: [{ name: Agent, input: { subagent_type: librarian, description: ${sub}, prompt: look } }]`,
      ...Array.from({ length: 8 }, () => '    - text: "Done."'),
      `  ${sub}:`,
      '    - tools: [{ name: mcp__memory__read_graph, input: {} }]',
      `    - tools: [{ name: mcp__files__read_text_file, input: { path: ${JSON.stringify(join(work, 'note.txt'))} } }]`,
      `    - text: "${sub} read: {{last_tool_result}}"`
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
        ...Array.from({ length: 12 }, () => '    - text: "Noted."'),
        ...teammate('wally', 'wsub'),
        ...teammate('pat', 'psub'),
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
        '--permission-mode',
        'bypassPermissions',
        '--json',
        'look things up'
      ],
      { env: { SWARMDESK_HOME: home, ANTHROPIC_API_KEY: '' } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const calls = ofType(run.events, 'tool_call')
    const results = ofType(run.events, 'tool_result')
    const outputs = (agent: string, tool: string): Array<{ isError: boolean; output: string }> =>
      calls
        .filter((c) => c.agentName === agent && c.name === tool)
        .map((c) => results.find((r) => r.toolUseId === c.toolUseId) ?? { isError: true, output: 'no result' })
        .map((r) => ({ isError: r.isError, output: r.output }))
    for (const [who, sub] of [
      ['wally', 'wsub'],
      ['pat', 'psub']
    ] as const) {
      // never inside the request that added it; from the teammate's next request on
      const late = outputs(who, `mcp__growing__${who}_tool`)
      expect(late[0]!.isError).toBe(true)
      expect(late[0]!.output).toContain(`No such tool: mcp__growing__${who}_tool`)
      expect(late[1]).toEqual({ isError: false, output: `${who} tool here` })
      // its subagent: the session's memory (named) and its own inline filesystem server
      expect(outputs(sub, 'mcp__memory__read_graph')[0]?.output).toContain('Grace')
      expect(outputs(sub, 'mcp__files__read_text_file')[0]).toEqual({
        isError: false,
        output: 'inline server read me\n'
      })
    }
    expect(ofType(run.events, 'notice').filter((n) => n.level === 'warning' && /MCP/.test(n.message))).toEqual([])
    expect(processesWith(`--marker=${home}`)).toEqual([])
  }, 180_000)
})
