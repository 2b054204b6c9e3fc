/**
 * One agent runner, one behaviour on every failure path (docs/loop.md#failure-paths): a turn
 * whose transcript write fails (a full disk), whose model call fails, that is interrupted (Esc),
 * or whose tool throws an unexpected exception ends the same way for the leader, a subagent, a
 * worker teammate and a process teammate: the turn ends, nothing of it runs on unrecorded, the
 * agent's last state and notice are the same kind, what the leader learns says the same, and the
 * agent's next prompt or message starts a turn that completes.
 *
 * All real: a Session with a team, the scripted model over HTTP, a worker thread, a
 * `swarmdesk teammate` child process. The disk-full and tool faults come from one test-only
 * prelude patching node:fs (faults.testkit.ts), imported here for the leader and its subagents,
 * as the worker prelude for the worker, and with `node --import` for the process.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../shared/events'
import { parseMessageBody } from '../../../shared/mailbox'
import { createMailbox } from '../mailbox'
import type { ScenarioInput } from '../scripted'
import { TeammateExecutorRegistry } from '../teammates/executor'
import { ProcessTeammateExecutor } from '../teammates/process'
import { WorkerTeammateExecutor } from '../teammates/worker'
import { codeCacheDirOf } from '../teammates/worker/codeCache'
import { writeFaultPrelude, type FaultPrelude } from './faults.testkit'
import { openTestSession, type TestSession } from './session.testkit'

type Turn = NonNullable<ScenarioInput['agents']>[string][number]
type Host = 'leader' | 'subagent' | 'worker' | 'process'
type Path = 'transcript' | 'model' | 'abort' | 'tool'

/** What the leader learns of how the subject's turn ended, whatever the host. */
interface Learned {
  /** `failed` for a turn that could not go on, `interrupted` for Esc. */
  kind: 'failed' | 'interrupted'
  /** Why, in words, for a failed turn. */
  reason?: string
}

const allow = { prompt: async () => ({ decision: 'allow' as const, by: 'user' as const }) }
/** A model call that fails: more HTTP 529s than the SDK retries (4), then the turn answers. */
const MODEL_FAULT: Turn = { fault: 'overloaded', faultCount: 5, retryAfterMs: 5, text: 'Recovered.' }
const REASON: Record<Exclude<Path, 'abort'>, RegExp> = {
  transcript: /the disk is full/,
  model: /overloaded/i,
  tool: /Cannot read properties of null/
}

let dir: string
let prelude: FaultPrelude
const cleanups: Array<() => Promise<void> | void> = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'swarmdesk-failure-paths-'))
  prelude = writeFaultPrelude(dir)
  // the leader and its subagents run in this thread: the same prelude, imported here
  await import(prelude.path)
})
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
  rmSync(prelude.trigger, { force: true })
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  events: () => RuntimeEvent[],
  ms = 45_000
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await probe()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}; events: ${events()
          .map((e) => `${e.agentName}:${e.type}${e.type === 'agent_state' ? `=${e.state}` : ''}`)
          .join(' ')}`
      )
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** The subject's turns on `path`: the fault, then the turn its next message gets, then one that only a turn running on unrecorded would take. */
function subjectTurns(path: Path, armed: string): Turn[] {
  const fault: Record<Path, Turn> = {
    transcript: { tools: [{ name: 'Bash', input: { command: `mv ${armed} ${prelude.trigger}` } }] },
    model: MODEL_FAULT,
    abort: { tools: [{ name: 'Bash', input: { command: 'sleep 45' } }] },
    tool: { tools: [{ name: 'Read', input: { file_path: 'bug.txt' } }] }
  }
  return [fault[path], { when: 'again', text: 'Recovered.' }, { text: 'RAN ON UNRECORDED' }]
}

/** The scenario: the subject's turns under its name, and the leader's turns that bring it about. */
function scenario(host: Host, turns: Turn[]): ScenarioInput {
  const noted = Array.from({ length: 8 }, () => ({ text: 'Noted.' }))
  if (host === 'leader') return { agents: { 'team-lead': turns } }
  if (host === 'subagent') {
    return {
      agents: {
        'team-lead': [
          {
            tools: [
              {
                name: 'Agent',
                input: { description: 'probe', prompt: 'Probe the repository.', run_in_background: true }
              }
            ]
          },
          ...noted
        ],
        probe: turns
      }
    }
  }
  return {
    agents: {
      'team-lead': [
        { tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }] },
        {
          tools: [
            {
              name: 'Agent',
              input: { name: 'alice', backend: host, description: 'helper', prompt: 'Start your work.' }
            }
          ]
        },
        ...noted
      ],
      alice: [...turns, { text: '' }, { text: '' }]
    }
  }
}

/** A session with both teammate backends, the fault prelude in the worker thread and in the teammate process. */
async function open(host: Host, path: Path, armed: string): Promise<TestSession> {
  let registry: TeammateExecutorRegistry | undefined
  const h = await openTestSession({
    mode: 'bypassPermissions',
    scenario: scenario(host, subjectTurns(path, armed)),
    teammates: ({ bus, pty, home }) => {
      registry = new TeammateExecutorRegistry()
      registry.register(
        new WorkerTeammateExecutor({
          bus,
          pty,
          prompter: allow,
          prelude: prelude.path,
          codeCacheDir: codeCacheDirOf(home)
        })
      )
      registry.register(new ProcessTeammateExecutor({ bus, pty }))
      return {
        registry,
        defaultBackend: 'worker',
        askPersonForPlans: false,
        modelEnv: () => ({
          ANTHROPIC_BASE_URL: server(),
          SWARMDESK_SCRIPTED_MODEL_URL: server(),
          ANTHROPIC_API_KEY: 'test-key',
          NODE_OPTIONS: `--import ${prelude.path}`
        })
      }
    }
  })
  const server = (): string => h.server.url
  cleanups.push(async () => {
    await registry?.dispose()
    await h.close()
  })
  return h
}

/** How the subject's turn is brought to its end on each host, and what the leader then learns. */
interface Subject {
  agentId: string
  /** Waits for the faulty turn to end; interrupts it (Esc) on the abort path. */
  ended(path: Path): Promise<Learned>
  /** The subject's next prompt or message. */
  again(): Promise<void>
}

async function subjectOf(host: Host, h: TestSession, armed: string): Promise<Subject> {
  const { session } = h
  const events = (): RuntimeEvent[] => h.events
  const find = <T extends RuntimeEvent['type']>(
    type: T,
    test: (e: EventOf<T>) => boolean,
    after = 0
  ): EventOf<T> | undefined =>
    h.events.find((e): e is EventOf<T> => e.seq > after && e.type === type && test(e as EventOf<T>))
  const sleeping = (agentId: string) =>
    until(
      'the subject in its long command',
      () => find('tool_call', (e) => e.agentId === agentId && e.name === 'Bash'),
      events
    )

  if (host === 'leader') {
    writeFileSync(armed, basename(session.transcriptPath))
    let turn = session.prompt('go')
    return {
      agentId: 'team-lead',
      async ended(path) {
        if (path === 'abort') {
          await sleeping('team-lead')
          expect(session.interrupt()).toBe(true)
        }
        const end = await turn
        return end.reason === 'aborted'
          ? { kind: 'interrupted' }
          : {
              kind: 'failed',
              ...(end.reason === 'failed' || end.reason === 'model_error' ? { reason: end.error.message } : {})
            }
      },
      async again() {
        turn = session.prompt('again')
        expect(await turn).toMatchObject({ reason: 'completed', finalText: 'Recovered.' })
      }
    }
  }

  if (host === 'subagent') {
    const sub = h.bus.onEvent((e) => {
      if (e.type === 'agent_started' && e.agentName === 'probe') writeFileSync(armed, `${e.agentId}.jsonl`)
    })
    cleanups.push(() => sub.dispose())
    await session.prompt('start the probe')
    const started = await until('the subagent', () => find('agent_started', (e) => e.agentName === 'probe'), events)
    const agentId = started.agentId
    return {
      agentId,
      async ended(path) {
        if (path === 'abort') {
          await sleeping(agentId)
          await session.subagents!.interrupt(agentId)
        }
        await until('its task notification', () => find('task_notification', (e) => e.taskId === agentId), events)
        // the leader reads it at its next turn
        await session.prompt()
        const request = h.server
          .requests()
          .filter((r) => r.headers['x-swarmdesk-agent-name'] === 'team-lead')
          .at(-1)!
        const notification = /<task-notification>[\s\S]*?<\/task-notification>/.exec(
          JSON.stringify(request.body).replace(/\\n/g, '\n')
        )![0]
        const status = /<status>(\w+)<\/status>/.exec(notification)![1]
        const result = /<result>([\s\S]*?)<\/result>/.exec(notification)![1]!
        return status === 'killed' ? { kind: 'interrupted' } : { kind: 'failed', reason: result }
      },
      async again() {
        const from = find('agent_stopped', (e) => e.agentId === agentId)!.seq
        session.subagents!.sendMessage(agentId, 'again', session.asParent())
        await until(
          'its answer',
          () => find('assistant_text', (e) => e.agentId === agentId && e.text === 'Recovered.', from),
          events
        )
        await until(
          'its end',
          () => find('agent_stopped', (e) => e.agentId === agentId && e.status === 'completed', from),
          events
        )
      }
    }
  }

  writeFileSync(armed, 'alice@crew.jsonl')
  await session.prompt('make a team')
  const mailbox = createMailbox({ home: h.home })
  const idles = async () =>
    (await mailbox.read('crew', 'team-lead')).messages
      .map((m) => parseMessageBody(m.message.text))
      .flatMap((b) =>
        b.kind === 'structured' && (b.body as { type?: string }).type === 'idle_notification'
          ? [b.body as { idleReason: string; failureReason?: string; summary?: string }]
          : []
      )
  return {
    agentId: 'alice@crew',
    async ended(path) {
      if (path === 'abort') {
        await sleeping('alice@crew')
        expect(session.teammates!.interrupt('alice')).toBe(true)
      }
      const idle = (await until('her idle notification', async () => (await idles())[0], events))!
      return idle.idleReason === 'interrupted'
        ? { kind: 'interrupted' }
        : { kind: 'failed', ...(idle.failureReason ? { reason: idle.failureReason } : {}) }
    },
    async again() {
      await mailbox.send('crew', 'alice', { from: 'team-lead', text: 'again' })
      await until('her next idle notification', async () => (await idles())[1], events)
      expect(find('assistant_text', (e) => e.agentId === 'alice@crew' && e.text === 'Recovered.')).toBeDefined()
    }
  }
}

const HOSTS: Host[] = ['leader', 'subagent', 'worker', 'process']
const PATHS: Path[] = ['transcript', 'model', 'abort', 'tool']

describe.each(PATHS)('on the %s failure path', (path) => {
  it.each(HOSTS)(
    'the %s ends its turn the same way and is usable afterwards',
    async (host) => {
      const armed = join(dir, `${host}-${path}.armed`)
      rmSync(armed, { force: true })
      const h = await open(host, path, armed)
      writeFileSync(join(h.work, 'bug.txt'), 'a file the fault prelude cannot read\n')
      const subject = await subjectOf(host, h, armed)
      const learned = await subject.ended(path)

      // a subagent's turn is its task: interrupted, it ends (`exited`, its parent hears `killed`) where the others go idle
      const endState = path === 'abort' && host === 'subagent' ? 'exited' : path === 'abort' ? 'idle' : 'error'
      const endedAt = (
        await until(
          `the subject ${endState}`,
          () => h.events.find((e) => e.agentId === subject.agentId && e.type === 'agent_state' && e.state === endState),
          () => h.events
        )
      ).seq
      const states = h.events.filter(
        (e): e is EventOf<'agent_state'> =>
          e.agentId === subject.agentId && e.type === 'agent_state' && e.seq <= endedAt
      )
      const notices = h.events.filter(
        (e): e is EventOf<'notice'> => e.agentId === subject.agentId && e.type === 'notice' && e.seq <= endedAt
      )
      if (path === 'abort') {
        expect(learned).toEqual({ kind: 'interrupted' })
        expect(states.at(-1)).toMatchObject({ state: endState })
        expect(notices.at(-1)?.message).toMatch(/^Interrupted: /)
      } else {
        expect(learned).toMatchObject({ kind: 'failed', reason: expect.stringMatching(REASON[path]) })
        expect(states.at(-1)).toMatchObject({ state: 'error', reason: expect.stringMatching(REASON[path]) })
        const notice = notices.filter((n) => n.level === 'error').at(-1)?.message
        expect(notice).toMatch(REASON[path])
        // the same words on every host: a process teammate's come from its idle notification's failureKind
        expect(notice).toMatch(path === 'model' ? /^The model call failed: / : /^The turn failed and was stopped: /)
      }
      // nothing ran on unrecorded: no request after the fault answered the turn meant for a loop that went on
      expect(h.events.some((e) => e.type === 'assistant_text' && e.text === 'RAN ON UNRECORDED')).toBe(false)
      expect(existsSync(prelude.trigger)).toBe(false)

      await subject.again()
    },
    90_000
  )
})
