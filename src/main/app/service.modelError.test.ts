import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../shared/events'
import type { PushChannel, WorkspaceSnapshot } from '../../shared/ipc'
import { WorkspaceService } from './service'

/**
 * Issue 29 item 7: a failed model call shows as `error` — with a notice saying why and which
 * retries happened — for every kind of agent, and the next prompt or message retries it. The
 * scripted model answers 529 to more requests than the SDK retries (`faultCount` 5 > its 4
 * retries), then, once the faults are spent, answers the same turn normally.
 */

let home: string
let work: string
let service: WorkspaceService | undefined
let pushes: Array<{ channel: PushChannel; payload: any }>

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  pushes = []
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

/** A turn whose first five requests get HTTP 529 (quickly paced), then its answer. */
const FAILING = 'fault: overloaded, faultCount: 5, retryAfterMs: 5'
const RETRIES = /Retried 4 times before giving up \(HTTP 529 ×4\)/

async function start(yaml: string): Promise<WorkspaceService> {
  const scenario = join(home, 's.yaml')
  writeFileSync(scenario, yaml)
  service = await WorkspaceService.start({ cwd: work, home, scenario, env: {}, mode: 'bypassPermissions' })
  service.onPush((channel, payload) => pushes.push({ channel, payload }))
  return service
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = probe()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}; events: ${events()
          .map((e) => `${e.agentName}:${e.type}${e.type === 'agent_state' ? `=${e.state}` : ''}`)
          .join(' ')}`
      )
    await new Promise((r) => setTimeout(r, 20))
  }
}

const events = (): RuntimeEvent[] => pushes.filter((p) => p.channel === 'runtime.event').map((p) => p.payload)
const find = <T extends RuntimeEvent['type']>(
  type: T,
  test: (e: EventOf<T>) => boolean,
  after = 0
): EventOf<T> | undefined =>
  events().find((e): e is EventOf<T> => e.seq > after && e.type === type && test(e as EventOf<T>))
const snapshot = async (s: WorkspaceService) => (await s.handle('workspace.snapshot', {})) as WorkspaceSnapshot
const agentIn = async (s: WorkspaceService, id: string) => (await snapshot(s)).agents.find((a) => a.agentId === id)

/** Waits for `agentId`'s `error` state, and checks the notice, the snapshot and that it did not show `idle` instead. */
async function expectError(s: WorkspaceService, agentId: string): Promise<EventOf<'agent_state'>> {
  const error = await until(`${agentId} in error`, () =>
    find('agent_state', (e) => e.agentId === agentId && e.state === 'error')
  )
  expect(error.reason).toMatch(/overloaded/i)
  expect(error.reason).toMatch(RETRIES)
  const notice = find('notice', (e) => e.agentId === agentId && e.level === 'error')
  expect(notice?.message).toMatch(RETRIES)
  expect(notice?.message).toMatch(/The next prompt or message retries it/)
  const view = await agentIn(s, agentId)
  // a subagent's stop notifies its leader, whose SendMessage may resume it before this snapshot:
  // then the snapshot rightly shows the newer state, and the error is checked through the events
  const moved = find('agent_state', (e) => e.agentId === agentId && e.state !== 'error', error.seq)
  if (!moved) expect(view).toMatchObject({ state: 'error', error: error.reason })
  else expect(moved.state).toBe('running')
  return error
}

describe('a failed model call shows as error, and the next prompt or message retries it', () => {
  it('the leader: error with the reason and the retries, then a prompt retries it and it runs', async () => {
    const s = await start(`agents:\n  team-lead:\n    - { ${FAILING}, text: "Recovered after the overload." }\n`)
    await s.handle('leader.prompt', { text: 'first try' })
    const error = await expectError(s, 'team-lead')
    // no idle between running and error: the failure is not hidden as a finished turn
    const states = events()
      .filter(
        (e): e is EventOf<'agent_state'> => e.type === 'agent_state' && e.agentId === 'team-lead' && e.seq <= error.seq
      )
      .map((e) => e.state)
    expect(states.slice(-2)).toEqual(['running', 'error'])
    await s.whenIdle()
    await s.handle('leader.prompt', { text: 'try again' })
    await until('the leader to run again', () =>
      find('agent_state', (e) => e.agentId === 'team-lead' && e.state === 'running', error.seq)
    )
    await until('the leader to answer', () =>
      find('assistant_text', (e) => e.agentId === 'team-lead' && e.text.includes('Recovered after the overload'))
    )
    await until('the leader idle', () =>
      find('agent_state', (e) => e.agentId === 'team-lead' && e.state === 'idle', error.seq)
    )
    const view = await agentIn(s, 'team-lead')
    expect(view?.state).toBe('idle')
    expect(view?.error).toBeUndefined()
  })

  it('a subagent: error with the reason (not exited), then a SendMessage resumes and retries it', async () => {
    const s = await start(`agents:
  team-lead:
    - tools: [{ name: Agent, input: { description: "probe", prompt: "Probe the repository.", run_in_background: true } }]
    - text: "Waiting for the probe."
    - when: "failed"
      tools: [{ name: SendMessage, input: { to: "{{last_agent_id}}", message: "Please try again." } }]
    - text: "Asked it to retry."
    - when: "completed"
      text: "The probe is done."
    - text: "Noted."
  "type:general-purpose":
    - { ${FAILING}, text: "Probe finished after the retry." }
`)
    await s.handle('leader.prompt', { text: 'start the probe' })
    const started = await until('the subagent', () => find('agent_started', (e) => e.agentType === 'general-purpose'))
    const error = await expectError(s, started.agentId)
    const stopped = await until('the subagent to stop as failed', () =>
      find('agent_stopped', (e) => e.agentId === started.agentId && e.status === 'failed')
    )
    // still in error once stopped, with its reason: its last state before the stop is the error. (The
    // leader's SendMessage may resume it at once, so a snapshot taken now can already show it running; expectError saw the view in error.)
    const statesBeforeStop = events().filter(
      (e): e is EventOf<'agent_state'> =>
        e.type === 'agent_state' && e.agentId === started.agentId && e.seq < stopped.seq
    )
    expect(statesBeforeStop.at(-1)).toMatchObject({ state: 'error', reason: error.reason })
    await until('the subagent to run again', () =>
      find('agent_state', (e) => e.agentId === started.agentId && e.state === 'running', error.seq)
    )
    await until('its answer', () =>
      find('assistant_text', (e) => e.agentId === started.agentId && e.text.includes('Probe finished after the retry'))
    )
    await until('the leader told it completed', () =>
      find('assistant_text', (e) => e.agentId === 'team-lead' && e.text.includes('The probe is done'))
    )
    expect((await agentIn(s, started.agentId))?.error).toBeUndefined()
  })

  it.each(['worker', 'process'] as const)(
    'a %s teammate: error with the reason, then a message retries it',
    async (backend) => {
      const s = await start(`agents:
  team-lead:
    - when: "make a team"
      tools: [{ name: TeamCreate, input: { team_name: crew } }]
    - tools: [{ name: Agent, input: { name: alice, backend: ${backend}, description: "helper", prompt: "Say hello to the lead." } }]
    - text: "Alice is on it."
${Array.from({ length: 10 }, () => '    - { text: "Noted." }').join('\n')}
  alice:
    - { ${FAILING}, tools: [{ name: SendMessage, input: { to: team-lead, message: "Hello after the retry", summary: "alice says hello" } }] }
${Array.from({ length: 4 }, () => '    - { text: "" }').join('\n')}
`)
      await s.handle('leader.prompt', { text: 'make a team' })
      const error = await expectError(s, 'alice@crew')
      expect(await s.handle('teammate.message', { name: 'alice', text: 'Please try again.' })).toEqual({ ok: true })
      await until('alice to run again', () =>
        find('agent_state', (e) => e.agentId === 'alice@crew' && e.state === 'running', error.seq)
      )
      await until('alice to send her hello', () =>
        find('message_sent', (e) => e.from === 'alice' && e.to === 'team-lead', error.seq)
      )
      await until('alice idle', () =>
        find('agent_state', (e) => e.agentId === 'alice@crew' && e.state === 'idle', error.seq)
      )
      expect((await agentIn(s, 'alice@crew'))?.error).toBeUndefined()
    },
    60_000
  )
})
