import { mkdirSync, watch } from 'node:fs'
import type { TaskChange } from '../../../shared/tasks'
import { toDisposable, type Disposable } from '../base'
import { listTaskIds, readTaskFile, TASK_FILE } from './files'

/** Receives every change to a team's task list. */
export type TaskChangeListener = (change: TaskChange) => void

/**
 * Watches the team's task folder (created if missing) and feeds `listener` from two sources: the
 * store's own writes (`local`, at once) and `fs.watch` events (other stores, other processes). The
 * folder is watched, not the files: atomic renames replace files, and a watch on a single file
 * misses them (STACK.md: 3 of 10 seen). Each task's last delivered state is remembered so the two
 * sources, and the several events one rename raises, deliver a state once.
 */
export function watchTasks(
  dir: string,
  team: string,
  listener: TaskChangeListener,
  local: Set<TaskChangeListener>
): Disposable {
  mkdirSync(dir, { recursive: true })
  const last = new Map<number, string>()
  const deliver = (change: TaskChange) => {
    const id = change.type === 'updated' ? change.task.id : change.id
    const key = change.type === 'updated' ? JSON.stringify(change.task) : 'deleted'
    if (last.get(id) === key) return
    last.set(id, key)
    listener(change)
  }
  const readOne = (id: number) => {
    const r = readTaskFile(dir, id)
    if ('task' in r) deliver({ type: 'updated', team, task: r.task })
    else if ('missing' in r) deliver({ type: 'deleted', team, id })
    // an invalid file is reported by list(); a notice cannot carry it
  }
  const watcher = watch(dir, (_event, filename) => {
    if (!filename) {
      for (const id of listTaskIds(dir)) readOne(id)
      return
    }
    const m = TASK_FILE.exec(filename.toString())
    if (m) readOne(Number(m[1]))
  })
  watcher.on('error', () => watcher.close())
  local.add(deliver)
  return toDisposable(() => {
    local.delete(deliver)
    watcher.close()
  })
}
