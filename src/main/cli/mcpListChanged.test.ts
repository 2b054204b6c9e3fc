import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

/** A real SDK server whose tool list grows on cue (its add_tool), sending tools/list_changed. */
const growing = fileURLToPath(new URL('../runtime/mcp/growingServer.testkit.cjs', import.meta.url))
const ws = useTempWorkspace()

describe('MCP tools/list_changed', () => {
  it('a tool the server adds is offered from the leader’s next request on, not inside the request that added it', async () => {
    const config = join(ws.home, 'mcp.json')
    writeFileSync(config, JSON.stringify({ mcpServers: { growing: { command: process.execPath, args: [growing] } } }))
    const scenario = join(ws.home, 's.yaml')
    writeFileSync(
      scenario,
      [
        'agents:',
        '  team-lead:',
        '    - tools:',
        '        - { name: mcp__growing__add_tool, input: { name: late, reply: "late tool here" } }',
        '        - { name: mcp__growing__late, input: {} }',
        '    - tools: [{ name: mcp__growing__late, input: {} }]',
        '    - text: "got: {{last_tool_result}}"',
        ''
      ].join('\n')
    )
    const run = await runCli(
      ['run', '--cwd', ws.work, '--scenario', scenario, '--mcp-config', config, '--json', '--approve', 'all', 'grow'],
      { env: { SWARMDESK_HOME: ws.home, ANTHROPIC_API_KEY: '' } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const results = ofType(run.events, 'tool_result').map((r) => ({ output: r.output, isError: r.isError }))
    expect(results[0]).toEqual({ output: 'added late', isError: false })
    // the same response's second call ran against the request's own list, which had no such tool yet
    expect(results[1]!.isError).toBe(true)
    expect(results[1]!.output).toContain('No such tool: mcp__growing__late')
    expect(results[2]).toEqual({ output: 'late tool here', isError: false })
    expect(
      ofType(run.events, 'assistant_text')
        .map((e) => e.text)
        .join('')
    ).toContain('got: late tool here')
  }, 60_000)
})
