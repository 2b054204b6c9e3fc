import { z } from 'zod'
import { pageStorage, readStored, writeStored, type KeyValueStorage } from '../../store/localMemory'

/**
 * The order of cards within the board's columns, remembered per workspace and task list in
 * localStorage (as the pane grid's memory, store/paneMemory.ts): the order is the person's
 * arrangement, not a property of the task (docs/teams.md#shared-task-list's task file has no rank), so it stays in the
 * renderer. Ids are never reused within a list, so a stale id only ranks nothing.
 */

/** Most ids remembered per list, newest last. */
export const MAX_RANKED_TASKS = 1_000

const SavedOrderSchema = z.object({
  schemaVersion: z.literal(1),
  order: z.array(z.number().int().positive()).max(MAX_RANKED_TASKS)
})

/** The storage key of a workspace's order for one task list. */
export const taskOrderKey = (cwd: string, list: string): string => `swarmdesk.taskOrder.v1:${cwd}:${list}`

/** The remembered ranking, or undefined (none yet, or an entry that does not validate). */
export function loadTaskOrder(
  cwd: string,
  list: string,
  storage: KeyValueStorage | undefined = pageStorage()
): number[] | undefined {
  return readStored(storage, taskOrderKey(cwd, list), SavedOrderSchema)?.order
}

/** Remembers `order` (its newest {@link MAX_RANKED_TASKS} ids). */
export function saveTaskOrder(
  cwd: string,
  list: string,
  order: readonly number[],
  storage: KeyValueStorage | undefined = pageStorage()
): void {
  writeStored(storage, taskOrderKey(cwd, list), { schemaVersion: 1, order: order.slice(-MAX_RANKED_TASKS) })
}
