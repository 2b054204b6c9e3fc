import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ClaudeInboxSchema, ClaudeTaskFileSchema } from './formats'
import {
  inboxMessage,
  member,
  scratchConfig,
  writeConfig,
  writeInbox,
  writeSession,
  writeTask
} from './ccFiles.testkit'
import { ClaudeTeamsControl } from './control'

const SESSION = '5e6f7a8b-0000-4000-8000-000000000002'
const TEAM = 'session-5e6f7a8b'

let root: string
let cleanup: () => void
let control: ClaudeTeamsControl

const inbox = (agent: string) =>
  ClaudeInboxSchema.parse(JSON.parse(readFileSync(join(root, 'teams', TEAM, 'inboxes', `${agent}.json`), 'utf8')))
const task = (id: string) =>
  ClaudeTaskFileSchema.parse(JSON.parse(readFileSync(join(root, 'tasks', TEAM, `${id}.json`), 'utf8')))

beforeEach(() => {
  ;({ root, cleanup } = scratchConfig())
  writeSession(root, SESSION)
  writeConfig(root, TEAM, SESSION, [member('alice'), member('bob', { planModeRequired: true })])
  writeTask(root, TEAM, { id: '1', subject: 'Write the parser', description: 'Parse the config' })
  writeTask(root, TEAM, { id: '2', subject: 'Done already', status: 'completed' })
  control = new ClaudeTeamsControl(root, 50)
})
afterEach(() => {
  control.dispose()
  cleanup()
})

describe('ClaudeTeamsControl writes with Claude Code’s protocol', () => {
  it('drag-to-assign sets the owner in the task file and writes a task_assignment into the owner’s inbox', async () => {
    writeInbox(root, TEAM, 'alice', [inboxMessage('team-lead', 'earlier, unread')])
    const shown = await control.assign(TEAM, '1', 'alice')
    expect(shown).toMatchObject({ id: '1', owner: 'alice', status: 'pending' })
    expect(task('1')).toMatchObject({ id: '1', owner: 'alice', subject: 'Write the parser', blocks: [], blockedBy: [] })
    const messages = inbox('alice')
    expect(messages).toHaveLength(2) // what was there stays
    const written = messages[1]!
    expect(written).toMatchObject({ from: 'team-lead', msgV: 1, type: 'message', read: false })
    expect(written.msg_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(JSON.parse(written.text)).toMatchObject({
      type: 'task_assignment',
      taskId: '1',
      subject: 'Write the parser',
      description: 'Parse the config',
      assignedBy: 'team-lead'
    })
    const listed = (await control.list()).teams[0]!
    expect(listed.messages.map((m) => m.summary)).toContain('Task #1 assigned: Write the parser (by team-lead)')
  })

  it('Message, Shut down and a plan answer each write their message; the inbox is created when missing', async () => {
    await control.message(TEAM, 'alice', 'Please also add tests')
    expect(inbox('alice')[0]).toMatchObject({ from: 'team-lead', text: 'Please also add tests' })

    const { requestId } = await control.shutdown(TEAM, 'alice', 'work is done')
    expect(requestId).toMatch(/^shutdown-\d+@alice$/)
    expect(JSON.parse(inbox('alice')[1]!.text)).toMatchObject({
      type: 'shutdown_request',
      requestId,
      from: 'team-lead',
      reason: 'work is done'
    })

    const ask = {
      type: 'plan_approval_request',
      from: 'bob',
      timestamp: 't',
      planFilePath: '/p.md',
      planContent: 'Plan',
      requestId: 'plan_approval-7@bob'
    }
    writeInbox(root, TEAM, 'team-lead', [inboxMessage('bob', JSON.stringify(ask))])
    await expect(control.answerPlan(TEAM, 'bob', 'plan_approval-0@bob', true)).rejects.toThrow(
      /sent no plan approval request 'plan_approval-0@bob'/
    )
    await control.list()
    await control.answerPlan(TEAM, 'bob', 'plan_approval-7@bob', false, 'Split step 2')
    expect(JSON.parse(inbox('bob')[0]!.text)).toMatchObject({
      type: 'plan_approval_response',
      requestId: 'plan_approval-7@bob',
      approved: false,
      feedback: 'Split step 2'
    })
    await control.answerPlan(TEAM, 'bob', 'plan_approval-7@bob', true)
    expect(JSON.parse(inbox('bob')[1]!.text)).toMatchObject({ approved: true, permissionMode: 'default' })
  })

  it('refuses, saying why: an unknown owner, a completed task, a task wiped from the list, an ended team', async () => {
    await expect(control.assign(TEAM, '1', 'carol')).rejects.toThrow(
      /'carol' is not an active member .*members: team-lead, alice, bob/
    )
    await expect(control.assign(TEAM, '2', 'alice')).rejects.toThrow(/Task #2 is completed/)
    await expect(control.assign(TEAM, '9', 'alice')).rejects.toThrow(/task #9 is no longer in team/)
    expect(task('2').owner).toBeUndefined()
    rmSync(join(root, 'sessions'), { recursive: true })
    rmSync(join(root, 'teams', TEAM), { recursive: true })
    await control.list()
    await expect(control.message(TEAM, 'alice', 'hi')).rejects.toThrow(/has ended: it is read-only/)
    expect(task('1').owner).toBeUndefined()
  })
})
