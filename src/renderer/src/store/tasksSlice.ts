import type { StateCreator } from 'zustand/vanilla'
import type { RuntimeEvent } from '../../../shared/events'
import type { TaskBoardList } from '../../../shared/ipc'
import { TaskSchema, type Task, type TaskStatus } from '../../../shared/tasks'
import type { AppState } from './store'

/** The board's columns, left to right (docs/ui.md#the-workspace-ui task board). */
export const TASK_COLUMNS: readonly TaskStatus[] = ['pending', 'in_progress', 'completed']

/** What the person is doing to one card right now, or what main last refused. */
export interface CardState {
  /** A request for this card is on its way (its drag or edit waits for main's answer). */
  pending?: boolean
  /**
   * Main's refusal of the last request for this card (an unknown teammate, a blocked task…), until
   * dismissed or until the card's task, or a task it waits for, changes.
   */
  error?: string
}

/**
 * The shared task list as the task board shows it (docs/teams.md#shared-task-list, docs/ui.md#the-workspace-ui), fed by `tasks.list` (on every
 * snapshot and team change) and `task_updated` runtime events, plus the board's own UI state.
 * `tasks` is keyed by id; a copy never replaces a newer one (`updatedAt`), so a listing answered
 * before an event cannot undo it. `order` ranks ids for the order within a column: it is the
 * person's (dragging within a column), remembered per workspace and list (features/tasks/orderMemory.ts);
 * ids it does not rank follow the ranked ones by id.
 */
export interface TasksSlice {
  tasks: {
    /** The list shown (`tasks.list`'s `name`); undefined before the first listing. */
    list: string | undefined
    byId: Readonly<Record<number, Task>>
    /** Ids deleted since the board opened: a late listing must not bring them back (ids are never reused). */
    deleted: Readonly<Record<number, true>>
    order: readonly number[]
    cards: Readonly<Record<number, CardState>>
    /** The teammate (agent name) under the card being dragged, for its row's and header's highlight. */
    dropTarget: string | undefined
    /** Why the last listing failed. */
    error: string | undefined
    /**
     * Grows each time the list must be read again (a snapshot: first paint or a reconnect; the
     * session's team changed); the mounted board lists on every change (features/tasks/TaskBoard.tsx).
     */
    wanted: number
  }
  /** Takes a `tasks.list` answer; another list replaces everything, with its remembered `order`. */
  applyTaskList(list: TaskBoardList, order?: readonly number[]): void
  /** Applies a `task_updated` event (a deleted task carries `status: "deleted"`); other events are ignored. */
  noteTaskEvent(event: RuntimeEvent): void
  setCardState(id: number, state: CardState): void
  setTaskOrder(order: readonly number[]): void
  setTaskDropTarget(name: string | undefined): void
  setTaskListError(error: string | undefined): void
  /** Asks the board to list the tasks again (see `wanted`). */
  wantTaskList(): void
}

type TasksState = TasksSlice['tasks']

const EMPTY: TasksState = {
  list: undefined,
  byId: {},
  deleted: {},
  order: [],
  cards: {},
  dropTarget: undefined,
  error: undefined,
  wanted: 0
}

/**
 * `task` merged into `byId` unless the copy there is newer or the same. `byId` itself comes back
 * when nothing changed: a task file's watcher can report one write twice, and a repeated copy must
 * not count as a change (it would end the refusals on the cards, see `withoutStaleRefusals`).
 */
function upsert(byId: TasksState['byId'], task: Task): TasksState['byId'] {
  const known = byId[task.id]
  if (known && known.updatedAt > task.updatedAt) return byId
  if (known && known.updatedAt === task.updatedAt && JSON.stringify(known) === JSON.stringify(task)) return byId
  return { ...byId, [task.id]: task }
}

/**
 * `cards` without the refusals a change of task `changed` may have ended: the changed task's own,
 * and, when its status moved (`statusMoved`), those of the tasks it blocks ("blocked by #4" no
 * longer holds once #4 moves on; #4 merely gaining a dependant changes nothing for them). A refusal
 * that still holds is given again at the next try; one left up after it ended misleads.
 */
function withoutStaleRefusals(
  cards: TasksState['cards'],
  byId: TasksState['byId'],
  changed: number,
  statusMoved: boolean
): TasksState['cards'] {
  let next: Record<number, CardState> | undefined
  for (const [key, card] of Object.entries(cards)) {
    const id = Number(key)
    if (!card.error || (id !== changed && !(statusMoved && byId[id]?.blockedBy.includes(changed)))) continue
    next ??= { ...cards }
    if (card.pending) next[id] = { pending: true }
    else delete next[id]
  }
  return next ?? cards
}

/** Creates the tasks slice. */
export const createTasksSlice: StateCreator<AppState, [], [], TasksSlice> = (set) => ({
  tasks: EMPTY,
  applyTaskList: (list, order) =>
    set((s) => {
      const same = s.tasks.list === list.name
      const base = same
        ? s.tasks
        : { ...EMPTY, dropTarget: s.tasks.dropTarget, wanted: s.tasks.wanted, order: order ?? [] }
      // the listing is the whole list: a task absent from it is gone; a copy newer than the listed one stays
      let byId: TasksState['byId'] = {}
      for (const t of list.tasks)
        if (!base.deleted[t.id])
          byId = upsert(
            byId,
            same && base.byId[t.id] && base.byId[t.id]!.updatedAt > t.updatedAt ? base.byId[t.id]! : t
          )
      return { tasks: { ...base, list: list.name, byId, error: undefined } }
    }),
  noteTaskEvent: (event) => {
    if (event.type !== 'task_updated') return
    const raw = event.task as { id?: unknown; status?: unknown }
    if (raw.status === 'deleted' && typeof raw.id === 'number') {
      const id = raw.id
      return set((s) => {
        const { [id]: _gone, ...byId } = s.tasks.byId
        const { [id]: _card, ...cards } = s.tasks.cards
        return { tasks: { ...s.tasks, byId, cards, deleted: { ...s.tasks.deleted, [id]: true } } }
      })
    }
    const parsed = TaskSchema.safeParse(event.task)
    if (!parsed.success) return
    const task = parsed.data
    set((s) => {
      if (s.tasks.deleted[task.id]) return s
      const byId = upsert(s.tasks.byId, task)
      if (byId === s.tasks.byId) return s
      const statusMoved = s.tasks.byId[task.id]?.status !== task.status
      return { tasks: { ...s.tasks, byId, cards: withoutStaleRefusals(s.tasks.cards, byId, task.id, statusMoved) } }
    })
  },
  setCardState: (id, state) =>
    set((s) => {
      const { [id]: _old, ...rest } = s.tasks.cards
      return { tasks: { ...s.tasks, cards: state.pending || state.error ? { ...rest, [id]: state } : rest } }
    }),
  setTaskOrder: (order) => set((s) => ({ tasks: { ...s.tasks, order: [...order] } })),
  setTaskDropTarget: (name) =>
    set((s) => (s.tasks.dropTarget === name ? s : { tasks: { ...s.tasks, dropTarget: name } })),
  setTaskListError: (error) => set((s) => ({ tasks: { ...s.tasks, error } })),
  wantTaskList: () => set((s) => ({ tasks: { ...s.tasks, wanted: s.tasks.wanted + 1 } }))
})

/** Tasks of one column in board order: ranked ids first as `order` ranks them, then the rest by id. */
export function columnTasks(tasks: TasksState, status: TaskStatus): Task[] {
  const rank = new Map(tasks.order.map((id, i) => [id, i]))
  return Object.values(tasks.byId)
    .filter((t) => t.status === status)
    .sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity) || a.id - b.id)
}

/**
 * The ranking after moving `id` into `status`'s column just before `beforeId` (at the column's
 * end when undefined). Every task of the column is ranked afterwards, so the order shown is
 * exactly the order stored.
 */
export function reorderedTasks(
  tasks: TasksState,
  id: number,
  status: TaskStatus,
  beforeId: number | undefined
): number[] {
  const column = columnTasks(tasks, status)
    .map((t) => t.id)
    .filter((x) => x !== id)
  const at = beforeId === undefined ? column.length : Math.max(0, column.indexOf(beforeId))
  column.splice(at === -1 ? column.length : at, 0, id)
  const inColumn = new Set(column)
  const others = tasks.order.filter((x) => !inColumn.has(x))
  return [...others, ...column]
}

/** The unfinished tasks `task` waits for (its blocked-by chips); a blocker not on the board counts as finished. */
export function openBlockers(tasks: TasksState, task: Task): Task[] {
  return task.blockedBy.map((b) => tasks.byId[b]).filter((b): b is Task => b !== undefined && b.status !== 'completed')
}
