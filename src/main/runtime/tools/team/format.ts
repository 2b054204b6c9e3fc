import type { Task } from '../../../../shared/tasks'

/**
 * One TaskList line, Claude Code's shape: `#<id> [<status>] <subject> (<owner>) [blocked by #a, #b]`.
 * Only blockers that are still open are listed (a completed or deleted blocker no longer blocks).
 */
export function taskLine(task: Task, statusOf: (id: number) => Task['status'] | undefined): string {
  const open = task.blockedBy.filter((b) => {
    const s = statusOf(b)
    return s !== undefined && s !== 'completed'
  })
  const owner = task.owner ? ` (${task.owner})` : ''
  const blocked = open.length ? ` [blocked by ${open.map((b) => `#${b}`).join(', ')}]` : ''
  return `#${task.id} [${task.status}] ${task.subject}${owner}${blocked}`
}

/** TaskList's whole answer: one line per task by id, or `No tasks found.` */
export function taskListText(tasks: readonly Task[]): string {
  if (tasks.length === 0) return 'No tasks found.'
  const byId = new Map(tasks.map((t) => [t.id, t]))
  return [...tasks]
    .sort((a, b) => a.id - b.id)
    .map((t) => taskLine(t, (id) => byId.get(id)?.status))
    .join('\n')
}

/** TaskGet's answer: every field a model needs to work on the task, one per line. */
export function taskDetailText(task: Task): string {
  const ids = (xs: number[]): string => (xs.length ? xs.map((x) => `#${x}`).join(', ') : 'none')
  return [
    `Task #${task.id}: ${task.subject}`,
    `Status: ${task.status}`,
    `Owner: ${task.owner ?? 'none'}`,
    ...(task.activeForm ? [`Active form: ${task.activeForm}`] : []),
    `Blocked by: ${ids(task.blockedBy)}`,
    `Blocks: ${ids(task.blocks)}`,
    `Description: ${task.description || '(none)'}`
  ].join('\n')
}
