import { afterEach, describe, expect, it } from 'vitest'
import { startTeamHarness, type TeamHarness } from '../runtime/tools/team/team.testkit'
import { assignTask, createTask, listTasks, TaskBoardError, updateTask } from './taskBoard'

let h: TeamHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

/** A leader that creates team `crew`, then idles; alice and bob are added as members. */
async function crew(): Promise<TeamHarness> {
  const harness = await startTeamHarness([
    { tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }] },
    { text: 'team made' }
  ])
  await harness.prompt('make the team')
  await harness.addMembers('crew', ['alice', 'bob'])
  return harness
}

describe('task board actions', () => {
  it("creates a task with its blockers through TaskCreate, emitting task_updated, and lists the team's tasks by id", async () => {
    h = await crew()
    const first = await createTask(h.session, { subject: 'Write the parser', description: 'parse it' })
    const second = await createTask(h.session, { subject: 'Test the parser', blockedBy: [first.id] })
    expect(second).toMatchObject({ id: 2, subject: 'Test the parser', status: 'pending', blockedBy: [1] })
    expect(h.tasks('crew').get(1)!.blocks).toEqual([2])
    const listed = await listTasks(h.session)
    expect(listed).toMatchObject({ name: 'crew', team: 'crew' })
    expect(listed.tasks.map((t) => t.id)).toEqual([1, 2])
    const updated = h.ofType('task_updated').map((e) => (e.task as { id: number }).id)
    expect(updated).toContain(1)
    expect(updated).toContain(2)
  })

  it('assigning sets the owner and sends task_assignment from team-lead, exactly as TaskUpdate does', async () => {
    h = await crew()
    const task = await createTask(h.session, { subject: 'Write the parser', description: 'parse it' })
    const assigned = await assignTask(h.session, task.id, 'alice')
    expect(assigned).toMatchObject({ id: 1, owner: 'alice', status: 'pending' })
    const inbox = await h.inbox('crew', 'alice')
    expect(inbox).toHaveLength(1)
    expect(inbox[0]!.from).toBe('team-lead')
    expect(JSON.parse(inbox[0]!.text)).toEqual({
      type: 'task_assignment',
      taskId: '1',
      subject: 'Write the parser',
      description: 'parse it',
      assignedBy: 'team-lead'
    })
    expect(h.ofType('message_sent').some((e) => e.to === 'alice' && e.kind === 'task_assignment')).toBe(true)
    // the same owner again sends nothing more
    await assignTask(h.session, task.id, 'alice')
    expect(await h.inbox('crew', 'alice')).toHaveLength(1)
  })

  it('refuses an unknown teammate, a blocked task and a completed task, saying why, and changes nothing', async () => {
    h = await crew()
    const first = await createTask(h.session, { subject: 'A' })
    const second = await createTask(h.session, { subject: 'B', blockedBy: [first.id] })
    await expect(assignTask(h.session, first.id, 'zed')).rejects.toThrow(
      /zed is not a member of team 'crew' \(members: team-lead, alice, bob\)/
    )
    await expect(assignTask(h.session, second.id, 'bob')).rejects.toThrow(
      'Task #2 is blocked by #1: it can be assigned once that is completed.'
    )
    await expect(assignTask(h.session, 99, 'bob')).rejects.toBeInstanceOf(TaskBoardError)
    await updateTask(h.session, { taskId: first.id, status: 'completed' })
    await expect(assignTask(h.session, first.id, 'bob')).rejects.toThrow(/completed/)
    expect(h.tasks('crew').get(2)!.owner).toBeUndefined()
    expect(await h.inbox('crew', 'bob')).toHaveLength(0)
    // once its blocker is completed, the second can go
    expect(await assignTask(h.session, second.id, 'bob')).toMatchObject({ owner: 'bob' })
  })

  it('edits subject, description, status and blockers; an unknown blocker is refused', async () => {
    h = await crew()
    const a = await createTask(h.session, { subject: 'A' })
    const b = await createTask(h.session, { subject: 'B' })
    expect(
      await updateTask(h.session, {
        taskId: b.id,
        subject: 'B2',
        description: 'more',
        status: 'in_progress',
        addBlockedBy: [a.id]
      })
    ).toMatchObject({ subject: 'B2', description: 'more', status: 'in_progress', blockedBy: [1] })
    await expect(updateTask(h.session, { taskId: b.id, addBlockedBy: [7] })).rejects.toThrow(/#7 does not exist/)
    await expect(createTask(h.session, { subject: 'C', blockedBy: [7] })).rejects.toThrow(/#7 does not exist/)
    // A waiting for B, which waits for A, would block both forever
    const cycle = updateTask(h.session, { taskId: a.id, addBlockedBy: [b.id] })
    await expect(cycle).rejects.toBeInstanceOf(TaskBoardError)
    await expect(cycle).rejects.toThrow('#1 → #2 → #1')
    expect(h.tasks('crew').get(a.id)).toMatchObject({ blockedBy: [], blocks: [2] })
  })

  it("without a team the board lists the session's own list and refuses to assign", async () => {
    h = await startTeamHarness([{ text: 'hello' }])
    await h.prompt('hi')
    const task = await createTask(h.session, { subject: 'Solo' })
    expect((await listTasks(h.session)).team).toBeUndefined()
    await expect(assignTask(h.session, task.id, 'alice')).rejects.toThrow(/needs a team/)
  })
})
