import type { TaskStatus } from '../../../../shared/tasks'
import { connectedApi } from '../../store/commands'
import { appStore } from '../../store/store'
import { reorderedTasks } from '../../store/tasksSlice'
import { loadTaskOrder, saveTaskOrder } from './orderMemory'
import { errorText } from '../../lib/errorText'

/**
 * The task board's requests (docs/ui.md#the-workspace-ui): each calls one `tasks.*` channel. A refusal goes on the
 * card it is about (or the board's form), never only to the status bar: the person dragged that
 * card and must see why it did not move. Changes themselves come back as `task_updated` events.
 */

const state = () => appStore.getState()

/** Lists the session's tasks into the board, with the order remembered for that list. The board calls it whenever the slice's `wanted` grows. */
export async function refreshTaskBoard(): Promise<void> {
  try {
    const list = await connectedApi().request('tasks.list', {})
    state().applyTaskList(list, loadTaskOrder(state().workspace.cwd, list.name))
  } catch (err) {
    state().setTaskListError(`The task list could not be read: ${errorText(err)}`)
  }
}

/** Runs a request about card `id`: marked pending meanwhile, its refusal left on the card. Resolves true when main accepted it. */
async function onCard(id: number, work: () => Promise<unknown>): Promise<boolean> {
  state().setCardState(id, { pending: true })
  try {
    await work()
    state().setCardState(id, {})
    return true
  } catch (err) {
    state().setCardState(id, { error: errorText(err) })
    return false
  }
}

/** Assigns task `id` to teammate `owner` (a card dropped on its row or pane header). */
export function assignTask(id: number, owner: string): Promise<boolean> {
  return onCard(id, () => connectedApi().request('tasks.assign', { taskId: id, owner }))
}

/**
 * Moves card `id` to `status`'s column just before `beforeId` (the end when undefined): the order
 * is kept at once (and remembered), the status change asks main when the column differs.
 */
export function moveTask(id: number, status: TaskStatus, beforeId: number | undefined): Promise<boolean> {
  const tasks = state().tasks
  const order = reorderedTasks(tasks, id, status, beforeId)
  state().setTaskOrder(order)
  if (tasks.list) saveTaskOrder(state().workspace.cwd, tasks.list, order)
  if (tasks.byId[id]?.status === status) return Promise.resolve(true)
  return onCard(id, () => connectedApi().request('tasks.update', { taskId: id, status }))
}

/** A board edit of card `id` (subject, description, what it waits for). */
export function editTask(
  id: number,
  edit: { subject?: string; description?: string; addBlockedBy?: number[] }
): Promise<boolean> {
  return onCard(id, () => connectedApi().request('tasks.update', { taskId: id, ...edit }))
}

/**
 * Creates a task from the board's form.
 * @returns undefined when created, else main's refusal for the form to show.
 */
export async function createTask(fields: {
  subject: string
  description?: string
  blockedBy?: number[]
}): Promise<string | undefined> {
  try {
    await connectedApi().request('tasks.create', fields)
    return undefined
  } catch (err) {
    return errorText(err)
  }
}

/** Forgets main's refusal shown on card `id`. */
export function dismissCardError(id: number): void {
  state().setCardState(id, {})
}
