/**
 * A worker teammate's MCP servers (docs/tools.md#mcp-servers, docs/teams.md#backends): the
 * session's servers through the main process's one connection each, reached over the worker's
 * port; its definition's inline server started in the main process for it and stopped when the
 * worker ends, here by a kill. All real: a worker thread, the scripted model, server-everything
 * and server-memory over stdio.
 */
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../../shared/events'
import { EventBus } from '../../events/bus'
import { createMailbox } from '../../mailbox'
import { McpManager } from '../../mcp'
import { startScriptedServer } from '../../scripted'
import { TeamStore } from '../../teams'
import type { TeammateSpawnConfig } from '../executor'
import { TEST_MODEL, until, useWorkerTestbed } from './worker.testkit'

const resolve = createRequire(import.meta.url).resolve
const everything = resolve('@modelcontextprotocol/server-everything/dist/index.js')
const memory = resolve('@modelcontextprotocol/server-memory/dist/index.js')

/** Pids of processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  return execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'))
    .map((l) => Number(l.trim().split(/\s+/)[0]))
}

describe('a worker teammate’s MCP servers', () => {
  const bed = useWorkerTestbed('sd-worker-mcp')
  const marker = `--marker=${randomUUID()}`
  let session: McpManager

  beforeAll(async () => {
    session = new McpManager([
      { name: 'everything', config: { command: process.execPath, args: [everything, 'stdio', marker], env: {} } }
    ])
  })
  afterAll(async () => {
    await session.closeAll()
  })

  it('calls the session’s server over the main connection and its own inline one, which stops when the worker is killed', async () => {
    const listed = (await session.listTools()).filter((l) => l.ok)
    const sessionPid = session.connection('everything').pid!
    mkdirSync(join(bed.work, '.swarmdesk', 'agents'), { recursive: true })
    writeFileSync(
      join(bed.work, '.swarmdesk', 'agents', 'keeper.md'),
      [
        '---',
        'name: keeper',
        'description: keeps notes',
        'mcpServers:',
        '  - memory:',
        `      command: ${JSON.stringify(process.execPath)}`,
        `      args: [${JSON.stringify(memory)}, "${marker}-inline"]`,
        `      env: { MEMORY_FILE_PATH: ${JSON.stringify(join(bed.home, 'graph.jsonl'))} }`,
        '---',
        'You keep notes.',
        ''
      ].join('\n')
    )
    const server = await startScriptedServer({
      scenario: {
        agents: {
          kim: [
            { tools: [{ name: 'mcp__everything__echo', input: { message: 'over the port' } }] },
            {
              tools: [
                {
                  name: 'mcp__memory__create_entities',
                  input: { entities: [{ name: 'Kim', entityType: 'person', observations: ['keeps notes'] }] }
                }
              ]
            },
            { tools: [{ name: 'ListMcpResources', input: { server: 'everything' } }] },
            { text: 'Noted, waiting.' }
          ]
        }
      }
    })
    const teams = new TeamStore(bed.home)
    await teams.create({
      name: 'mcp',
      description: 'worker mcp test',
      lead: { name: 'team-lead', agentType: 'main', model: TEST_MODEL, backendType: 'main', cwd: bed.work }
    })
    const member = await teams.addMember('mcp', {
      name: 'kim',
      agentType: 'keeper',
      model: TEST_MODEL,
      backendType: 'worker',
      cwd: bed.work,
      isActive: false,
      mode: 'bypassPermissions'
    })
    await createMailbox({ home: bed.home }).send('mcp', 'kim', { from: 'team-lead', text: 'Take notes.' })
    const config: TeammateSpawnConfig = {
      home: bed.home,
      team: 'mcp',
      name: 'kim',
      agentId: member.agentId,
      cwd: bed.work,
      color: member.color,
      model: TEST_MODEL,
      mode: 'bypassPermissions',
      planModeRequired: false,
      sessionId: randomUUID(),
      leaderAgentId: 'team-lead@mcp',
      env: { ANTHROPIC_BASE_URL: server.url, SWARMDESK_SCRIPTED_MODEL_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }
    }
    const bus = new EventBus()
    const events: RuntimeEvent[] = []
    bus.onEvent((e) => events.push(e))
    const workers = bed.executor({ bus, mcp: { servers: session, listed } })
    try {
      const handle = await workers.spawn(config)
      const results = (): EventOf<'tool_result'>[] =>
        events.filter((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.agentName === 'kim')
      await until('kim’s three MCP results', () => results().length >= 3, 40_000)
      const [echo, created, resources] = results()
      expect(echo).toMatchObject({ isError: false, output: 'Echo: over the port' })
      expect(created!.isError).toBe(false)
      expect(created!.output).toContain('Kim')
      expect(resources!.isError).toBe(false)
      expect(resources!.output).toContain('"server": "everything"')
      // one server-everything: the session's, whose connection the worker used; its own memory server runs beside it
      expect(processesWith(marker).filter((p) => !processesWith(`${marker}-inline`).includes(p))).toEqual([sessionPid])
      expect(processesWith(`${marker}-inline`)).toHaveLength(1)
      expect(events.filter((e) => e.type === 'notice' && e.level === 'warning')).toEqual([])

      await workers.kill(member.agentId, 'test kill')
      expect((await handle.exited).status).toBe('killed')
      // its own server is gone with it; the session's still serves the others
      expect(processesWith(`${marker}-inline`)).toEqual([])
      expect(processesWith(marker)).toEqual([sessionPid])
    } finally {
      await server.close()
    }
  }, 90_000)
})
