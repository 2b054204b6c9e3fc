import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_MCP_CALL_TIMEOUT_MS,
  DEFAULT_MCP_START_TIMEOUT_MS,
  loadMcpConfig,
  McpConfigError,
  mcpTimeoutsFromEnv
} from './index'

async function workspace(files: Record<string, unknown>): Promise<{ home: string; cwd: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'sd-mcp-'))
  const home = path.join(root, 'home')
  const cwd = path.join(root, 'ws')
  await mkdir(path.join(cwd, '.swarmdesk'), { recursive: true })
  await mkdir(home, { recursive: true })
  for (const [rel, body] of Object.entries(files)) {
    const file = path.join(root, rel)
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, typeof body === 'string' ? body : JSON.stringify(body))
  }
  return { home, cwd }
}

describe('MCP configuration', () => {
  it('resolves a name to its highest source: --mcp-config > local > project > user', async () => {
    const s = (tag: string) => ({ command: 'node', args: [tag] })
    const w = await workspace({
      'home/settings.json': { mcpServers: { a: s('user'), b: s('user'), c: s('user'), d: s('user') } },
      'ws/.mcp.json': { mcpServers: { b: s('project'), c: s('project'), d: s('project') } },
      'ws/.swarmdesk/settings.local.json': { mcpServers: { c: s('local'), d: s('local') } },
      'ws/flag.json': { mcpServers: { d: s('flag') } }
    })
    const servers = await loadMcpConfig({ ...w, flagFiles: ['flag.json'], env: {} })
    expect(servers.map((x) => [x.name, x.source, 'args' in x.config ? x.config.args[0] : ''])).toEqual([
      ['a', 'user', 'user'],
      ['b', 'project', 'project'],
      ['c', 'local', 'local'],
      ['d', 'flag', 'flag']
    ])
  })

  it('expands ${VAR} and ${VAR:-default}, and names an unset variable with no default', async () => {
    const w = await workspace({
      'ws/flag.json': {
        mcpServers: {
          r: { type: 'http', url: '${BASE:-http://127.0.0.1:9}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }
        }
      }
    })
    const [r] = await loadMcpConfig({ ...w, flagFiles: ['flag.json'], env: { TOKEN: 't0k' } })
    expect(r?.config).toEqual({ type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer t0k' } })
    await expect(loadMcpConfig({ ...w, flagFiles: ['flag.json'], env: {} })).rejects.toThrow(
      /flag\.json: mcpServers\.r\.headers\.Authorization: environment variable TOKEN is not set/
    )
  })

  it('starts a project server only once approved; disabled wins; other sources need no approval', async () => {
    const s = { command: 'node' }
    const w = await workspace({
      'ws/.mcp.json': { mcpServers: { p: s, q: s, x: s } },
      'home/settings.json': { mcpServers: { u: s } }
    })
    const approval = async () =>
      Object.fromEntries((await loadMcpConfig({ ...w, env: {} })).map((x) => [x.name, x.approval]))
    expect(await approval()).toEqual({
      p: 'awaiting-approval',
      q: 'awaiting-approval',
      x: 'awaiting-approval',
      u: 'approved'
    })
    await writeFile(
      path.join(w.cwd, '.swarmdesk/settings.local.json'),
      JSON.stringify({ enabledMcpjsonServers: ['p'], disabledMcpjsonServers: ['x'] })
    )
    expect(await approval()).toEqual({ p: 'approved', q: 'awaiting-approval', x: 'disabled', u: 'approved' })
    await writeFile(
      path.join(w.cwd, '.swarmdesk/settings.local.json'),
      JSON.stringify({ enableAllProjectMcpServers: true, disabledMcpjsonServers: ['x'] })
    )
    expect(await approval()).toEqual({ p: 'approved', q: 'approved', x: 'disabled', u: 'approved' })
    // a name approved in user settings stays approved when local settings approve another
    await writeFile(path.join(w.home, 'settings.json'), JSON.stringify({ enabledMcpjsonServers: ['q'] }))
    await writeFile(
      path.join(w.cwd, '.swarmdesk/settings.local.json'),
      JSON.stringify({ enabledMcpjsonServers: ['p'] })
    )
    expect(await approval()).toEqual({ p: 'approved', q: 'approved', x: 'awaiting-approval' })
  })

  it('a malformed file is an error naming the file and the field', async () => {
    const bad = async (body: unknown) => {
      const w = await workspace({ 'ws/.mcp.json': body })
      return loadMcpConfig({ ...w, env: {} }).then(
        () => 'no error',
        (e: unknown) => (e instanceof McpConfigError ? e.message : String(e))
      )
    }
    expect(await bad('{ not json')).toMatch(/\.mcp\.json: \(file\): is not valid JSON/)
    expect(await bad({ mcpServers: [1] })).toMatch(/\.mcp\.json: mcpServers: must be an object/)
    expect(await bad({ mcpServers: { s: { type: 'http', url: 'nope' } } })).toMatch(/\.mcp\.json: mcpServers\.s\.url: /)
    // the field, what is wrong and what to write; never a bare "Invalid input"
    expect(await bad({ mcpServers: { s: { command: 'node', args: 'x' } } })).toMatch(
      /\.mcp\.json: mcpServers\.s\.args: .*expected array.*; it must be a list of strings/
    )
    expect(await bad({ mcpServers: { s: { url: 'http://127.0.0.1:9/mcp' } } })).toMatch(
      /mcpServers\.s\.type: is missing: a server with a "url" needs "type": "http" .* or "type": "sse"/
    )
    expect(await bad({ mcpServers: { s: { command: 'node', cmd: 'x' } } })).toMatch(
      /mcpServers\.s: unknown field "cmd": this kind of server takes "command" \(required\), "args", "env"/
    )
    expect(await bad({ mcpServers: { s: { type: 'websocket', url: 'ws://x' } } })).toMatch(
      /mcpServers\.s\.type: must be "stdio", "http" or "sse", not "websocket"/
    )
    expect(await bad({ mcpServers: { s: {} } })).toMatch(/mcpServers\.s\.command: is missing: write \{"command"/)
    expect(await bad({ mcpServers: { s: 'npx server' } })).toMatch(/mcpServers\.s: must be an object, not "npx server"/)
    for (const body of [{ mcpServers: { s: { command: 'node', args: 'x' } } }, { mcpServers: { s: { url: 'x' } } }])
      expect(await bad(body)).not.toMatch(/Invalid input$/)
    expect(await bad({ mcpServers: { 'a b': { command: 'node' } } })).toMatch(/mcpServers\.a b: a server name/)
    const w = await workspace({})
    await expect(loadMcpConfig({ ...w, flagFiles: ['missing.json'], env: {} })).rejects.toThrow(
      /missing\.json: \(file\): cannot be read/
    )
  })
})

describe('MCP timeouts', () => {
  it('reads MCP_TIMEOUT and MCP_TOOL_TIMEOUT in ms, leaves the defaults when unset, and names a bad value', () => {
    expect(mcpTimeoutsFromEnv({})).toEqual({})
    expect(mcpTimeoutsFromEnv({ MCP_TIMEOUT: '5000', MCP_TOOL_TIMEOUT: '60000' })).toEqual({
      startMs: 5000,
      callMs: 60_000
    })
    expect(() => mcpTimeoutsFromEnv({ MCP_TOOL_TIMEOUT: '2m' })).toThrow(
      'MCP_TOOL_TIMEOUT must be a positive whole number of milliseconds (like 60000 for a minute); got "2m".'
    )
    expect(DEFAULT_MCP_START_TIMEOUT_MS).toBe(30_000)
    expect(DEFAULT_MCP_CALL_TIMEOUT_MS).toBe(120_000)
  })
})
