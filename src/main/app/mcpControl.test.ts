import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { McpControl, McpRefusedError } from './mcpControl'

const memory = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js')
let home: string
let cwd: string
beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-control-home-')))
  cwd = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-control-work-')))
})
afterEach(() => {
  rmSync(home, { recursive: true, force: true })
  rmSync(cwd, { recursive: true, force: true })
})

describe('McpControl (Settings’ MCP servers)', () => {
  it('lists, approves a project server into the local settings, keeps a check until reconnect', async () => {
    const server = (file: string) => ({ command: process.execPath, args: [memory], env: { MEMORY_FILE_PATH: file } })
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { proj: server(join(cwd, 'p.jsonl')) } }))
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: { mine: server(join(home, 'm.jsonl')) } }))
    const control = new McpControl({ cwd, home })
    const first = await control.list()
    expect(first.servers.map((s) => [s.name, s.source, s.state])).toEqual([
      ['mine', 'user', 'connected'],
      ['proj', 'project', 'awaiting-approval']
    ])
    expect(first.servers[0]!.tools!.map((t) => t.name)).toContain('read_graph')
    expect(first.servers[0]!.tools!.find((t) => t.name === 'read_graph')!.description).toBeTruthy()

    const approved = await control.approve('proj')
    expect(approved.servers.find((s) => s.name === 'proj')!.state).toBe('connected')
    expect(JSON.parse(readFileSync(join(cwd, '.swarmdesk', 'settings.local.json'), 'utf8'))).toEqual({
      enabledMcpjsonServers: ['proj']
    })

    await expect(control.approve('mine')).rejects.toThrow(
      new McpRefusedError(
        `The MCP server 'mine' comes from user settings (${join(home, 'settings.json')}), which need no approval; only .mcp.json servers do.`
      )
    )
    await expect(control.reconnect('ghost')).rejects.toThrow("There is no MCP server named 'ghost' in this workspace.")

    // the same definition written again keeps its check; a changed one is checked anew
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({ mcpServers: { mine: { ...server(join(home, 'm.jsonl')), args: [memory] } } })
    )
    expect((await control.list()).servers.find((s) => s.name === 'mine')!.state).toBe('connected')
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({ mcpServers: { mine: { command: process.execPath, args: ['-e', 'process.exit(3)'] } } })
    )
    const changed = await control.list()
    expect(changed.servers.find((s) => s.name === 'mine')!.state).toBe('failed')
  }, 60_000)

  it('a malformed file is the list’s problem, naming file and field', async () => {
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { bad: { type: 'http', url: 'nope' } } }))
    const list = await new McpControl({ cwd, home }).list()
    expect(list.servers).toEqual([])
    expect(list.problem).toContain(`${join(cwd, '.mcp.json')}: mcpServers.bad.url`)
  })
})
