/**
 * MCP server faults as the model sees them (docs/tools.md#mcp-servers), against real server
 * processes: a server that prints other things than JSON-RPC on its stdout (a banner, log lines,
 * text glued to an answer), one that crashes mid-call, one that never answers.
 */
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { McpManager } from '../../mcp'
import { ToolError, type Tool, type ToolContext } from '../types'
import { mcpToolsOf } from './index'

const noisy = fileURLToPath(new URL('../../mcp/noisyServer.testkit.cjs', import.meta.url))
const ctx = (): ToolContext => ({ signal: new AbortController().signal }) as ToolContext

let manager: McpManager | undefined
afterEach(async () => {
  await manager?.closeAll()
  manager = undefined
})

/** The tools of one server started from `args` (a node script and its arguments). */
async function toolsOf(name: string, args: string[], callMs: number): Promise<Tool[]> {
  manager = new McpManager([{ name, config: { command: process.execPath, args, env: {} } }], { callMs })
  const listed = await manager.listTools()
  expect(listed[0]!.ok).toBe(true)
  return mcpToolsOf(manager, listed).tools
}

async function failure(tool: Tool, input: Record<string, unknown>): Promise<Error> {
  return tool.call(input, ctx()).then(
    () => new Error('the call answered'),
    (e: unknown) => e as Error
  )
}

describe('MCP server faults', () => {
  it('a server printing non-JSON on stdout: its lines are skipped; an answer it garbled times out, and the next call restarts it', async () => {
    const tools = await toolsOf('noisy', [noisy], 3000)
    const chatty = tools.find((t) => t.name === 'mcp__noisy__chatty')!
    expect((await chatty.call({ text: 'one' }, ctx())).content).toBe('one')
    expect((await chatty.call({ text: 'two' }, ctx())).content).toBe('two')
    const pid = manager!.connection('noisy').pid
    const lost = await failure(
      tools.find((t) => t.name === 'mcp__noisy__glued')!,
      {}
    )
    expect(lost).toBeInstanceOf(ToolError)
    expect(lost.message).toMatch(/^MCP server 'noisy': tool 'glued' failed: .*timed out/i)
    expect((await chatty.call({ text: 'three' }, ctx())).content).toBe('three')
    expect(manager!.connection('noisy').pid).not.toBe(pid)
  }, 30_000)

  it('a server that exits mid-call and one that never answers are tool errors naming the server; each restarts on next use', async () => {
    // answers `echo` at once; `die` exits the process mid-call; `hang` never answers
    const script = `
      const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js')
      const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js')
      const s = new McpServer({ name: 'flaky', version: '1' })
      s.registerTool('echo', {}, async () => ({ content: [{ type: 'text', text: 'pid ' + process.pid }] }))
      s.registerTool('die', {}, async () => { console.error('fatal: out of cheese'); process.exit(7) })
      s.registerTool('hang', {}, () => new Promise(() => {}))
      s.connect(new StdioServerTransport())`
    const tools = await toolsOf('flaky', ['-e', script], 2000)
    const call = (name: string) => tools.find((t) => t.name === `mcp__flaky__${name}`)!
    const first = (await call('echo').call({}, ctx())).content
    const died = await failure(call('die'), {})
    expect(died).toBeInstanceOf(ToolError)
    expect(died.message).toMatch(/^MCP server 'flaky': tool 'die' failed/)
    expect(died.message).toContain('fatal: out of cheese')
    const second = (await call('echo').call({}, ctx())).content
    expect(second).toMatch(/^pid \d+$/)
    expect(second).not.toBe(first)
    const hung = await failure(call('hang'), {})
    expect(hung).toBeInstanceOf(ToolError)
    expect(hung.message).toMatch(/^MCP server 'flaky': tool 'hang' failed: .*timed out/i)
    const third = (await call('echo').call({}, ctx())).content
    expect(third).not.toBe(second)
  }, 30_000)
})
