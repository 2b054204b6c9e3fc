import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { TaskSchema, type Task } from '../../../shared/tasks'
import { createFileExclusiveSync, writeFileAtomicSync } from '../locks'
import { TaskFileError } from './errors'

/** `{id}.json`: the only names in a team's task folder that are tasks. */
export const TASK_FILE = /^([1-9][0-9]*)\.json$/

/** `<home>/tasks/{team}` (SPEC §12). */
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
 * Creates the next task file exclusively and returns its id. The candidate is one past both the
 * high-water mark and the highest file present (so a crash between creating a file and raising the
 * mark cannot reuse an id); the file appears whole by `link(2)` of a complete temp file, which
 * fails with EEXIST instead of overwriting — on EEXIST the next id is tried. Then the mark is raised.
 */
export function createTaskFile(dir: string, build: (id: number) => Task): Task {
  mkdirSync(dir, { recursive: true })
  const ids = listTaskIds(dir)
  let id = Math.max(readHighWaterMark(dir), ids.length ? ids[ids.length - 1] : 0) + 1
  for (;;) {
    const task = build(id)
    if (createFileExclusiveSync(taskPath(dir, id), JSON.stringify(task, null, 2) + '\n')) {
      raiseHighWaterMark(dir, id)
      return task
    }
    id++
  }
}
