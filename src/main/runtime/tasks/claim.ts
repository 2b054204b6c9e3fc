import type { ClaimResult, Task } from '../../../shared/tasks'
import type { TaskRead } from './files'

type Refusal = Extract<ClaimResult, { ok: false }>

/**
 * Why `agent` may not claim `task`, or `undefined` when it may. Called under the team lock.
 *
 * Rules, checked in this order (docs/teams.md#shared-task-list; the busy rule follows Claude Code's claim with its busy
 * check, so an idle teammate's "claim the next task" cannot pile up work it is not doing):
 * 1. `already_claimed`: the task is completed, or another agent owns it. Claiming a task one
 *    already owns succeeds (a task assigned to an agent is claimed by it to start work).
 * 2. `blocked`: a task in `blockedBy` — or a task listing this one in its `blocks`, in case a crash
 *    left a link one-sided — exists and is not completed. A blocker whose file is unreadable
 *    blocks (its state is unknown); a deleted one does not (deletion removes links anyway).
 * 3. `agent_busy`: the agent owns another task that is `in_progress`. Pending tasks assigned to it
 *    do not count.
 */
export function decideClaim(
  task: Task,
  agent: string,
  readBlocker: (id: number) => TaskRead,
  allTasks: () => Iterable<Task>
): Refusal | undefined {
  if (task.status === 'completed' || (task.owner !== undefined && task.owner !== agent)) {
    return { ok: false, reason: 'already_claimed', task }
  }
  const unfinished = task.blockedBy.filter((b) => {
    const r = readBlocker(b)
    return 'problem' in r || ('task' in r && r.task.status !== 'completed')
  })
  const busyWith: number[] = []
  for (const t of allTasks()) {
    if (t.id === task.id) continue
    if (t.blocks.includes(task.id) && t.status !== 'completed' && !unfinished.includes(t.id)) unfinished.push(t.id)
    if (t.owner === agent && t.status === 'in_progress') busyWith.push(t.id)
  }
  if (unfinished.length > 0) return { ok: false, reason: 'blocked', task, taskIds: unfinished.sort((a, b) => a - b) }
  if (busyWith.length > 0) return { ok: false, reason: 'agent_busy', task, taskIds: busyWith }
  return undefined
}
