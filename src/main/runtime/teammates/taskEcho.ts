import type { RuntimeEvent } from '../../../shared/events'
import type { Task, TaskChange } from '../../../shared/tasks'
import type { Disposable } from '../base'

/** Milliseconds a task change waits for the tool that made it to report it, before it is reported from the task folder. */
export const TASK_ECHO_MS = 150

/**
 * Puts task changes no tool reported on the stream as `task_updated` (docs/events.md#event-stream-and-command-line): a teammate's
 * runner claims and releases tasks itself, and a process teammate's events never reach the
 * leader's bus, so pane headers and the dashboard would miss its current task. A change seen by
 * `watch` is reported after {@link TASK_ECHO_MS}, only when no `task_updated` with the same state
 * was seen on the bus meanwhile (the tool's own, in its caller's name); `report` gets the task and
 * the name to report it as: its owner, else its previous owner, else undefined. Disposing reports
 * what is still waiting (a TeamDelete right after a release), then stops.
 */
export function echoTaskChanges(options: {
  /** Subscribes to every change of the task list (the team store's `tasks.watch`). */
  watch: (listener: (change: TaskChange) => void) => Disposable
  onEvent: (listener: (event: RuntimeEvent) => void) => Disposable
  report: (task: Task, owner: string | undefined) => void
}): Disposable {
  const seen = new Map<number, string>()
  const owners = new Map<number, string>()
  const pending = new Map<NodeJS.Timeout, () => void>()
  const bus = options.onEvent((event) => {
    if (event.type !== 'task_updated') return
    const task = event.task as Task
    seen.set(task.id, JSON.stringify(task))
    if (task.owner) owners.set(task.id, task.owner)
  })
  const sub = options.watch((change) => {
    if (change.type !== 'updated') return
    const state = JSON.stringify(change.task)
    const report = (): void => {
      pending.delete(timer)
      if (seen.get(change.task.id) !== state)
        options.report(change.task, change.task.owner ?? owners.get(change.task.id))
    }
    const timer = setTimeout(report, TASK_ECHO_MS)
    pending.set(timer, report)
  })
  return {
    dispose: () => {
      sub.dispose()
      for (const [timer, report] of [...pending]) {
        clearTimeout(timer)
        report()
      }
      bus.dispose()
    }
  }
}
