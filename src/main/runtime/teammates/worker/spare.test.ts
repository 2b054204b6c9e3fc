import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
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

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const refusing: PermissionPrompter = { prompt: async (): Promise<PermissionPromptAnswer> => ({ decision: 'deny', by: 'user' }) }

/** Handles that keep this process alive (a spare must add none). */
const liveHandles = (): number => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort' || r === 'Worker').length

describe("WorkerTeammateExecutor's spare worker", () => {
  let home: string
  let work: string
  let wrappers: string
  let pty: PtyHost
  const servers: ScriptedServer[] = []
  const executors: WorkerTeammateExecutor[] = []

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-worker-spare-home-'))
    work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-worker-spare-work-')))
    wrappers = mkdtempSync(join(tmpdir(), 'swarmdesk-worker-spare-entry-'))
    pty = createPtyHost()
  })

  afterEach(async () => {
    await Promise.all(executors.splice(0).map((e) => e.dispose()))
  })

  afterAll(async () => {
    await pty.dispose()
    await Promise.all(servers.map((s) => s.close()))
    for (const dir of [home, work, wrappers]) rmSync(dir, { recursive: true, force: true })
  })

  async function prepare(team: string): Promise<TeammateSpawnConfig> {
    const server = await startScriptedServer({ scenario: { agents: { alice: [{ text: 'Ready.' }] } } })
    servers.push(server)
    const teams = new TeamStore(home)
    await teams.create({ name: team, description: 'spare worker test', lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: work } })
    const member = await teams.addMember(team, { name: 'alice', agentType: 'general-purpose', model: 'claude-sonnet-5-5', backendType: 'worker', cwd: work, isActive: false, mode: 'default' })
    await createMailbox({ home }).send(team, 'alice', { from: 'team-lead', text: 'Say that you are ready.' })
    return {
      home,
      team,
      name: 'alice',
      agentId: member.agentId,
      cwd: work,
      color: member.color,
      model: 'claude-sonnet-5-5',
      mode: 'default',
      planModeRequired: false,
      sessionId: randomUUID(),
      leaderAgentId: `team-lead@${team}`,
      env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }
    }
  }

  const idleNotified = async (team: string): Promise<boolean> => (await createMailbox({ home }).read(team, 'team-lead')).messages.some((m) => m.message.text.includes('idle_notification'))

  it('loads ahead without keeping the process alive, is taken by the next spawn, is refilled once that teammate runs, and is terminated on release', async () => {
    const workers = new WorkerTeammateExecutor({ bus: new EventBus(), pty, prompter: refusing, codeCacheDir: join(home, 'cache', 'v8') })
    executors.push(workers)
    const handlesBefore = liveHandles()
    workers.prewarm()
    workers.prewarm() // one spare at most
    expect(await workers.whenSpareLoaded()).toBe(true)
    expect(liveHandles()).toBe(handlesBefore)

    const config = await prepare('warm')
    const handle = await workers.spawn(config)
    expect(workers.isAlive(config.agentId)).toBe(true)
    await until('alice idle after her first turn', () => idleNotified('warm'))
    // the refill: a new spare, loaded
    expect(await until('the refilled spare loaded', () => workers.whenSpareLoaded())).toBe(true)

    await workers.releaseSpare()
    expect(await workers.whenSpareLoaded()).toBe(false)
    await workers.kill(config.agentId)
    expect(await handle.exited).toMatchObject({ status: 'killed' })
  }, 60_000)

  it('a spare that dies is dropped, and the next spawn starts its teammate in a new thread', async () => {
    const trigger = join(wrappers, 'spare-dies')
    const prelude = join(wrappers, `dying-spare-${randomUUID()}.mjs`)
    // a spare (no teammate yet) exits once `trigger` exists
    writeFileSync(
      prelude,
      [
        "import { existsSync } from 'node:fs'",
        "import { MessagePort } from 'node:worker_threads'",
        'let teammate = false',
        'const post = MessagePort.prototype.postMessage',
        'MessagePort.prototype.postMessage = function (message, ...rest) {',
        "  if (message && message.type === 'ready') teammate = true",
        '  return post.call(this, message, ...rest)',
        '}',
        `const poll = setInterval(() => { if (!teammate && existsSync(${JSON.stringify(trigger)})) process.exit(7) }, 20)`,
        'poll.unref()'
      ].join('\n')
    )
    const workers = new WorkerTeammateExecutor({ bus: new EventBus(), pty, prompter: refusing, prelude, codeCacheDir: join(home, 'cache', 'v8') })
    executors.push(workers)
    workers.prewarm()
    expect(await workers.whenSpareLoaded()).toBe(true)
    writeFileSync(trigger, '')
    await until('the dead spare dropped', async () => !(await workers.whenSpareLoaded()))
    expect(existsSync(trigger)).toBe(true)
    rmSync(trigger)

    const config = await prepare('cold')
    await workers.spawn(config)
    await until('alice idle after her first turn', () => idleNotified('cold'))
    expect(workers.isAlive(config.agentId)).toBe(true)
  }, 60_000)
})
