import { describe, expect, it } from 'vitest'
import type { Task } from '../../../shared/tasks'
import { loadTaskOrder, saveTaskOrder } from '../features/tasks/orderMemory'
import { ev } from './store.testkit'
import { createAppStore } from './store'
import { columnTasks, openBlockers, reorderedTasks } from './tasksSlice'

function task(id: number, over: Partial<Task> = {}): Task {
  return {
    schemaVersion: 1,
    id,
    subject: `t${id}`,
    description: '',
    status: 'pending',
    blocks: [],
    blockedBy: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: `2026-01-01T00:00:0${id}.000Z`,
    ...over
  }
}

const updated = (t: Task | Record<string, unknown>) =>
  ev({ type: 'task_updated', task: t as Record<string, unknown>, agentId: 'team-lead', agentName: 'team-lead' })
const ids = (tasks: Task[]) => tasks.map((t) => t.id)

describe('tasks slice', () => {
  it('takes a listing, then task_updated events; an older copy never replaces a newer one', () => {
    const store = createAppStore()
    store.getState().applyTaskList({ name: 'crew', team: 'crew', tasks: [task(1), task(2)] })
    store
      .getState()
      .noteTaskEvent(updated(task(1, { owner: 'alice', status: 'in_progress', updatedAt: '2026-01-01T00:01:00.000Z' })))
    // a listing read before that event arrives late
    store.getState().applyTaskList({ name: 'crew', team: 'crew', tasks: [task(1), task(2), task(3)] })
    const s = store.getState().tasks
    expect(s.byId[1]).toMatchObject({ owner: 'alice', status: 'in_progress' })
    expect(ids(columnTasks(s, 'pending'))).toEqual([2, 3])
    expect(ids(columnTasks(s, 'in_progress'))).toEqual([1])
  })

  it('removes a deleted task and keeps it out of a late listing; ignores events that are not tasks', () => {
    const store = createAppStore()
    store.getState().applyTaskList({ name: 'crew', tasks: [task(1), task(2)] })
    store.getState().noteTaskEvent(updated({ ...task(2), status: 'deleted' }))
    store.getState().noteTaskEvent(updated({ id: 'x' }))
    store.getState().applyTaskList({ name: 'crew', tasks: [task(1), task(2)] })
    expect(Object.keys(store.getState().tasks.byId)).toEqual(['1'])
  })

  it('another list replaces the board and brings its own remembered order', () => {
    const store = createAppStore()
    store.getState().applyTaskList({ name: 'session-abc', tasks: [task(1)] })
    store.getState().setCardState(1, { error: 'refused' })
    store.getState().applyTaskList({ name: 'crew', team: 'crew', tasks: [task(1), task(2)] }, [2, 1])
    const s = store.getState().tasks
    expect(s.list).toBe('crew')
    expect(s.cards).toEqual({})
    expect(ids(columnTasks(s, 'pending'))).toEqual([2, 1])
  })

  it('reorders within a column and ranks a card moved to another column where it was dropped', () => {
    const store = createAppStore()
    store
      .getState()
      .applyTaskList({ name: 'crew', tasks: [task(1), task(2), task(3), task(4, { status: 'completed' })] })
    const s = () => store.getState().tasks
    store.getState().setTaskOrder(reorderedTasks(s(), 3, 'pending', 1))
    expect(ids(columnTasks(s(), 'pending'))).toEqual([3, 1, 2])
    store.getState().setTaskOrder(reorderedTasks(s(), 3, 'pending', undefined))
    expect(ids(columnTasks(s(), 'pending'))).toEqual([1, 2, 3])
    // moved into completed before #4: once its status changes it shows there
    store.getState().setTaskOrder(reorderedTasks(s(), 2, 'completed', 4))
    store.getState().noteTaskEvent(updated(task(2, { status: 'completed', updatedAt: '2026-01-02T00:00:00.000Z' })))
    expect(ids(columnTasks(s(), 'completed'))).toEqual([2, 4])
    expect(ids(columnTasks(s(), 'pending'))).toEqual([1, 3])
  })

  it('names the unfinished blockers of a card', () => {
    const store = createAppStore()
    store.getState().applyTaskList({
      name: 'crew',
      tasks: [task(1), task(2, { status: 'completed' }), task(3, { blockedBy: [1, 2, 9] })]
    })
    const s = store.getState().tasks
    expect(ids(openBlockers(s, s.byId[3]!))).toEqual([1])
  })

  it("keeps a card's refusal until dismissed, and the drop target under a dragged card", () => {
    const store = createAppStore()
    store.getState().setCardState(5, { pending: true })
    store.getState().setCardState(5, { error: 'Task #5 is blocked by #1' })
    expect(store.getState().tasks.cards[5]).toEqual({ error: 'Task #5 is blocked by #1' })
    store.getState().setCardState(5, {})
    expect(store.getState().tasks.cards).toEqual({})
    store.getState().setTaskDropTarget('alice')
    expect(store.getState().tasks.dropTarget).toBe('alice')
  })

  it("drops a card's refusal once its task or a task it waits for changes, and keeps the others", () => {
    const store = createAppStore()
    store.getState().applyTaskList({ name: 'crew', tasks: [task(1), task(2, { blockedBy: [1] }), task(3), task(4)] })
    store.getState().setCardState(2, { error: 'Task #2 is blocked by #1' })
    store.getState().setCardState(3, { error: 'bob is not a member' })
    store.getState().setCardState(4, { error: 'refused' })
    // #1 gaining a dependant leaves #2 as blocked as it was: its refusal stays
    store.getState().noteTaskEvent(updated(task(1, { blocks: [2], updatedAt: '2026-01-01T00:01:30.000Z' })))
    expect(Object.keys(store.getState().tasks.cards)).toEqual(['2', '3', '4'])
    store.getState().noteTaskEvent(updated(task(1, { status: 'completed', updatedAt: '2026-01-01T00:02:00.000Z' })))
    expect(Object.keys(store.getState().tasks.cards)).toEqual(['3', '4'])
    store.getState().noteTaskEvent(updated(task(4, { subject: 'renamed', updatedAt: '2026-01-01T00:03:00.000Z' })))
    expect(store.getState().tasks.cards).toEqual({ 3: { error: 'bob is not a member' } })
    // an older copy changes nothing, so it ends nothing either
    store.getState().noteTaskEvent(updated(task(3, { updatedAt: '2025-01-01T00:00:00.000Z' })))
    expect(store.getState().tasks.cards).toEqual({ 3: { error: 'bob is not a member' } })
    // nor does a second copy of the same write (a watcher reporting it twice)
    store.getState().noteTaskEvent(updated(task(4, { subject: 'renamed', updatedAt: '2026-01-01T00:03:00.000Z' })))
    store.getState().setCardState(4, { error: 'refused again' })
    store.getState().noteTaskEvent(updated(task(4, { subject: 'renamed', updatedAt: '2026-01-01T00:03:00.000Z' })))
    expect(store.getState().tasks.cards[4]).toEqual({ error: 'refused again' })
  })

  it('remembers the order per workspace and list', () => {
    const map = new Map<string, string>()
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v)
    }
    saveTaskOrder('/w', 'crew', [3, 1], storage)
    expect(loadTaskOrder('/w', 'crew', storage)).toEqual([3, 1])
    expect(loadTaskOrder('/w', 'other', storage)).toBeUndefined()
    expect(loadTaskOrder('/x', 'crew', storage)).toBeUndefined()
  })
})

describe('tasks slice listing requests', () => {
  it('a listing keeps the count of requests to list again, which only grows', () => {
    const store = createAppStore()
    store.getState().wantTaskList()
    store.getState().applyTaskList({ name: 'crew', tasks: [] })
    store.getState().wantTaskList()
    expect(store.getState().tasks.wanted).toBe(2)
  })
})
