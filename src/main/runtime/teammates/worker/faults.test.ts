import { type PtyHost } from '../../pty/types'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ResourceLimits } from 'node:worker_threads'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../../../shared/permissions'
import { EventBus } from '../../events/bus'
import { createMailbox } from '../../mailbox'
import type { PermissionPrompter } from '../../permissions/prompter'
import { createPtyHost } from '../../pty'
import { until, sleepPids, uniqueSleepSeconds } from '../../pty/pty.testkit'
import { startScriptedServer, type ScenarioInput, type ScriptedServer } from '../../scripted'
import { TaskStore } from '../../tasks'
import { TeamStore } from '../../teams'

import type { TeammateExitInfo, TeammateSpawnConfig } from '../executor'
import { WorkerTeammateExecutor } from './executor'

/** The bound docs/teams.md#teammate-life-cycle's "a crashed worker never takes the main process down" is held to here: crash → `exited`, ms. */
const CRASH_BOUND_MS = 5_000

interface Asked {
  request: PermissionPromptRequest
  signal: AbortSignal
  answer: Promise<PermissionPromptAnswer>
}

/**
 * The leader's permission queue of these tests: allows the background `sleep`, and holds every
 * other question open as a person who has not answered yet would — until its signal aborts, when
 * it resolves as cancelled (the contract of PermissionPrompter).
 */
class HoldingPrompter implements PermissionPrompter {
  readonly asked: Asked[] = []
  prompt(request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer> {
    const command = (request.input as { command?: string }).command ?? ''
    const answer: Promise<PermissionPromptAnswer> = command.startsWith('sleep ')
      ? Promise.resolve({ decision: 'allow', by: 'user' })
      : new Promise((resolve) => {
          const cancelled = (): void => resolve({ decision: 'deny', by: 'cancelled' })
          if (signal.aborted) cancelled()
          else signal.addEventListener('abort', cancelled, { once: true })
        })
    this.asked.push({ request, signal, answer })
    return answer
  }
}

/** What a fault wrapper does inside the worker once its trigger file appears. */
const FAULTS = {
  throw: "throw new Error('injected fault: the worker threw')",
  spin: 'for (;;) {}',
  exit: 'process.exit(3)',
  // packed double arrays of 512 KiB: a running teammate uses ~20 MB of heap, so a 64 MB limit is reached in well under a second
  oom: 'const hog = []; for (let i = 0; ; i++) hog.push(new Array(65536).fill(i + 0.5))'
} as const

describe('WorkerTeammateExecutor faults: the main process lives on, nothing is left behind', () => {
  let home: string
  let work: string
  let wrappers: string
  let pty: PtyHost
  const servers: ScriptedServer[] = []
  const executors: WorkerTeammateExecutor[] = []

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-worker-faults-home-'))
    work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-worker-faults-work-')))
    wrappers = mkdtempSync(join(tmpdir(), 'swarmdesk-worker-faults-entry-'))
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

  /**
   * A test-only worker prelude (imported before the real bundle, which then runs the teammate once
   * the executor hands it one): does `fault` on the worker's event loop once `trigger` exists —
   * only in a worker that has its teammate (it posted `ready`), not in the executor's spare.
   */
  function faultPrelude(fault: keyof typeof FAULTS, trigger: string): string {
    const path = join(wrappers, `${fault}-${randomUUID()}.mjs`)
    writeFileSync(
      path,
      [
        "import { existsSync } from 'node:fs'",
        "import { MessagePort } from 'node:worker_threads'",
        'let teammate = false',
        'const post = MessagePort.prototype.postMessage',
        'MessagePort.prototype.postMessage = function (message, ...rest) {',
        "  if (message && message.type === 'ready') teammate = true",
        '  return post.call(this, message, ...rest)',
        '}',
        'const poll = setInterval(() => {',
        `  if (!teammate || !existsSync(${JSON.stringify(trigger)})) return`,
        '  clearInterval(poll)',
        `  ${FAULTS[fault]}`,
        '}, 20)',
        'poll.unref()'
      ].join('\n')
    )
    return path
  }

  /** Team `team` with alice in default mode, her scripted model, and her first message. */
  async function prepare(
    team: string,
    turns: NonNullable<ScenarioInput['agents']>[string],
    firstMessage?: string
  ): Promise<TeammateSpawnConfig> {
    const server = await startScriptedServer({ scenario: { agents: { alice: turns } } })
    servers.push(server)
    const teams = new TeamStore(home)
    await teams.create({
      name: team,
      description: 'worker fault test',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: work }
    })
    const member = await teams.addMember(team, {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'claude-sonnet-5-5',
      backendType: 'worker',
      cwd: work,
      isActive: false,
      mode: 'default'
    })
    if (firstMessage) await createMailbox({ home }).send(team, 'alice', { from: 'team-lead', text: firstMessage })
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
      env: { ANTHROPIC_BASE_URL: server.url, SWARMDESK_SCRIPTED_MODEL_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }
    }
  }

  /**
   * Starts alice with `fault` armed, gets her to the worst moment — a background `sleep` running
   * in the main PTY host and a permission question open in the leader's queue — then fires the
   * fault and returns how she ended, with what was checked at that instant.
   */
  async function crashAtTheWorstMoment(
    team: string,
    fault: keyof typeof FAULTS,
    resourceLimits?: ResourceLimits,
    heartbeatTimeoutMs?: number
  ): Promise<{
    info: TeammateExitInfo
    elapsedMs: number
    held: Asked
    secs: string
    workers: WorkerTeammateExecutor
  }> {
    const secs = uniqueSleepSeconds()
    const config = await prepare(
      team,
      [
        {
          when: 'start the sleeper',
          tools: [{ name: 'Bash', input: { command: `sleep ${secs}`, run_in_background: true } }]
        },
        {
          when: 'Command running in background',
          tools: [{ name: 'Bash', input: { command: 'echo never-approved > held.txt' } }]
        },
        { text: 'never reached' }
      ],
      'start the sleeper'
    )
    const trigger = join(wrappers, `${team}.trigger`)
    const prompter = new HoldingPrompter()
    const workers = new WorkerTeammateExecutor({
      bus: new EventBus(),
      pty,
      prompter,
      prelude: faultPrelude(fault, trigger),
      codeCacheDir: join(wrappers, 'v8'),
      ...(resourceLimits ? { resourceLimits } : {}),
      ...(heartbeatTimeoutMs ? { heartbeatTimeoutMs } : {})
    })
    executors.push(workers)
    const handle = await workers.spawn(config)
    const held = await until('the held permission question', () =>
      prompter.asked.find((a) => (a.request.input as { command: string }).command.startsWith('echo never-approved'))
    )
    await until('the background sleep running', () => sleepPids(secs).length === 1)
    expect(held.signal.aborted).toBe(false)

    const started = Date.now()
    writeFileSync(trigger, '')
    const info = await handle.exited
    const elapsedMs = Date.now() - started
    expect(workers.isAlive(config.agentId)).toBe(false)
    return { info, elapsedMs, held, secs, workers }
  }

  /** What every crash must leave: no orphan shell, the open question cancelled in the leader's queue. */
  async function expectNothingLeft(outcome: { elapsedMs: number; held: Asked; secs: string }): Promise<void> {
    expect(outcome.elapsedMs).toBeLessThan(CRASH_BOUND_MS)
    expect(sleepPids(outcome.secs)).toEqual([])
    expect(pty.livePids()).toEqual([])
    expect(outcome.held.signal.aborted).toBe(true)
    expect(await outcome.held.answer).toEqual({ decision: 'deny', by: 'cancelled' })
    expect(outcome.held.request).toMatchObject({ agentName: 'alice', tool: 'Bash' })
    // this test process is the main process: still here, and its PTY host still works
    expect((await pty.run({ command: 'echo still-alive', cwd: work, timeoutMs: 10_000 })).output).toContain(
      'still-alive'
    )
  }

  it('an uncaught throw inside the worker: crashed with the error, not reported', async () => {
    const outcome = await crashAtTheWorstMoment('thrower', 'throw')
    expect(outcome.info).toMatchObject({ status: 'crashed', reported: false })
    expect(outcome.info.reason).toContain('injected fault: the worker threw')
    await expectNothingLeft(outcome)
  }, 60_000)

  it('an infinite loop inside the worker: the lost heartbeat gets it terminated', async () => {
    const outcome = await crashAtTheWorstMoment('spinner', 'spin')
    expect(outcome.info).toMatchObject({ status: 'crashed', reported: false })
    expect(outcome.info.reason).toMatch(/^heartbeat lost for \d+\.\d s/)
    await expectNothingLeft(outcome)
  }, 60_000)

  it('process.exit(3) inside the worker ends only the worker', async () => {
    const outcome = await crashAtTheWorstMoment('exiter', 'exit')
    expect(outcome.info).toEqual({ status: 'crashed', reported: false, reason: 'exit code 3' })
    await expectNothingLeft(outcome)
  }, 60_000)

  it('running out of memory inside the worker (a small old-generation limit) ends only the worker', async () => {
    // filling the heap blocks the worker's event loop: on a loaded machine its GCs near the limit can
    // outlast the 3 s heartbeat, and the watchdog would end it as hung first; a 4.5 s heartbeat lets
    // the out-of-memory end come first, still within the 5 s bound
    const outcome = await crashAtTheWorstMoment('hog', 'oom', { maxOldGenerationSizeMb: 64 }, 4_500)
    expect(outcome.info).toMatchObject({ status: 'crashed', reported: false })
    expect(outcome.info.reason).toMatch(/^out of memory \(worker limit 64 MB old generation\)/)
    await expectNothingLeft(outcome)
  }, 60_000)

  it("a crash of the teammate's own loop is reported after its cleanup: tasks released, marked inactive", async () => {
    const config = await prepare('fragile', [{ text: 'Looked at the task.' }, { text: 'unused' }])
    const workers = new WorkerTeammateExecutor({
      bus: new EventBus(),
      pty,
      prompter: new HoldingPrompter(),
      codeCacheDir: join(wrappers, 'v8')
    })
    executors.push(workers)
    const tasks = new TaskStore(home, 'fragile')
    await tasks.create({ subject: 'held work' })
    const handle = await workers.spawn(config)
    await until('task 1 claimed by alice', () => tasks.get(1)?.owner === 'alice')
    await until('alice idle', async () =>
      (await createMailbox({ home }).read('fragile', 'team-lead')).messages.some((m) =>
        m.message.text.includes('idle_notification')
      )
    )
    // her inbox becomes unreadable: the next look at it fails inside her loop
    const inbox = join(home, 'teams', 'fragile', 'inboxes', 'alice', 'new')
    await until('her inbox created by her wait for messages', () => existsSync(inbox))
    rmSync(inbox, { recursive: true, force: true })
    writeFileSync(inbox, 'not a directory')
    await tasks.create({ subject: 'wake-up call' })
    const info = await handle.exited
    expect(info).toMatchObject({ status: 'crashed', reported: true })
    expect(info.reason).toMatch(/inboxes\/alice\/new is a file, where a folder must be/)
    expect(new TeamStore(home).read('fragile').members.find((m) => m.name === 'alice')?.isActive).toBe(false)
    expect(tasks.get(1)).toMatchObject({ status: 'pending' })
    expect(tasks.get(1)?.owner).toBeUndefined()
  }, 60_000)
})
