import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { TaskSchema, type Task } from '../../../shared/tasks'
import { createFileExclusiveSync, writeFileAtomicSync } from '../locks'
import { TaskFileError } from './errors'

/** `{id}.json`: the only names in a team's task folder that are tasks. */
export const TASK_FILE = /^([1-9][0-9]*)\.json$/

/** `<home>/tasks/{team}` (docs/storage.md#layout). */
export function taskDir(home: string, team: string): string {
  return join(home, 'tasks', team)
}

/** Path of task `id`'s file. */
export function taskPath(dir: string, id: number): string {
  return join(dir, `${id}.json`)
}

/** Result of reading one task file: the task, `missing`, or the problem (file named). */
export type TaskRead = { task: Task } | { missing: true } | { problem: TaskFileError }

/** Reads and validates one task file. Never throws for a bad file: the problem is returned. */
export function readTaskFile(dir: string, id: number): TaskRead {
  const file = taskPath(dir, id)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true }
    throw error
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { problem: new TaskFileError(file, `not valid JSON (${(error as Error).message})`) }
  }
  const parsed = TaskSchema.safeParse(json)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    return { problem: new TaskFileError(file, `not a task: ${first.path.join('.') || '(root)'} ${first.message}`) }
  }
  if (parsed.data.id !== id) return { problem: new TaskFileError(file, `its id is ${parsed.data.id}, not ${id}`) }
  return { task: parsed.data }
}

/** Ids of the task files present, ascending. */
export function listTaskIds(dir: string): number[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  const ids: number[] = []
  for (const n of names) {
    const m = TASK_FILE.exec(n)
    if (m) ids.push(Number(m[1]))
  }
  return ids.sort((a, b) => a - b)
}

/** Every readable task, by id, and the problems of the unreadable ones. */
export interface TaskSnapshot {
  tasks: Map<number, Task>
  problems: TaskFileError[]
}

/** Reads the whole folder; bad files are reported and skipped, never fatal. */
export function readAllTasks(dir: string): TaskSnapshot {
  const tasks = new Map<number, Task>()
  const problems: TaskFileError[] = []
  for (const id of listTaskIds(dir)) {
    const r = readTaskFile(dir, id)
    if ('task' in r) tasks.set(id, r.task)
    else if ('problem' in r) problems.push(r.problem)
  }
  return { tasks, problems }
}

/** Rewrites a task file atomically (temp + rename). */
export function writeTask(dir: string, task: Task): void {
  writeFileAtomicSync(taskPath(dir, task.id), JSON.stringify(task, null, 2) + '\n')
}

const HWM = '.highwatermark'

/** The highest id ever handed out in this folder (0 when none). */
export function readHighWaterMark(dir: string): number {
  try {
    const n = Number(readFileSync(join(dir, HWM), 'utf8').trim())
    return Number.isInteger(n) && n > 0 ? n : 0
  } catch {
    return 0
  }
}

/** Raises the high-water mark to `id`; never lowers it. */
export function raiseHighWaterMark(dir: string, id: number): void {
  if (readHighWaterMark(dir) < id) writeFileAtomicSync(join(dir, HWM), `${id}\n`)
}

/**
 * Creates the next task file exclusively and returns its task (docs/teams.md#shared-task-list). The candidate id is one
 * past the high-water mark; the file appears whole by `link(2)` of a complete temp file, which fails
 * with EEXIST instead of overwriting — on EEXIST the next id is tried (so a crash between creating
 * a file and raising the mark costs nothing). Then the mark is raised. Deleting raises the mark to
 * the deleted id first, so no id is handed out twice while `.highwatermark` exists.
 */
export function createTaskFile(dir: string, build: (id: number) => Task): Task {
  mkdirSync(dir, { recursive: true })
  let id = readHighWaterMark(dir) + 1
  for (;;) {
    const task = build(id)
    if (createFileExclusiveSync(taskPath(dir, id), JSON.stringify(task, null, 2) + '\n')) {
      raiseHighWaterMark(dir, id)
      return task
    }
    id++
  }
}

/**
 * Remembers parsed task files by identity (inode, change time in ns, size), so a scan of the whole
 * list costs one `stat` per unchanged file instead of a read and a parse — the claim's busy check
 * scans every task under the lock. Files are replaced by rename, so a change gives a new inode and
 * change time; a file replaced between the `stat` and the read is re-read on the next scan.
 */
export class TaskFileCache {
  private readonly entries = new Map<number, { key: string; read: TaskRead }>()

  constructor(private readonly dir: string) {}

  /** Like {@link readTaskFile}, from the cache when the file has not changed. */
  read(id: number): TaskRead {
    let key: string
    try {
      const st = statSync(taskPath(this.dir, id), { bigint: true })
      key = `${st.ino}:${st.ctimeNs}:${st.size}`
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      this.entries.delete(id)
      return { missing: true }
    }
    const hit = this.entries.get(id)
    if (hit?.key === key) return hit.read
    const read = readTaskFile(this.dir, id)
    if ('missing' in read) this.entries.delete(id)
    else this.entries.set(id, { key, read })
    return read
  }

  /** Like {@link readAllTasks}, from the cache for unchanged files. */
  readAll(): TaskSnapshot {
    const tasks = new Map<number, Task>()
    const problems: TaskFileError[] = []
    const ids = listTaskIds(this.dir)
    for (const id of ids) {
      const r = this.read(id)
      if ('task' in r) tasks.set(id, r.task)
      else if ('problem' in r) problems.push(r.problem)
    }
    if (this.entries.size > ids.length)
      for (const id of this.entries.keys()) if (!tasks.has(id)) this.entries.delete(id)
    return { tasks, problems }
  }
}
