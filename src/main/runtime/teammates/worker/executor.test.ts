import { protocolBody } from '../../../../shared/mailbox'
import { type PtyHost } from '../../pty/types'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../../shared/events'
import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../../../shared/permissions'
import { EventBus } from '../../events/bus'
import { createMailbox } from '../../mailbox'
import { packageRoot } from '../../install/packageRoot'
import type { PermissionPrompter } from '../../permissions/prompter'
import { createPtyHost } from '../../pty'
import { until, sleepPids, uniqueSleepSeconds } from '../../pty/pty.testkit'
import { startScriptedServer, type ScenarioInput, type ScriptedServer } from '../../scripted'
import { TeamStore } from '../../teams'

import type { TeammateSpawnConfig } from '../executor'
import { TeammateNotFoundError } from '../runOptions'
import { WorkerTeammateExecutor } from './executor'

/** A leader's permission queue that answers every question with `answer` and keeps what it was asked. */
class RecordingPrompter implements PermissionPrompter {
  readonly asked: PermissionPromptRequest[] = []
  constructor(private readonly answer: PermissionPromptAnswer) {}
  async prompt(request: PermissionPromptRequest): Promise<PermissionPromptAnswer> {
    this.asked.push(request)
    return this.answer
  }
}

describe('WorkerTeammateExecutor (worker threads, the main PTY host, the scripted model)', () => {
  let home: string
  let work: string
  let pty: PtyHost
  const servers: ScriptedServer[] = []
  const executors: WorkerTeammateExecutor[] = []

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-worker-home-'))
    work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-worker-work-')))
    pty = createPtyHost()
  })

  afterEach(async () => {
    await Promise.all(executors.splice(0).map((e) => e.dispose()))
  })

  afterAll(async () => {
    await pty.dispose()
    await Promise.all(servers.map((s) => s.close()))
    rmSync(home, { recursive: true, force: true })
    rmSync(work, { recursive: true, force: true })
  })

  /** Team `team` with the lead and alice (in `mode`), the scripted model for alice, and alice's first message in her inbox. */
  async function prepare(
    team: string,
    mode: 'default' | 'bypassPermissions',
    turns: NonNullable<ScenarioInput['agents']>[string],
    firstMessage: string
  ): Promise<TeammateSpawnConfig> {
    const server = await startScriptedServer({ scenario: { agents: { alice: turns } } })
    servers.push(server)
    const teams = new TeamStore(home)
    await teams.create({
      name: team,
      description: 'worker backend test',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: work }
    })
    const member = await teams.addMember(team, {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'claude-sonnet-5-5',
      backendType: 'worker',
      cwd: work,
      isActive: false,
      mode
    })
    await createMailbox({ home }).send(team, 'alice', { from: 'team-lead', text: firstMessage })
    return {
      home,
      team,
      name: 'alice',
      agentId: member.agentId,
      cwd: work,
      color: member.color,
      model: 'claude-sonnet-5-5',
      mode,
      planModeRequired: false,
      sessionId: randomUUID(),
      leaderAgentId: `team-lead@${team}`,
      env: { ANTHROPIC_BASE_URL: server.url, SWARMDESK_SCRIPTED_MODEL_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }
    }
  }

  function executor(bus: EventBus, prompter: PermissionPrompter, prelude?: string): WorkerTeammateExecutor {
    const e = new WorkerTeammateExecutor({
      bus,
      pty,
      prompter,
      codeCacheDir: join(home, 'cache', 'v8'),
      ...(prelude ? { prelude } : {})
    })
    executors.push(e)
    return e
  }

  function record(bus: EventBus): RuntimeEvent[] {
    const events: RuntimeEvent[] = []
    bus.onEvent((e) => events.push(e))
    return events
  }

  const toolResults = (events: RuntimeEvent[]) =>
    events.filter((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.agentName === 'alice')

  it('runs Bash in bypassPermissions mode through the main PTY host, forwards its events, shuts down cleanly, and never loads node-pty in the worker', async () => {
    const config = await prepare(
      'bypass',
      'bypassPermissions',
      [
        { when: 'run the command', tools: [{ name: 'Bash', input: { command: 'echo worker-says-$((6*7))' } }] },
        { when: 'worker-says-42', text: 'Ran it.' }
      ],
      'please run the command'
    )
    // before the real bundle, a prelude that reports what the worker thread had loaded when it ended
    const dir = mkdtempSync(join(tmpdir(), 'swarmdesk-worker-entry-'))
    const report = join(dir, 'modules.json')
    const prelude = join(dir, 'observer.mjs')
    writeFileSync(
      prelude,
      [
        "import { createRequire } from 'node:module'",
        "import { writeFileSync } from 'node:fs'",
        'const require = createRequire(import.meta.url)',
        `process.on('exit', () => writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))))`
      ].join('\n')
    )
    const bus = new EventBus()
    const events = record(bus)
    const prompter = new RecordingPrompter({ decision: 'deny', by: 'user', reason: 'nobody should ask in bypass mode' })
    const workers = executor(bus, prompter, prelude)

    const handle = await workers.spawn(config)
    expect(handle).toMatchObject({ agentId: 'alice@bypass', backend: 'worker', pid: process.pid })
    expect(workers.isAlive('alice@bypass')).toBe(true)

    const result = await until('the Bash tool_result on the main bus', () => toolResults(events)[0])
    expect(result.isError).toBe(false)
    expect(result.output).toContain('worker-says-42')
    await until('alice idle after the command', () =>
      events.some((e) => e.type === 'agent_state' && e.agentName === 'alice' && e.state === 'idle')
    )
    expect(prompter.asked).toEqual([])
    // re-stamped by the main bus: one strictly increasing sequence
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1))

    await workers.sendMessage('alice@bypass', {
      from: 'team-lead',
      body: protocolBody('shutdown_request', { requestId: 'bye-1', reason: 'done' })
    })
    // a clean end: the runner cleaned up and the thread ended by itself (no reason to report)
    expect(await handle.exited).toEqual({ status: 'exited', reported: true })
    expect(workers.isAlive('alice@bypass')).toBe(false)
    expect(events.some((e) => e.type === 'agent_state' && e.agentName === 'alice' && e.state === 'exited')).toBe(true)
    expect(new TeamStore(home).read('bypass').members.find((m) => m.name === 'alice')?.isActive).toBe(false)

    // node-pty's entry is the bootstrap's stub and its native addon never loaded in the worker
    const loaded = JSON.parse(readFileSync(report, 'utf8')) as string[]
    const nodePtyEntry = createRequire(join(packageRoot(), 'package.json')).resolve('node-pty')
    expect(loaded.filter((m) => m.includes(`${'/'}node-pty${'/'}`))).toEqual([nodePtyEntry])
    expect(loaded.filter((m) => m.endsWith('.node'))).toEqual([])
    rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("asks the leader's prompter in default mode, tagged with the teammate's name, and runs the command once allowed", async () => {
    const config = await prepare(
      'asking',
      'default',
      [
        // a write to the workspace: default mode asks
        {
          when: 'run the command',
          tools: [{ name: 'Bash', input: { command: 'echo approved-$((6*7)) > approved.txt && cat approved.txt' } }]
        },
        { when: 'approved-42', text: 'Ran it.' }
      ],
      'please run the command'
    )
    const bus = new EventBus()
    const events = record(bus)
    const prompter = new RecordingPrompter({ decision: 'allow', by: 'user' })
    const workers = executor(bus, prompter)
    const handle = await workers.spawn(config)

    const result = await until('the Bash tool_result on the main bus', () => toolResults(events)[0])
    expect(prompter.asked).toHaveLength(1)
    expect(prompter.asked[0]).toMatchObject({
      agentId: 'alice@asking',
      agentName: 'alice',
      tool: 'Bash',
      input: { command: 'echo approved-$((6*7)) > approved.txt && cat approved.txt' }
    })
    expect(result.isError).toBe(false)
    expect(result.output).toContain('approved-42')
    expect(readFileSync(join(work, 'approved.txt'), 'utf8')).toBe('approved-42\n')
    expect(
      events.some((e) => e.type === 'agent_state' && e.agentName === 'alice' && e.state === 'awaiting_permission')
    ).toBe(true)
    await until('alice idle', () =>
      events.some((e) => e.type === 'agent_state' && e.agentName === 'alice' && e.state === 'idle')
    )

    await workers.kill('alice@asking', 'test over')
    expect(await handle.exited).toEqual({ status: 'killed', reported: false, reason: 'test over' })
  }, 60_000)

  it('kill ends the worker mid-command and leaves no process running: neither the foreground run nor a background shell', async () => {
    const background = uniqueSleepSeconds()
    const foreground = uniqueSleepSeconds()
    const config = await prepare(
      'killed',
      'bypassPermissions',
      [
        {
          when: 'start working',
          tools: [{ name: 'Bash', input: { command: `sleep ${background}`, run_in_background: true } }]
        },
        { when: 'Command running in background', tools: [{ name: 'Bash', input: { command: `sleep ${foreground}` } }] },
        { text: 'never reached' }
      ],
      'start working'
    )
    const bus = new EventBus()
    const workers = executor(bus, new RecordingPrompter({ decision: 'allow', by: 'user' }))
    const handle = await workers.spawn(config)
    await until('both sleeps running', () => sleepPids(background).length === 1 && sleepPids(foreground).length === 1)

    await workers.kill('alice@killed', 'stopped by the test')
    expect(workers.isAlive('alice@killed')).toBe(false)
    expect(sleepPids(background)).toEqual([])
    expect(sleepPids(foreground)).toEqual([])
    expect(pty.livePids()).toEqual([])
    expect(await handle.exited).toEqual({ status: 'killed', reported: false, reason: 'stopped by the test' })
    // idempotent, and fine for an id it never started
    await workers.kill('alice@killed')
    await workers.kill('nobody@killed')
  }, 60_000)

  it('refuses to spawn a member the team does not have, or from a missing entry, leaving nothing running', async () => {
    const config = await prepare('refusals', 'default', [{ text: 'unused' }], 'hello')
    const workers = executor(new EventBus(), new RecordingPrompter({ decision: 'allow', by: 'user' }))
    await expect(workers.spawn({ ...config, name: 'bob', agentId: 'bob@refusals' })).rejects.toThrow(
      TeammateNotFoundError
    )
    const missing = new WorkerTeammateExecutor({
      bus: new EventBus(),
      pty,
      prompter: new RecordingPrompter({ decision: 'allow', by: 'user' }),
      entry: join(home, 'no-such-entry.cjs'),
      codeCacheDir: join(home, 'cache', 'v8')
    })
    await expect(missing.spawn(config)).rejects.toThrow(/does not exist; build the Node bundles/)
    expect(workers.isAlive('bob@refusals')).toBe(false)
    expect(missing.isAlive('alice@refusals')).toBe(false)
    await expect(workers.sendMessage('bob@refusals', { from: 'team-lead', text: 'hi' })).rejects.toThrow(
      /No worker teammate 'bob@refusals'/
    )
  })
})
