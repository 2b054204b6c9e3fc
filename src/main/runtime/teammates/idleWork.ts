import { basename } from 'node:path'
import type { Task } from '../../../shared/tasks'
import { DEFAULT_POLL_MS } from '../mailbox'
import { decideClaim, TASK_FILE, type TaskListing, type TaskRead } from '../tasks'
import type { TeamStorePort } from '../teamStore'

// What an idle teammate looks for between turns (docs/teams.md#teammate-life-cycle, docs/teams.md#shared-task-list): the next task it may claim, or
// else a wait for a message or a change of the task list.

/**
 * The tasks `name` may take now, best first: pending ones assigned to it, then unowned ones, each
 * group by id. "May take" is exactly what a claim would accept ({@link decideClaim}: not blocked,
 * and `name` not busy with another task), so a non-empty answer never leads to a refused claim and
 * an idle teammate never spins on a task it cannot have.
 */
export function claimableTasks({ tasks: all, problems }: TaskListing, name: string): Task[] {
  const byId = new Map(all.map((t) => [t.id, t]))
  const read = (id: number): TaskRead => {
    const task = byId.get(id)
    if (task) return { task }
    const problem = problems.find((p) => TASK_FILE.exec(basename(p.file))?.[1] === String(id))
    return problem ? { problem } : { missing: true }
  }
  return all
    .filter((t) => t.status === 'pending' && (t.owner === undefined || t.owner === name))
    .filter((t) => decideClaim(t, name, read, () => all) === undefined)
    .sort((a, b) => Number(a.owner !== name) - Number(b.owner !== name) || a.id - b.id)
}

/** Claims the first of {@link claimableTasks}; undefined when none can be had. */
export async function claimNextTask(
  listing: TaskListing,
  claim: (id: number) => Promise<{ ok: boolean; task?: Task }>,
  name: string
): Promise<Task | undefined> {
  for (const t of claimableTasks(listing, name)) {
    const result = await claim(t.id)
    if (result.ok && result.task) return result.task
  }
  return undefined
}

/**
 * Resolves when a message arrives, the task list changes or a task became claimable; rejects only
 * on a mailbox error, never on abort. The task list is looked at again once its watch is up (a task
 * created between the caller's look and the watch raised no event for it) and then every
 * {@link DEFAULT_POLL_MS} as the fallback for a watch that misses events, as the inbox has.
 * `store` is the team store (docs/nats.md#the-team-store): its inbox wait and task watch are a
 * folder's on files and server pushes on JetStream.
 */
export async function waitForWork(
  store: Pick<TeamStorePort, 'mailbox' | 'tasks'>,
  team: string,
  name: string,
  stop: AbortSignal
): Promise<void> {
  const changed = new AbortController()
  // `stop` may have fired already (a SIGTERM during the last read): any() is aborted at once then
  const signal = AbortSignal.any([stop, changed.signal])
  const watch = store.tasks.watch(team, () => changed.abort())
  const lookAtTasks = async (): Promise<void> => {
    try {
      if (claimableTasks(await store.tasks.listing(team), name).length) changed.abort()
    } catch {
      // an unreadable task list is reported by the next claim attempt
    }
  }
  const poll = setInterval(() => void lookAtTasks(), DEFAULT_POLL_MS)
  try {
    await watch.ready.catch(() => undefined)
    await lookAtTasks()
    if (signal.aborted) return
    await store.mailbox.waitForMessage(team, name, { signal })
  } catch (error) {
    if (!signal.aborted) throw error
  } finally {
    clearInterval(poll)
    watch.dispose()
  }
}
