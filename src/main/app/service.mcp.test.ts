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
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { PushLog } from './pushes.testkit'
import { WorkspaceService } from './service'

const memory = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js')

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
})
