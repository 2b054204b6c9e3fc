import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { McpManager, startableServers, type ResolvedMcpServer } from './index'

const resolve = createRequire(import.meta.url).resolve
const everything = resolve('@modelcontextprotocol/server-everything/dist/index.js')
const memory = resolve('@modelcontextprotocol/server-memory/dist/index.js')

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('McpManager', () => {
  it('starts a server on first use, shares one connection, and closeAll waits for every server to exit', async () => {
    const manager = new McpManager([
      { name: 'everything', config: { command: process.execPath, args: [everything, 'stdio'], env: {} } },
      { name: 'memory', config: { command: process.execPath, args: [memory], env: {} } }
    ])
    const conn = manager.connection('everything')
    expect(conn.pid).toBeUndefined()
    expect(manager.connection('everything')).toBe(conn)
    const listed = await manager.listTools()
    const byName = Object.fromEntries(listed.map((l) => [l.server, l]))
    expect(byName.everything).toMatchObject({ ok: true, resources: true })
    expect(byName.everything!.ok && byName.everything!.tools.map((t) => t.name)).toContain('echo')
    expect(byName.memory!.ok && byName.memory!.tools.map((t) => t.name)).toContain('read_graph')
    const pids = [manager.connection('everything').pid!, manager.connection('memory').pid!]
    expect(pids.every(alive)).toBe(true)
    await manager.closeAll()
    expect(pids.map(alive)).toEqual([false, false])
    expect(() => manager.connection('everything')).toThrow(/closed/)
  }, 30_000)

  it('a server that fails to start is listed with its error and stderr; the others still list', async () => {
    const manager = new McpManager([
      {
        name: 'broken',
        config: { command: process.execPath, args: ['-e', 'console.error("no token"); process.exit(1)'], env: {} }
      },
      { name: 'memory', config: { command: process.execPath, args: [memory], env: {} } }
    ])
    try {
      const [broken, mem] = await manager.listTools(['broken', 'memory'])
      expect(broken).toMatchObject({ server: 'broken', ok: false })
      expect(!broken!.ok && broken!.error.message).toMatch(/MCP server 'broken': failed to start[\s\S]*no token/)
      expect(mem).toMatchObject({ server: 'memory', ok: true })
    } finally {
      await manager.closeAll()
    }
  }, 30_000)

  it('names an unknown server and what is configured', () => {
    expect(() => new McpManager([]).connection('x')).toThrow("no MCP server named 'x' (configured: none)")
  })
})

describe('startableServers', () => {
  it('starts approved servers and reports each project server awaiting approval once', () => {
    const base = { file: '/w/.mcp.json', config: { command: 'x', args: [], env: {} } }
    const servers: ResolvedMcpServer[] = [
      { ...base, name: 'a', source: 'flag', approval: 'approved' },
      { ...base, name: 'b', source: 'project', approval: 'awaiting-approval' },
      { ...base, name: 'c', source: 'project', approval: 'disabled' }
    ]
    const { start, skipped } = startableServers(servers)
    expect(start.map((s) => s.name)).toEqual(['a'])
    expect(skipped.map((s) => s.name)).toEqual(['b', 'c'])
    expect(skipped[0]!.message).toMatch(/'b' .* is not approved; not started/)
    expect(skipped[1]!.message).toMatch(/disabled/)
  })
})
