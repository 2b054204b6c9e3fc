import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ofType, runCli, tempWorkspace } from './cli.testkit'

const memory = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js')

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

  it('a malformed --mcp-config is bad usage naming file and field', async () => {
    const config = join(home, 'bad.json')
    writeFileSync(config, JSON.stringify({ mcpServers: { x: { type: 'http' } } }))
    const run = await runCli(['run', '--cwd', work, '--mcp-config', config, '--json', 'hi'], { env: env() })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`${config}: mcpServers.x`)
  })
})
