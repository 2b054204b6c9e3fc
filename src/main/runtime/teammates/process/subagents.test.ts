import { type PtyHost } from '../../pty/types'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../../shared/events'
import { EventBus } from '../../events/bus'
import { createMailbox } from '../../mailbox'
import { cleanTerminalOutput, createPtyHost } from '../../pty'
import { startScriptedServer, type ScriptedServer } from '../../scripted'
import type { Scenario } from '../../scripted/scenario'
import { TeamStore } from '../../teams'

import { agentTranscriptPath } from '../../storage/paths'
import { ProcessTeammateExecutor } from './executor'
import { until } from '../../pty/pty.testkit'

/**
 * A `process` teammate's sync subagents (docs/teams.md#spawning-a-teammate) as the leader sees them: they run inside the
 * teammate's process, `swarmdesk teammate` in a real pty, and reach the leader's bus only through
 * their transcripts — in their own names, with the teammate as parent, as a worker teammate's do.
 */

const of = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type)

describe("a process teammate's subagents on the leader's event stream", () => {
  let home: string
  let work: string
  let pty: PtyHost
  const servers: ScriptedServer[] = []
  const executors: ProcessTeammateExecutor[] = []
  const suffix = Math.random().toString(36).slice(2, 8)

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-proc-sub-home-'))
    work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-proc-sub-work-')))
    writeFileSync(join(work, 'notes.txt'), 'SECRET-NOTE: the answer is 42\n')
    pty = createPtyHost()
  })

  afterAll(async () => {
    await Promise.all(executors.map((e) => e.dispose()))
    await pty.dispose()
    await Promise.all(servers.map((s) => s.close()))
    rmSync(home, { recursive: true, force: true })
    rmSync(work, { recursive: true, force: true })
  })

  /** Team `base-suffix` with team-lead and alice (process backend), alice started on a fresh leader bus with a message waiting. */
  async function startAlice(base: string, agents: Scenario['agents'], firstMessage: string) {
    const team = `${base}-${suffix}`
    const server = await startScriptedServer({ scenario: { strict: true, agents } })
    servers.push(server)
    const teams = new TeamStore(home)
    await teams.create({
      name: team,
      description: 'process subagents test',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: work }
    })
    const alice = await teams.addMember(team, {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'claude-sonnet-5-5',
      backendType: 'process',
      cwd: work,
      isActive: false,
      mode: 'default'
    })
    await createMailbox({ home }).send(team, 'alice', { from: 'team-lead', text: firstMessage })
    const bus = new EventBus()
    const events: RuntimeEvent[] = []
    bus.onEvent((e) => events.push(e))
    // a minute's poll: the transcripts reach the bus through directory watching alone
    const executor = new ProcessTeammateExecutor({ bus, pty, transcriptPollMs: 60_000 })
    executors.push(executor)
    const sessionId = `session-${team}`
    const handle = await executor.spawn({
      home,
      team,
      name: 'alice',
      agentId: alice.agentId,
      cwd: work,
      color: alice.color,
      model: 'claude-sonnet-5-5',
      mode: 'default',
      planModeRequired: false,
      sessionId,
      leaderAgentId: `team-lead@${team}`,
      env: { ANTHROPIC_BASE_URL: server.url, SWARMDESK_SCRIPTED_MODEL_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }
    })
    const terminal = () =>
      cleanTerminalOutput(
        of(events, 'terminal_output')
          .map((e) => e.data)
          .join('')
      )
    const wait = <T>(what: string, check: () => T | undefined | false) =>
      until(what, check).catch((error: Error) => {
        throw new Error(`${error.message}; alice's terminal showed:\n${terminal()}`)
      })
    return { team, executor, handle, events, wait, agentId: alice.agentId, sessionId }
  }

  it("emits the subagent's agent_started naming alice as parent, its Read call and result, its final text and agent_stopped, in order, in its own name", async () => {
    const t = await startAlice(
      'explorers',
      {
        alice: [
          {
            when: 'survey the notes',
            tools: [
              {
                name: 'Agent',
                input: { subagent_type: 'Explore', description: 'read the notes', prompt: 'Read notes.txt' }
              }
            ]
          },
          { when: 'agentId:', text: 'Explore reported: {{last_tool_result}}' }
        ],
        'read-the-notes': [
          { tools: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
          { when: 'SECRET-NOTE', text: 'The notes hold SECRET-NOTE.' }
        ]
      },
      'please survey the notes'
    )
    const agentResult = await t.wait('alice got the Agent result', () =>
      of(t.events, 'tool_result').find((e) => e.agentId === t.agentId)
    )
    const started = await t.wait('the subagent on the bus', () =>
      of(t.events, 'agent_started').find((e) => e.agentName === 'read-the-notes')
    )
    // Explore's own model (its definition's haiku), as the subagent runtime resolved it
    expect(started).toMatchObject({
      agentType: 'Explore',
      parentId: t.agentId,
      depth: 1,
      model: 'claude-haiku-5-5',
      cwd: work
    })
    const childId = started.agentId
    expect(childId).toMatch(/^a[0-9a-f]{16}$/)
    await t.wait('the subagent stopped', () => of(t.events, 'agent_stopped').some((e) => e.agentId === childId))

    const mine = t.events.filter((e) => e.agentId === childId)
    expect(mine.every((e) => e.agentName === 'read-the-notes')).toBe(true)
    expect(mine.map((e) => e.type).filter((type) => type !== 'usage')).toEqual([
      'agent_started',
      'agent_state',
      'tool_call',
      'tool_result',
      'assistant_text',
      'agent_state',
      'agent_stopped'
    ])
    const call = of(mine, 'tool_call')[0]!
    expect(call).toMatchObject({ name: 'Read', input: { file_path: 'notes.txt' } })
    expect(of(mine, 'tool_result')[0]).toMatchObject({
      toolUseId: call.toolUseId,
      isError: false,
      output: expect.stringContaining('SECRET-NOTE')
    })
    expect(of(mine, 'assistant_text')[0]!.text).toBe('The notes hold SECRET-NOTE.')
    expect(of(mine, 'agent_state').map((e) => e.state)).toEqual(['running', 'exited'])
    expect(of(mine, 'agent_stopped')[0]).toMatchObject({ status: 'completed' })
    // the same agent alice was told about, whose transcript lies beside hers and opens with its header
    expect(agentResult.output).toContain(`agentId: ${childId}`)
    const first = JSON.parse(
      readFileSync(agentTranscriptPath(home, work, t.sessionId, childId), 'utf8').split('\n')[0]!
    ) as { type: string; subtype: string; message: Record<string, unknown> }
    expect(first).toMatchObject({
      type: 'system',
      subtype: 'agent_started',
      message: { agentId: childId, agentType: 'Explore', parentId: t.agentId, description: 'read the notes' }
    })
    // alice's own events stay hers: the subagent's Read is not hers
    expect(
      of(t.events, 'tool_call')
        .filter((e) => e.agentId === t.agentId)
        .map((e) => e.name)
    ).toEqual(['Agent'])

    await t.executor.kill(t.agentId, 'test over')
    await t.handle.exited
  }, 60_000)

  it('stops a subagent cut short by its teammate being killed, naming why, and follows nothing after', async () => {
    const t = await startAlice(
      'cutshort',
      {
        alice: [
          {
            when: 'take your time',
            tools: [
              {
                name: 'Agent',
                input: { subagent_type: 'Explore', description: 'slow reader', prompt: 'Read notes.txt slowly' }
              }
            ]
          }
        ],
        'slow-reader': [
          { tools: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
          { when: 'SECRET-NOTE', delayMs: 30_000, text: 'never seen' }
        ]
      },
      'please take your time'
    )
    const started = await t.wait('the subagent started', () =>
      of(t.events, 'agent_started').find((e) => e.agentName === 'slow-reader')
    )
    await t.wait('its Read result', () => of(t.events, 'tool_result').some((e) => e.agentId === started.agentId))
    await t.executor.kill(t.agentId, 'stopped by a person')
    const info = await t.handle.exited
    expect(info.status).toBe('killed')
    const mine = t.events.filter((e) => e.agentId === started.agentId)
    expect(mine.slice(-2)).toMatchObject([
      { type: 'agent_state', state: 'exited' },
      {
        type: 'agent_stopped',
        status: 'killed',
        reason: 'its teammate alice ended before it finished (stopped by a person)'
      }
    ])
    expect(of(mine, 'agent_stopped')).toHaveLength(1)
  }, 60_000)
})
