import { describe, expect, it } from 'vitest'
import { currentTaskOf, isTeammate, taskFromEvent, type TaskBrief } from './teammates'
import { agentView } from './store.testkit'

const task = (over: Partial<TaskBrief> & { id: string }): TaskBrief => ({
  subject: `task ${over.id}`,
  status: 'pending',
  seq: 1,
  ...over
})

describe('teammates', () => {
  it('knows a teammate by its backend, or by a name@team id when its start was missed', () => {
    expect(isTeammate(agentView({ agentId: 'x', backend: 'worker' }))).toBe(true)
    expect(isTeammate(agentView({ agentId: 'alice@demo' }))).toBe(true)
    expect(isTeammate(agentView({ agentId: 'a1f2e3d4c5b6a7f8' }))).toBe(false)
    expect(isTeammate(agentView({ agentId: 'team-lead' }))).toBe(false)
    expect(isTeammate(agentView({ agentId: 'team-lead@demo' }))).toBe(false)
    expect(isTeammate(undefined)).toBe(false)
  })

  it('reads the task of a task_updated event, with its integer id as text', () => {
    expect(
      taskFromEvent({ id: 3, subject: 'Fix the parser', owner: 'alice', status: 'in_progress', description: '' }, 9)
    ).toEqual({
      id: '3',
      subject: 'Fix the parser',
      owner: 'alice',
      status: 'in_progress',
      seq: 9
    })
    expect(taskFromEvent({ id: 4, subject: 'x', owner: '', status: 'pending' }, 1)).toEqual({
      id: '4',
      subject: 'x',
      status: 'pending',
      seq: 1
    })
    expect(taskFromEvent({ id: 5, subject: 'x', status: 'deleted' }, 2)?.status).toBe('deleted')
    expect(taskFromEvent({ subject: 'no id', status: 'pending' }, 1)).toBeUndefined()
    expect(taskFromEvent({ id: 6, subject: 'x', status: 'weird' }, 1)).toBeUndefined()
  })

  it('takes the newest in-progress task a teammate owns, by name', () => {
    const alice = agentView({ agentId: 'alice@t', agentName: 'alice', depth: 1, backend: 'worker' })
    const tasks = {
      '1': task({ id: '1', owner: 'alice', status: 'completed', seq: 5 }),
      '2': task({ id: '2', owner: 'alice', status: 'in_progress', seq: 3 }),
      '3': task({ id: '3', owner: 'alice', status: 'in_progress', seq: 4 }),
      '4': task({ id: '4', owner: 'bob', status: 'in_progress', seq: 6 })
    }
    expect(currentTaskOf(alice, tasks)).toBe(tasks['3'])
  })

  it('keeps the snapshot’s task until an event says otherwise', () => {
    const alice = agentView({
      agentId: 'alice@t',
      agentName: 'alice',
      depth: 1,
      backend: 'process',
      currentTask: { id: '7', subject: 'Write docs' }
    })
    expect(currentTaskOf(alice, {})).toBe(alice.currentTask)
    expect(currentTaskOf(alice, { '2': task({ id: '2', owner: 'bob', status: 'in_progress' }) })).toBe(
      alice.currentTask
    )
    expect(currentTaskOf(alice, { '7': task({ id: '7', owner: 'alice', status: 'completed' }) })).toBeUndefined()
    expect(currentTaskOf(alice, { '7': task({ id: '7', status: 'deleted' }) })).toBeUndefined()
  })

  it('gives a current task to team members only, not to a subagent sharing a member’s name', () => {
    const tasks = {
      '1': task({ id: '1', owner: 'team-lead', status: 'in_progress' }),
      '2': task({ id: '2', owner: 'Explore', status: 'in_progress' })
    }
    expect(currentTaskOf(agentView({ agentId: 'team-lead', depth: 0 }), tasks)?.id).toBe('1')
    expect(
      currentTaskOf(agentView({ agentId: 'a1', agentName: 'Explore', parentId: 'team-lead', depth: 1 }), tasks)
    ).toBeUndefined()
  })
})
