import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sessionTaskListName } from '../../teamStore'
import { startTeamHarness, type TeamHarness } from './team.testkit'

let h: TeamHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const call = (name: string, input: Record<string, unknown>) => ({ name, input })
const turn = (...tools: Array<ReturnType<typeof call>>) => ({ tools })

describe('task tools', () => {
  it('TaskCreate after TeamCreate answers exactly "Task #<id> created: <subject>" and writes the task under the team', async () => {
    h = await startTeamHarness([
      turn(
        call('TeamCreate', { team_name: 'Build Crew', description: 'ships it' }),
        call('TaskCreate', {
          subject: 'Write the parser',
          description: 'parse the input',
          activeForm: 'Writing the parser'
        })
      ),
      { text: 'done' }
    ])
    await h.prompt('go')
    const [team, created] = h.results()
    expect(team!.isError).toBe(false)
    expect(team!.output).toContain("Team 'build-crew' created")
    expect(existsSync(join(h.home, 'teams', 'build-crew', 'config.json'))).toBe(true)
    expect(created).toEqual({ isError: false, output: 'Task #1 created: Write the parser' })
    expect(h.tasks('build-crew').get(1)).toMatchObject({
      subject: 'Write the parser',
      description: 'parse the input',
      activeForm: 'Writing the parser',
      status: 'pending'
    })
    expect(h.session.team?.team()).toBe('build-crew')
  })

  it("without a team the task tools use the session's own list", async () => {
    h = await startTeamHarness([turn(call('TaskCreate', { subject: 'Solo work', description: '' })), { text: 'done' }])
    await h.prompt('go')
    expect(h.results()[0]!.output).toBe('Task #1 created: Solo work')
    const list = sessionTaskListName(h.session.sessionId)
    expect(existsSync(join(h.home, 'tasks', list, '1.json'))).toBe(true)
  })

  it('assigning a task to a teammate puts a task_assignment in its inbox; assigning it to oneself sends nothing', async () => {
    h = await startTeamHarness([
      turn(
        call('TeamCreate', { team_name: 'crew' }),
        call('TaskCreate', { subject: 'A', description: 'do a' }),
        call('TaskCreate', { subject: 'B', description: 'do b' })
      ),
      { text: 'team made' },
      turn(
        call('TaskUpdate', { taskId: '1', owner: 'alice' }),
        call('TaskUpdate', { taskId: '2', owner: 'team-lead', status: 'in_progress' })
      ),
      { text: 'assigned' }
    ])
    await h.prompt('make the team')
    await h.addMembers('crew', ['alice'])
    await h.prompt('assign')
    const [, , , toAlice, toSelf] = h.results()
    expect(toAlice).toEqual({ isError: false, output: 'Updated task #1 owner' })
    expect(toSelf).toEqual({ isError: false, output: 'Updated task #2 status, owner' })
    const inbox = await h.inbox('crew', 'alice')
    expect(inbox).toHaveLength(1)
    expect(inbox[0]!.from).toBe('team-lead')
    expect(JSON.parse(inbox[0]!.text)).toMatchObject({
      type: 'task_assignment',
      taskId: '1',
      subject: 'A',
      description: 'do a',
      assignedBy: 'team-lead'
    })
    expect(await h.inbox('crew', 'team-lead')).toEqual([])
    expect(h.ofType('message_sent')).toEqual([
      expect.objectContaining({ from: 'team-lead', to: 'alice', kind: 'task_assignment', agentName: 'team-lead' })
    ])
  })

  it('TaskList shows id, status, owner, subject and open blockers; TaskGet shows one task in full', async () => {
    h = await startTeamHarness([
      turn(
        call('TeamCreate', { team_name: 'crew' }),
        call('TaskCreate', { subject: 'Design', description: 'sketch it' }),
        call('TaskCreate', { subject: 'Build', description: 'make it' }),
        call('TaskCreate', { subject: 'Ship', description: 'release it' }),
        call('TaskUpdate', { taskId: '2', addBlockedBy: ['1'] }),
        call('TaskUpdate', { taskId: 3, addBlockedBy: ['#2'], owner: 'team-lead' }),
        call('TaskUpdate', { taskId: '1', status: 'in_progress', owner: 'team-lead' }),
        call('TaskList', {}),
        call('TaskGet', { taskId: '2' }),
        call('TaskGet', { taskId: '9' })
      ),
      { text: 'done' }
    ])
    await h.prompt('go')
    const results = h.results()
    expect(results[7]!.output).toBe(
      [
        '#1 [in_progress] Design (team-lead)',
        '#2 [pending] Build [blocked by #1]',
        '#3 [pending] Ship (team-lead) [blocked by #2]'
      ].join('\n')
    )
    expect(results[8]!.output).toBe(
      ['Task #2: Build', 'Status: pending', 'Owner: none', 'Blocked by: #1', 'Blocks: #3', 'Description: make it'].join(
        '\n'
      )
    )
    expect(results[9]).toEqual({ isError: true, output: expect.stringContaining('Task #9 does not exist') })
  })

  it('status "deleted" removes the task file and the task from every other task\'s links', async () => {
    h = await startTeamHarness([
      turn(
        call('TeamCreate', { team_name: 'crew' }),
        call('TaskCreate', { subject: 'First', description: '' }),
        call('TaskCreate', { subject: 'Second', description: '' }),
        call('TaskCreate', { subject: 'Third', description: '' }),
        call('TaskUpdate', { taskId: '2', addBlockedBy: ['1'], addBlocks: ['3'] }),
        call('TaskUpdate', { taskId: '2', status: 'deleted' }),
        call('TaskCreate', { subject: 'Fourth', description: '' })
      ),
      { text: 'done' }
    ])
    await h.prompt('go')
    const results = h.results()
    expect(results[5]).toEqual({ isError: false, output: 'Task #2 deleted' })
    expect(results[6]!.output).toBe('Task #4 created: Fourth')
    const dir = join(h.home, 'tasks', 'crew')
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
    ).toEqual(['1.json', '3.json', '4.json'])
    const store = h.tasks('crew')
    expect(store.get(1)).toMatchObject({ blocks: [], blockedBy: [] })
    expect(store.get(3)).toMatchObject({ blocks: [], blockedBy: [] })
    const deleted = h
      .ofType('task_updated')
      .filter((e) => e.task.id === 2)
      .at(-1)
    expect(deleted!.task).toMatchObject({ id: 2, status: 'deleted' })
  })

  it("task_updated events carry the whole task after each change, in the caller's name", async () => {
    h = await startTeamHarness([
      turn(
        call('TeamCreate', { team_name: 'crew' }),
        call('TaskCreate', { subject: 'Only', description: 'the one' }),
        call('TaskUpdate', { taskId: '1', status: 'in_progress', owner: 'team-lead' })
      ),
      { text: 'done' }
    ])
    await h.prompt('go')
    const events = h.ofType('task_updated')
    expect(events).toHaveLength(2)
    for (const e of events) expect(e).toMatchObject({ agentId: 'team-lead', agentName: 'team-lead' })
    expect(events[0]!.task).toEqual(
      expect.objectContaining({
        id: 1,
        subject: 'Only',
        description: 'the one',
        status: 'pending',
        blocks: [],
        blockedBy: [],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        schemaVersion: 1
      })
    )
    expect(events[1]!.task).toEqual(h.tasks('crew').get(1))
    expect(events[1]!.task).toMatchObject({ status: 'in_progress', owner: 'team-lead' })
  })

  it('TaskUpdate that would close a dependency cycle is a tool error naming the cycle, and changes nothing', async () => {
    h = await startTeamHarness([
      turn(
        call('TeamCreate', { team_name: 'crew' }),
        call('TaskCreate', { subject: 'One', description: '' }),
        call('TaskCreate', { subject: 'Two', description: '' }),
        call('TaskUpdate', { taskId: '2', addBlockedBy: ['1'] }),
        call('TaskUpdate', { taskId: '1', addBlockedBy: ['2'], status: 'in_progress' }),
        call('TaskUpdate', { taskId: '2', addBlocks: ['1'] })
      ),
      { text: 'done' }
    ])
    await h.prompt('go')
    const [, , , linked, closing, closingOtherWay] = h.results()
    expect(linked).toEqual({ isError: false, output: 'Updated task #2 addBlockedBy' })
    expect(closing).toEqual({ isError: true, output: expect.stringContaining('#1 → #2 → #1') })
    expect(closingOtherWay).toEqual({ isError: true, output: expect.stringContaining('#2 → #1 → #2') })
    const store = h.tasks('crew')
    expect(store.get(1)).toMatchObject({ status: 'pending', blocks: [2], blockedBy: [] })
    expect(store.get(2)).toMatchObject({ blocks: [], blockedBy: [1] })
    expect(
      h.ofType('task_updated').filter((e) => e.task.id === 1 && (e.task.blockedBy as number[]).length > 0)
    ).toEqual([])
  })
})
