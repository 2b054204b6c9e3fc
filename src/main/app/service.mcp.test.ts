/**
 * The workspace service (the app's and `serve`'s) starts the MCP servers of `--mcp-config` when
 * the workspace opens, the leader calls them, and closing the workspace stops them
 * (docs/tools.md#mcp-servers). Real: the scripted model, server-memory over stdio.
 */
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import type { McpList } from '../../shared/ipc'
import { PushLog } from './pushes.testkit'
import { WorkspaceService } from './service'

const memory = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js')
/** A real SDK server whose tool list grows on cue (its add_tool), sending tools/list_changed. */
const growing = fileURLToPath(new URL('../runtime/mcp/growingServer.testkit.cjs', import.meta.url))

let home: string
let work: string
beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-mcp-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-mcp-work-')))
})
afterEach(() => {
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'))
}

describe('MCP servers of a workspace opened by the app or serve', () => {
  it('starts the --mcp-config servers when the workspace opens, the leader calls them, and dispose stops them', async () => {
    const marker = `--marker=${randomUUID()}`
    const config = join(home, 'mcp.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [memory, marker],
            env: { MEMORY_FILE_PATH: join(home, 'graph.jsonl') }
          }
        }
      })
    )
    const scenario = join(home, 's.yaml')
    writeFileSync(
      scenario,
      [
        'agents:',
        '  team-lead:',
        '    - tools: [{ name: mcp__memory__create_entities, input: { entities: [{ name: "Lin", entityType: "person", observations: ["opened the app"] }] } }]',
        '    - text: "Stored: {{last_tool_result}}"',
        ''
      ].join('\n')
    )
    const service = await WorkspaceService.start({
      cwd: work,
      home,
      scenario,
      env: {},
      mode: 'bypassPermissions',
      mcpConfigFiles: [config]
    })
    const pushes = new PushLog()
    service.onPush(pushes.record)
    try {
      expect(processesWith(marker)).toHaveLength(1)
      await service.handle('leader.prompt', { text: 'remember Lin' })
      const deadline = Date.now() + 20_000
      const texts = (): string =>
        (pushes.of('runtime.event') as RuntimeEvent[])
          .flatMap((e) => (e.type === 'assistant_text' ? [e.text] : []))
          .join('')
      while (!texts().includes('Stored:') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
      expect(texts()).toMatch(/Stored: .*Lin.*opened the app/s)
    } finally {
      await service.dispose()
    }
    expect(processesWith(marker)).toEqual([])
  }, 60_000)

  it('Settings shows the session’s own connections; a list change and a reconnect reach the leader', async () => {
    const marker = `--marker=${randomUUID()}`
    const flag = join(home, 'ready.flag')
    // starts only once `ready.flag` exists; says so on stderr until then
    const gated = `const fs = require('fs'); if (!fs.existsSync(${JSON.stringify(flag)})) { console.error('cannot start: ready.flag is missing'); process.exit(1) } import(${JSON.stringify(`file://${memory}`)})`
    const config = join(home, 'mcp.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          growing: { command: process.execPath, args: [growing, marker] },
          gated: {
            command: process.execPath,
            args: ['-e', gated, '--', marker],
            env: { MEMORY_FILE_PATH: join(home, 'g.jsonl') }
          }
        }
      })
    )
    const scenario = join(home, 's.yaml')
    writeFileSync(
      scenario,
      [
        'agents:',
        '  team-lead:',
        '    - tools: [{ name: mcp__growing__add_tool, input: { name: fresh, reply: "fresh tool here" } }]',
        '    - tools: [{ name: mcp__growing__fresh, input: {} }]',
        '    - text: "First: {{last_tool_result}}"',
        '    - tools: [{ name: mcp__gated__read_graph, input: {} }]',
        '    - text: "Second: {{last_tool_result}}"',
        ''
      ].join('\n')
    )
    const service = await WorkspaceService.start({
      cwd: work,
      home,
      scenario,
      env: {},
      mode: 'bypassPermissions',
      mcpConfigFiles: [config]
    })
    const pushes = new PushLog()
    service.onPush(pushes.record)
    const texts = (): string =>
      (pushes.of('runtime.event') as RuntimeEvent[])
        .flatMap((e) => (e.type === 'assistant_text' ? [e.text] : []))
        .join('')
    const waitFor = async (text: string): Promise<void> => {
      const deadline = Date.now() + 30_000
      while (!texts().includes(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    }
    const serverOf = (list: McpList, name: string) => list.servers.find((s) => s.name === name)!
    try {
      await service.handle('leader.prompt', { text: 'grow' })
      await waitFor('First:')
      expect(texts()).toContain('First: fresh tool here')
      const list = (await service.handle('mcp.list', {})) as McpList
      // the session's connection: the tool it added while running is there (a check of its own would not have it)
      expect(serverOf(list, 'growing')).toMatchObject({ state: 'connected', of: 'session', source: 'flag' })
      expect(serverOf(list, 'growing').tools!.map((t) => t.name)).toEqual(['add_tool', 'fresh'])
      expect(serverOf(list, 'gated')).toMatchObject({ state: 'failed', of: 'session' })
      expect(serverOf(list, 'gated').error).toContain('cannot start: ready.flag is missing')
      // listing started nothing: only the session's growing server runs
      expect(processesWith(marker)).toHaveLength(1)

      writeFileSync(flag, '')
      const again = (await service.handle('mcp.reconnect', { name: 'gated' })) as McpList
      expect(serverOf(again, 'gated')).toMatchObject({ state: 'connected', of: 'session' })
      expect(processesWith(marker)).toHaveLength(2)
      // the leader has its tools from its next request on
      await service.handle('leader.prompt', { text: 'read' })
      await waitFor('Second:')
      expect(texts()).toMatch(/Second: \{[\s\S]*"entities"/)
    } finally {
      await service.dispose()
    }
    expect(processesWith(marker)).toEqual([])
  }, 90_000)
})
