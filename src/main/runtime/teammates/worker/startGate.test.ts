import { randomUUID } from 'node:crypto'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PermissionPromptAnswer } from '../../../../shared/permissions'
import { EventBus } from '../../events/bus'
import { createMailbox } from '../../mailbox'
import type { PermissionPrompter } from '../../permissions/prompter'
import { createPtyHost } from '../../pty'
import { startScriptedServer, type ScriptedServer } from '../../scripted'
import { TeamStore } from '../../teams'
import type { PtyHost } from '../../tools/types'
import type { TeammateSpawnConfig } from '../executor'
import { WorkerTeammateExecutor } from './executor'
import { StartGate } from './thread'

const refusing: PermissionPrompter = { prompt: async (): Promise<PermissionPromptAnswer> => ({ decision: 'deny', by: 'user' }) }

describe('StartGate', () => {
  it('lets `width` holders through, queues the rest in arrival order, and hands each freed slot to the next in line', async () => {
    const gate = new StartGate(2)
    const order: string[] = []
    const a = await gate.acquire()
    const b = await gate.acquire()
    const c = gate.acquire().then((release) => (order.push('c'), release))
    const d = gate.acquire().then((release) => (order.push('d'), release))
    await new Promise((r) => setTimeout(r, 10))
    expect(order).toEqual([])
    b()
    b() // a second release of the same slot frees nothing more
    const releaseC = await c
    await new Promise((r) => setTimeout(r, 10))
    expect(order).toEqual(['c'])
    a()
    const releaseD = await d
    expect(order).toEqual(['c', 'd'])
    releaseC()
    releaseD()
    // both slots free again: two holders pass at once
    const e = await gate.acquire()
    const f = await gate.acquire()
    e()
    f()
  })
})

describe('WorkerTeammateExecutor start slots', () => {
  let home: string
  let work: string
  let pty: PtyHost
  let server: ScriptedServer

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-start-gate-home-'))
    work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-start-gate-work-')))
    pty = createPtyHost()
    server = await startScriptedServer({ scenario: { agents: Object.fromEntries(['ann', 'ben', 'cat'].map((n) => [n, [{ text: `${n} ready.` }]])) } })
  })

  afterAll(async () => {
    await pty.dispose()
    await server.close()
    for (const dir of [home, work]) rmSync(dir, { recursive: true, force: true })
  })

  it('with one slot, three teammates spawned at once start one after another and all run; a second spawn of a waiting one is refused', async () => {
    const team = 'gated'
    const teams = new TeamStore(home)
    const mailbox = createMailbox({ home })
    await teams.create({ name: team, description: 'start gate test', lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: work } })
    const configs: TeammateSpawnConfig[] = []
    for (const name of ['ann', 'ben', 'cat']) {
      const member = await teams.addMember(team, { name, agentType: 'general-purpose', model: 'claude-sonnet-5-5', backendType: 'worker', cwd: work, isActive: false, mode: 'default' })
      await mailbox.send(team, name, { from: 'team-lead', text: 'Say that you are ready.' })
      configs.push({
        home,
        team,
        name,
        agentId: member.agentId,
        cwd: work,
        color: member.color,
        model: 'claude-sonnet-5-5',
        mode: 'default',
        planModeRequired: false,
        sessionId: randomUUID(),
        leaderAgentId: `team-lead@${team}`,
        env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }
      })
    }
    const workers = new WorkerTeammateExecutor({ bus: new EventBus(), pty, prompter: refusing, warmSpare: false, concurrentStarts: 1, codeCacheDir: join(home, 'cache', 'v8') })
    try {
      const readyOrder: string[] = []
      const spawns = configs.map((c) => workers.spawn(c).then((h) => (readyOrder.push(c.name), h)))
      // cat waits behind ann and ben: spawning her again now is refused, not doubled
      await expect(workers.spawn(configs[2]!)).rejects.toThrow(/already running/)
      const handles = await Promise.all(spawns)
      expect(readyOrder).toEqual(['ann', 'ben', 'cat'])
      const idle = async (): Promise<string[]> =>
        (await mailbox.read(team, 'team-lead')).messages.filter((m) => m.message.text.includes('idle_notification')).map((m) => m.message.from)
      for (let i = 0; i < 400 && (await idle()).length < 3; i++) await new Promise((r) => setTimeout(r, 25))
      expect((await idle()).sort()).toEqual(['ann', 'ben', 'cat'])
      await Promise.all(configs.map((c) => workers.kill(c.agentId)))
      for (const h of handles) expect((await h.exited).status).toBe('killed')
    } finally {
      await workers.dispose()
    }
    expect(() => new WorkerTeammateExecutor({ bus: new EventBus(), pty, prompter: refusing, concurrentStarts: 0 })).toThrow(/concurrentStarts must be a whole number of at least 1/)
  }, 60_000)
})
