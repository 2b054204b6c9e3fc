import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiToolOf } from '../../loop'
import { McpManager } from '../../mcp'
import { ToolError, type Tool, type ToolContext } from '../types'
import { createMcpResourceTools, mcpToolName, mcpToolsOf, toToolResult } from './index'

const resolve = createRequire(import.meta.url).resolve
const everything = resolve('@modelcontextprotocol/server-everything/dist/index.js')
const filesystem = resolve('@modelcontextprotocol/server-filesystem/dist/index.js')

let dir: string
let manager: McpManager
let tools: Tool[]
const ctx = (): ToolContext => ({ signal: new AbortController().signal }) as ToolContext
const find = (name: string): Tool => tools.find((t) => t.name === name)!

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-tools-')))
  manager = new McpManager(
    [
      { name: 'every.thing', config: { command: process.execPath, args: [everything, 'stdio'], env: {} } },
      { name: 'fs', config: { command: process.execPath, args: [filesystem, dir], env: {} } }
    ],
    { callMs: 20_000 }
  )
  const listed = await manager.listTools()
  tools = mcpToolsOf(manager, listed).tools
}, 60_000)
afterAll(async () => {
  await manager.closeAll()
  rmSync(dir, { recursive: true, force: true })
})

describe('MCP tools against server-everything and server-filesystem', () => {
  it('names each tool mcp__<server>__<tool>, normalised as Claude Code does, and sends the server’s schema as is', async () => {
    expect(mcpToolName('every.thing', 'get-sum')).toBe('mcp__every_thing__get-sum')
    const sum = find('mcp__every_thing__get-sum')
    expect(sum).toBeDefined()
    const listed = (await manager.connection('every.thing').listTools()).find((t) => t.name === 'get-sum')!
    expect(apiToolOf(sum).input_schema).toEqual(listed.inputSchema)
    expect(sum.isReadOnly({})).toBe(true)
    expect(sum.isConcurrencySafe({})).toBe(true)
    expect(sum.permissionSubject({}, { cwd: '/' })).toEqual({
      kind: 'tool',
      tool: 'mcp__every_thing__get-sum',
      readOnly: false
    })
    expect(tools.some((t) => t.name.startsWith('mcp__fs__'))).toBe(true)
  })

  it('turns text and image content into the tool result the model gets', async () => {
    expect((await find('mcp__every_thing__echo').call({ message: 'hi' }, ctx())).content).toBe('Echo: hi')
    const image = await find('mcp__every_thing__get-tiny-image').call({}, ctx())
    expect(image.blocks?.map((b) => b.type)).toContain('image')
    expect(image.blocks?.find((b) => b.type === 'image')).toMatchObject({
      source: { type: 'base64', media_type: 'image/png' }
    })
    expect(image.content).toContain("Here's the image you requested:")
  })

  it('an error result is a tool error naming server and tool', async () => {
    const bad = await find('mcp__every_thing__get-sum').call({ a: 'x' }, ctx())
    expect(bad.isError).toBe(true)
    expect(bad.content).toMatch(/^MCP server 'every.thing' tool 'get-sum' returned an error: /)
  })

  it('cuts 10 MB of output at the cap with a marker', async () => {
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(10 * 1024 * 1024))
    const read = find('mcp__fs__read_text_file')
    const result = await read.call({ path: join(dir, 'big.txt') }, ctx())
    expect(result.isError).toBeFalsy()
    expect(result.content.length).toBeLessThan(100_000 + 400)
    expect(result.content).toMatch(/output cut at the 25000-token limit \(MAX_MCP_OUTPUT_TOKENS\)/)
  }, 30_000)

  it('a server killed mid-call gives a tool error naming the server, and the next call restarts it', async () => {
    const slow = find('mcp__every_thing__trigger-long-running-operation')
    const call = slow.call({ duration: 10, steps: 5 }, ctx()).then(
      () => 'answered',
      (e: unknown) => e
    )
    await new Promise((r) => setTimeout(r, 500))
    process.kill(manager.connection('every.thing').pid!, 'SIGKILL')
    const error = await call
    expect(error).toBeInstanceOf(ToolError)
    expect((error as Error).message).toMatch(/^MCP server 'every.thing': /)
    expect((await find('mcp__every_thing__echo').call({ message: 'back' }, ctx())).content).toBe('Echo: back')
  }, 30_000)

  it('ListMcpResources and ReadMcpResource list and read the server’s resources', async () => {
    const [list, read] = createMcpResourceTools([{ server: 'every.thing', servers: manager }])
    const listed = JSON.parse((await list!.call({}, ctx())).content) as Array<{ uri: string; server: string }>
    expect(listed.length).toBeGreaterThan(0)
    expect(listed[0]!.server).toBe('every.thing')
    const text = listed.find((r) => r.uri.startsWith('demo://resource/static/document/'))!
    const got = await read!.call({ server: 'every.thing', uri: text.uri }, ctx())
    expect(got.content).toContain(`[resource ${text.uri}`)
    await expect(read!.call({ server: 'nope', uri: 'x' }, ctx())).rejects.toThrow(
      "No MCP server 'nope' with resources for this agent. Servers with resources: every.thing."
    )
  })
})

describe('toToolResult', () => {
  it('shows resource links and structured content, and leaves out an image past the cap', () => {
    const links = toToolResult(
      { content: [{ type: 'resource_link', uri: 'file:///a', name: 'a' }] },
      "MCP server 's' tool 't'",
      100
    )
    expect(links.content).toBe('[resource link: file:///a (a)]')
    expect(toToolResult({ content: [], structuredContent: { n: 1 } }, 'x', 100).content).toBe('{\n  "n": 1\n}')
    const big = toToolResult({ content: [{ type: 'image', data: 'A'.repeat(1000), mimeType: 'image/png' }] }, 'L', 10)
    expect(big.blocks).toBeUndefined()
    expect(big.content).toMatch(/L: output cut at the 10-token limit/)
  })
})
