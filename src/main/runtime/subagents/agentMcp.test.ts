import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { McpManager } from '../mcp'
import {
  createMcpResourceTools,
  LIST_MCP_RESOURCES,
  mcpToolsOf,
  READ_MCP_RESOURCE,
  resourceRoutesOf,
  type Tool,
  type ToolContext
} from '../tools'
import { AgentMcp, withAgentMcp } from './agentMcp'

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
const stdio = { command: process.execPath, args: [everything, 'stdio'], env: {} }
const ctx = (): ToolContext => ({ signal: new AbortController().signal }) as ToolContext
const named = (tools: Tool[], name: string): Tool => tools.find((t) => t.name === name)!

let session: McpManager
let sessionTools: Tool[]
beforeAll(async () => {
  session = new McpManager([{ name: 'docs', config: stdio }])
  const listed = await session.listTools()
  sessionTools = [...mcpToolsOf(session, listed).tools, ...createMcpResourceTools(resourceRoutesOf(session, listed))]
}, 30_000)
afterAll(() => session.closeAll())

describe('an agent’s own MCP servers beside the session’s', () => {
  it('one ListMcpResources/ReadMcpResource pair reaches both its own and the session’s servers; every tool name is one tool', async () => {
    const agents = new AgentMcp(() => sessionTools)
    try {
      const mcp = await agents.open({ name: 'reader', mcpServers: ['docs', { name: 'own', config: stdio }] })
      expect(mcp.warnings).toEqual([])
      const tools = withAgentMcp(sessionTools, mcp)
      const names = tools.map((t) => t.name)
      expect(new Set(names).size).toBe(names.length)
      expect(names.filter((n) => n === LIST_MCP_RESOURCES || n === READ_MCP_RESOURCE)).toHaveLength(2)
      expect(names).toContain('mcp__own__echo')
      expect(names).toContain('mcp__docs__echo')
      const listed = JSON.parse((await named(tools, LIST_MCP_RESOURCES).call({}, ctx())).content) as Array<{
        server: string
        uri: string
      }>
      expect(new Set(listed.map((r) => r.server))).toEqual(new Set(['own', 'docs']))
      const uri = listed.find((r) => r.server === 'own' && r.uri.startsWith('demo://resource/static/document/'))!.uri
      const read = await named(tools, READ_MCP_RESOURCE).call({ server: 'own', uri }, ctx())
      expect(read.content).toContain(`[resource ${uri}`)
    } finally {
      await agents.closeAll()
    }
  }, 30_000)

  it('an inline server of a session server’s name is the agent’s own, said once as a warning', async () => {
    const agents = new AgentMcp(() => sessionTools)
    try {
      const mcp = await agents.open({ name: 'shadow', mcpServers: [{ name: 'docs', config: stdio }] })
      expect(mcp.warnings).toEqual([expect.stringMatching(/defines its own MCP server 'docs'/)])
      const tools = withAgentMcp(sessionTools, mcp)
      expect(named(tools, 'mcp__docs__echo')).not.toBe(named(sessionTools, 'mcp__docs__echo'))
      expect(tools.map((t) => t.name)).toEqual(sessionTools.map((t) => t.name))
    } finally {
      await agents.closeAll()
    }
  }, 30_000)

  it('a released agent’s inline server starts again when its tools are used (a resumed agent), and not after closeAll', async () => {
    const agents = new AgentMcp(() => sessionTools)
    const mcp = await agents.open({ name: 'resumable', mcpServers: [{ name: 'own', config: stdio }] })
    const echo = named(mcp.tools, 'mcp__own__echo')
    expect((await echo.call({ message: 'first run' }, ctx())).content).toBe('Echo: first run')
    await mcp.release()
    expect((await echo.call({ message: 'resumed' }, ctx())).content).toBe('Echo: resumed')
    await mcp.release()
    await agents.closeAll()
    await expect(echo.call({ message: 'after the session' }, ctx())).rejects.toThrow(/closed/)
  }, 30_000)
})

describe('MCP tool names are unambiguous', () => {
  it('a tool of a second server with the same name after normalisation is left out, naming both servers', async () => {
    const [docs] = await session.listTools()
    if (!docs?.ok) throw new Error('server-everything did not list its tools')
    const { tools, failures } = mcpToolsOf(session, [
      { ...docs, server: 'do.cs' },
      { ...docs, server: 'do_cs' }
    ])
    const names = tools.map((t) => t.name)
    expect(new Set(names).size).toBe(docs.tools.length)
    expect(names.length).toBe(docs.tools.length)
    expect(failures).toHaveLength(docs.tools.length)
    const first = docs.tools[0]!.name
    expect(failures[0]).toBe(
      `MCP server 'do_cs' tool '${first}' is left out: its name mcp__do_cs__${first} is already the name of a tool of the MCP server 'do.cs'. Rename one of the servers in its configuration so their tool names differ.`
    )
  })
})
