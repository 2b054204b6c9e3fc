import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliText, useTempWorkspace } from './cli.testkit'

const memory = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js')
const ws = useTempWorkspace()
const mcp = (...args: string[]) => runCliText(['mcp', ...args], { SWARMDESK_HOME: ws.home })
const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8'))

describe('swarmdesk mcp add | get | remove', () => {
  it('adds a stdio server to local settings, get starts it and lists its tools, remove takes it out', async () => {
    const local = join(ws.work, '.swarmdesk', 'settings.local.json')
    mkdirSync(join(ws.work, '.swarmdesk'))
    writeFileSync(local, JSON.stringify({ permissions: { allow: ['Read'] } }))
    const graph = join(ws.home, 'graph.jsonl')
    const add = await mcp(
      'add',
      '--cwd',
      ws.work,
      '-e',
      `MEMORY_FILE_PATH=${graph}`,
      'memory',
      '--',
      process.execPath,
      memory,
      '--flag-of-the-server'
    )
    expect(add.stderr).toBe('')
    expect(add.code).toBe(0)
    expect(add.stdout).toBe(`Added stdio MCP server memory to local scope (${local}).\n`)
    expect(readJson(local)).toEqual({
      permissions: { allow: ['Read'] },
      mcpServers: {
        memory: {
          type: 'stdio',
          command: process.execPath,
          args: [memory, '--flag-of-the-server'],
          env: { MEMORY_FILE_PATH: graph }
        }
      }
    })

    const get = await mcp('get', 'memory', '--cwd', ws.work, '--json')
    expect(get.code).toBe(0)
    const got = JSON.parse(get.stdout)
    expect(got).toMatchObject({
      name: 'memory',
      source: 'local',
      file: local,
      transport: 'stdio',
      state: 'connected',
      definedIn: [{ scope: 'local', file: local }]
    })
    expect(got.tools).toContain('read_graph')
    expect(got.definition.env).toEqual({ MEMORY_FILE_PATH: graph })
    const text = await mcp('get', 'memory', '--cwd', ws.work)
    expect(text.stdout).toContain(`  Source: local (${local})\n  State: connected, ${got.tools.length} tools\n`)
    expect(text.stdout).toContain('To remove it: swarmdesk mcp remove memory --scope local\n')

    const dup = await mcp('add', '--cwd', ws.work, 'memory', '--', 'other')
    expect(dup.code).toBe(2)
    expect(dup.stderr).toBe(
      `swarmdesk mcp add: an MCP server named 'memory' already exists in local scope (${local}). Remove it first: swarmdesk mcp remove memory --scope local\n`
    )

    const removed = await mcp('remove', 'memory', '--cwd', ws.work, '--json')
    expect(removed.code).toBe(0)
    expect(JSON.parse(removed.stdout)).toEqual({ name: 'memory', scope: 'local', file: local })
    expect(readJson(local)).toEqual({ permissions: { allow: ['Read'] }, mcpServers: {} })
    const gone = await mcp('get', 'memory', '--cwd', ws.work)
    expect(gone.code).toBe(2)
    expect(gone.stderr).toBe(
      "swarmdesk mcp get: no MCP server named 'memory' (configured: none). Add one with swarmdesk mcp add.\n"
    )
  }, 180_000)

  it('adds http and sse servers with headers to .mcp.json and user settings; a project one awaits approval', async () => {
    const project = join(ws.work, '.mcp.json')
    const add = await mcp(
      'add',
      '--transport',
      'http',
      '--scope',
      'project',
      '-H',
      'Authorization: Bearer ${TOKEN:-none}',
      '--cwd',
      ws.work,
      'api',
      'http://127.0.0.1:9/mcp'
    )
    expect(add.code).toBe(0)
    expect(add.stdout).toContain('A project server starts once approved')
    expect(readJson(project)).toEqual({
      mcpServers: {
        api: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${TOKEN:-none}' } }
      }
    })
    const user = join(ws.home, 'settings.json')
    writeFileSync(user, JSON.stringify({ model: 'haiku' }))
    const sse = await mcp(
      'add',
      '-t',
      'sse',
      '-s',
      'user',
      '--cwd',
      ws.work,
      '--json',
      'events',
      'http://127.0.0.1:9/sse'
    )
    expect(JSON.parse(sse.stdout)).toEqual({
      name: 'events',
      scope: 'user',
      file: user,
      definition: { type: 'sse', url: 'http://127.0.0.1:9/sse' }
    })
    expect(readJson(user)).toEqual({
      model: 'haiku',
      mcpServers: { events: { type: 'sse', url: 'http://127.0.0.1:9/sse' } }
    })
    const get = JSON.parse((await mcp('get', 'api', '--cwd', ws.work, '--json')).stdout)
    expect(get).toMatchObject({ source: 'project', transport: 'http', state: 'awaiting-approval' })
    expect(get.tools).toBeUndefined()
    const failed = JSON.parse((await mcp('get', 'events', '--cwd', ws.work, '--json')).stdout)
    expect(failed).toMatchObject({ source: 'user', transport: 'sse', state: 'failed' })
    expect(failed.error).toContain("MCP server 'events': failed to start")
    // the same name in two scopes: remove asks which
    await mcp('add', '-s', 'user', '--cwd', ws.work, 'api', '--', 'true')
    const both = await mcp('remove', 'api', '--cwd', ws.work)
    expect(both.code).toBe(2)
    expect(both.stderr).toBe(
      `swarmdesk mcp remove: the MCP server 'api' is defined in several scopes: project (${project}), user (${user}). Say which with --scope project|user.\n`
    )
    const one = await mcp('remove', 'api', '--scope', 'project', '--cwd', ws.work)
    expect(one.stdout).toBe(`Removed MCP server api from project scope (${project}).\n`)
    expect(readJson(project)).toEqual({ mcpServers: {} })
    expect(Object.keys(readJson(user).mcpServers as object)).toEqual(['events', 'api'])
  }, 180_000)

  it('refuses bad input with exit 2, saying what was wrong and writing nothing', async () => {
    const cases: Array<[string[], string]> = [
      [['add', 'x', 'npx', '-y', 'pkg'], 'put -- before the command: swarmdesk mcp add NAME -- COMMAND ARGS…'],
      [['add', '--scope', 'global', 'x', '--', 'cmd'], "--scope must be local, project or user, got 'global'"],
      [['add', '--transport', 'ws', 'x', 'u'], "--transport must be stdio, http or sse, got 'ws'"],
      [['add', 'x'], "give the command that starts 'x' after --"],
      [['add'], "give the server's NAME"],
      [['add', '-H', 'A: b', 'x', '--', 'cmd'], '-H/--header is for http and sse servers'],
      [['add', '-t', 'http', '-e', 'A=b', 'x', 'http://h/'], '-e/--env is for stdio servers'],
      [['add', '-t', 'http', 'x', 'not a url'], 'mcpServers.x.url'],
      [['add', '-t', 'http', 'x', 'http://h/', 'more'], 'an http server takes one URL, got also: more'],
      [
        ['add', '-e', 'NOEQUALS', 'x', '--', 'cmd'],
        "-e takes KEY=VALUE (KEY of letters, digits and _), got 'NOEQUALS'"
      ],
      [['add', '-t', 'sse', '-H', 'no colon', 'x', 'http://h/'], "-H takes 'Name: value', got 'no colon'"],
      [['add', 'bad.name', '--', 'cmd'], 'mcpServers.bad.name: a server name may hold only letters, digits, _ and -'],
      [['remove', 'nothing'], "no MCP server named 'nothing' in any scope (local, project, user)."],
      [['remove', 'nothing', '-s', 'user'], "no MCP server named 'nothing' in user scope"],
      [['remove'], 'give exactly one server NAME'],
      [['get', 'a', 'b'], 'give exactly one server NAME, got: a b'],
      [['frobnicate'], "swarmdesk mcp: unknown subcommand 'frobnicate'"]
    ]
    // --cwd before anything else: after a -- it would be the server command's argument
    const runs = await Promise.all(cases.map(([args]) => mcp(args[0]!, '--cwd', ws.work, ...args.slice(1))))
    for (const [i, [args, message]] of cases.entries()) {
      expect({ args, code: runs[i]!.code }).toEqual({ args, code: 2 })
      expect(runs[i]!.stderr).toContain(message)
    }
    expect(existsSync(join(ws.work, '.swarmdesk'))).toBe(false)
    expect(existsSync(join(ws.work, '.mcp.json'))).toBe(false)
    expect(existsSync(join(ws.home, 'settings.json'))).toBe(false)
  }, 180_000)

  it('leaves a malformed file as it is and names it', async () => {
    const project = join(ws.work, '.mcp.json')
    writeFileSync(project, '{"mcpServers": {"s": {"type": "http"}}}')
    const run = await mcp('add', '-s', 'project', '--cwd', ws.work, 'x', '--', 'cmd')
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`swarmdesk mcp add: ${project}: mcpServers.s`)
    expect(readFileSync(project, 'utf8')).toBe('{"mcpServers": {"s": {"type": "http"}}}')
  }, 60_000)
})
