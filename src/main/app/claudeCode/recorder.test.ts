import { appendFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ClaudeTeamsSchema } from '../../../shared/ipc'
import {
  agentCallLine,
  inboxMessage,
  member,
  scratchConfig,
  writeConfig,
  writeInbox,
  writeSession,
  writeLeadTranscript,
  writeSubagentTranscript,
  writeTask,
  writeTeammateTranscript
} from './ccFiles.testkit'
import { ClaudeTeamsRecorder } from './recorder'
import { renderTranscript } from './transcript'

const SESSION = '1a2b3c4d-0000-4000-8000-000000000001'
const TEAM = 'session-1a2b3c4d'

let root: string
let cleanup: () => void
let recorder: ClaudeTeamsRecorder

beforeEach(() => {
  ;({ root, cleanup } = scratchConfig())
  recorder = new ClaudeTeamsRecorder({ root, pollMs: 50 })
})
afterEach(() => {
  recorder.dispose()
  cleanup()
})

/** Waits until `check` holds on the recorder's view of the team (the watch picks changes up itself). */
async function until(check: (team: NonNullable<ReturnType<ClaudeTeamsRecorder['team']>>) => boolean) {
  const deadline = Date.now() + 5_000
  for (;;) {
    const team = recorder.team(TEAM)
    if (team && check(team)) return team
    if (Date.now() > deadline) throw new Error(`not reached; last view: ${JSON.stringify(team, null, 1)}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('ClaudeTeamsRecorder', () => {
  it('shows a live team: members, inbox messages kept after Claude Code prunes them, readable protocol, tasks kept after the wipe', async () => {
    writeSession(root, SESSION)
    writeConfig(root, TEAM, SESSION, [member('alice'), member('bob', { planModeRequired: true, mode: 'plan' })])
    await recorder.start()
    let team = recorder.team(TEAM)!
    expect(team.status).toBe('live')
    expect(team.members.map((m) => [m.name, m.status])).toEqual([
      ['team-lead', 'active'],
      ['alice', 'active'],
      ['bob', 'active']
    ])
    expect(team.members.find((m) => m.name === 'bob')).toMatchObject({ planModeRequired: true, mode: 'plan' })
    expect(team.members[1]!.joinedAt).toBe(new Date(1_764_700_000_000).toISOString())

    const assignment = inboxMessage(
      'team-lead',
      JSON.stringify({
        type: 'task_assignment',
        taskId: '1',
        subject: 'Write the parser',
        description: 'd',
        assignedBy: 'team-lead',
        timestamp: 't'
      })
    )
    const plan = inboxMessage(
      'bob',
      JSON.stringify({
        type: 'plan_approval_request',
        from: 'bob',
        timestamp: 't',
        planFilePath: '/p.md',
        planContent: '# Plan\nStep 1',
        requestId: 'plan_approval-1@bob'
      })
    )
    writeInbox(root, TEAM, 'alice', [assignment])
    writeInbox(root, TEAM, 'team-lead', [plan, plan]) // one message written twice: one card
    writeTask(root, TEAM, { id: '1', subject: 'Write the parser', owner: 'alice', status: 'in_progress' })
    writeTask(root, TEAM, { id: '2', subject: 'Test it', blockedBy: ['1'] })
    team = await until((t) => t.messages.length === 2 && t.tasks.length === 2)
    expect(team.messages.map((m) => [m.to, m.kind, m.summary, m.delivered])).toEqual([
      ['alice', 'task_assignment', 'Task #1 assigned: Write the parser (by team-lead)', false],
      ['team-lead', 'plan_approval_request', 'Plan for approval: # Plan', false]
    ])
    expect(team.tasks.find((t) => t.id === '2')).toMatchObject({ blockedBy: ['1'], waitingFor: ['1'], wiped: false })

    // delivered: Claude Code removes the message from the array; the card stays, marked
    writeInbox(root, TEAM, 'alice', [])
    team = await until((t) => t.messages.find((m) => m.to === 'alice')?.delivered === true)
    expect(team.messages).toHaveLength(2)

    // every task completes, then Claude Code wipes the list (keeping a .highwatermark)
    writeTask(root, TEAM, { id: '1', subject: 'Write the parser', owner: 'alice', status: 'completed' })
    writeTask(root, TEAM, { id: '2', subject: 'Test it', blockedBy: ['1'], status: 'completed' })
    await until((t) => t.tasks.every((k) => k.status === 'completed'))
    expect(recorder.team(TEAM)!.tasks.find((t) => t.id === '2')!.waitingFor).toEqual([]) // blockedBy stays, as Claude Code leaves it
    rmSync(join(root, 'tasks', TEAM, '1.json'))
    rmSync(join(root, 'tasks', TEAM, '2.json'))
    writeFileSync(join(root, 'tasks', TEAM, '.highwatermark'), '2')
    team = await until((t) => t.tasks.every((k) => k.wiped))
    expect(team.tasks.map((t) => [t.id, t.status, t.owner])).toEqual([
      ['1', 'completed', 'alice'],
      ['2', 'completed', undefined]
    ])
    expect(() => ClaudeTeamsSchema.parse(recorder.list())).not.toThrow()
  })

  it('keeps a member removed on shutdown as gone, and an ended team read-only with its tasks, messages and transcripts', async () => {
    writeSession(root, SESSION)
    writeConfig(root, TEAM, SESSION, [member('alice'), member('bob')])
    const transcript = writeTeammateTranscript(root, SESSION, TEAM, 'bob', [
      { type: 'user', message: { role: 'user', content: 'Review the parser' } },
      {
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Reading it.' },
            { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/work/parser.ts' } }
          ]
        }
      },
      {
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'line1\nline2' }] }
      }
    ])
    writeInbox(root, TEAM, 'team-lead', [
      inboxMessage(
        'bob',
        JSON.stringify({ type: 'shutdown_approved', requestId: 'shutdown-1@bob', from: 'bob', timestamp: 't' })
      )
    ])
    writeTask(root, TEAM, { id: '1', owner: 'bob', status: 'completed' })
    await recorder.start()
    expect(recorder.team(TEAM)!.members.find((m) => m.name === 'bob')!.transcript).toBe(transcript)
    expect(await renderTranscript(transcript)).toBe(
      '> Review the parser\nReading it.\n● Read(/work/parser.ts)\n  ⎿ line1\nline2'
    )

    writeConfig(root, TEAM, SESSION, [member('alice')]) // bob shut down
    let team = await until((t) => t.members.find((m) => m.name === 'bob')?.status === 'gone')
    expect(team.messages[0]!.summary).toBe('Shutdown approved')

    // the session exits: its pid file and team folder go; the task list and transcripts stay
    rmSync(join(root, 'sessions'), { recursive: true })
    rmSync(join(root, 'teams', TEAM), { recursive: true })
    team = await until((t) => t.status === 'ended')
    expect(team.members.filter((m) => m.status === 'active')).toEqual([])
    expect(team.messages).toHaveLength(1)
    // never delivered: the folder went with the session, not the message with a delivery
    expect(team.messages[0]!.delivered).toBe(false)
    expect(team.tasks.map((t) => t.id)).toEqual(['1'])
    expect(team.members.find((m) => m.name === 'bob')!.transcript).toBe(transcript)
  })

  it('names each file that does not parse and what failed, and reads the rest', async () => {
    writeSession(root, SESSION)
    writeConfig(root, TEAM, SESSION, [member('alice')])
    writeInbox(root, TEAM, 'alice', [inboxMessage('team-lead', 'hello')])
    writeFileSync(join(root, 'teams', TEAM, 'inboxes', 'bob.json'), '[{"from": "team-lead", "te')
    writeTask(root, TEAM, { id: '1' })
    writeFileSync(
      join(root, 'tasks', TEAM, '2.json'),
      JSON.stringify({ id: 2, subject: 's', description: '', status: 'pending', blocks: [], blockedBy: [] })
    )
    writeFileSync(
      join(root, 'tasks', TEAM, '3.json'),
      JSON.stringify({ id: '3', subject: 's', description: '', status: 'blocked', blocks: [], blockedBy: [] })
    )
    await recorder.start()
    const team = recorder.team(TEAM)!
    expect(team.messages.map((m) => m.text)).toEqual(['hello'])
    expect(team.tasks.map((t) => t.id)).toEqual(['1'])
    const reasons = Object.fromEntries(team.unreadable.map((u) => [u.path.slice(root.length + 1), u.reason]))
    expect(reasons[`teams/${TEAM}/inboxes/bob.json`]).toMatch(/^not JSON \(\d+ bytes\)/)
    expect(reasons[`tasks/${TEAM}/2.json`]).toMatch(/not the format Claude Code 2\.1\.197 writes: id: .*string/)
    expect(reasons[`tasks/${TEAM}/3.json`]).toMatch(/status: /)
    expect(Object.keys(reasons)).toHaveLength(3)

    // a config whose members are not a list: reported, never guessed at
    writeFileSync(join(root, 'teams', TEAM, 'config.json'), JSON.stringify({ name: TEAM, members: { alice: {} } }))
    await recorder.refresh()
    expect(recorder.team(TEAM)!.unreadable.find((u) => u.path.endsWith('config.json'))!.reason).toMatch(/members: /)
  })

  it('nests each subagent under the agent whose transcript holds the Agent call that started it', async () => {
    writeSession(root, SESSION)
    writeConfig(root, TEAM, SESSION, [member('alice')])
    writeLeadTranscript(root, SESSION, [agentCallLine('toolu_lead1', 'lead helper')])
    writeTeammateTranscript(root, SESSION, TEAM, 'alice', [agentCallLine('toolu_alice1', 'alice helper')])
    writeSubagentTranscript(root, SESSION, 'a0000000000000001', 'toolu_lead1', 'lead helper')
    writeSubagentTranscript(root, SESSION, 'a0000000000000002', 'toolu_alice1', 'alice helper', [
      agentCallLine('toolu_nested', 'nested helper')
    ])
    writeSubagentTranscript(root, SESSION, 'a0000000000000003', 'toolu_nested', 'nested helper')
    // its Agent call is not written yet (or torn mid-line): no parent until it is
    const aliceLate = writeTeammateTranscript(root, SESSION, TEAM, 'alice', [])
    writeFileSync(aliceLate, JSON.stringify(agentCallLine('toolu_late', 'late helper')).slice(0, 40))
    writeSubagentTranscript(root, SESSION, 'a0000000000000004', 'toolu_late', 'late helper')
    await recorder.start()
    const parents = () =>
      Object.fromEntries(
        recorder
          .team(TEAM)!
          .subagents.map((a) => [a.description, a.parent ?? (a.parentAgentId && `sub:${a.parentAgentId}`)])
      )
    expect(parents()).toEqual({
      'lead helper': 'team-lead',
      'alice helper': 'alice',
      'nested helper': 'sub:a0000000000000002',
      'late helper': undefined
    })
    expect(recorder.team(TEAM)!.subagents.find((a) => a.agentId === 'a0000000000000001')).toMatchObject({
      agentType: 'general-purpose',
      transcript: expect.stringMatching(/agent-a0000000000000001\.jsonl$/)
    })
    // the rest of the torn line arrives
    appendFileSync(aliceLate, `${JSON.stringify(agentCallLine('toolu_late', 'late helper')).slice(40)}\n`)
    await until(() => parents()['late helper'] === 'alice')
    expect(() => ClaudeTeamsSchema.parse(recorder.list())).not.toThrow()
  })
})
