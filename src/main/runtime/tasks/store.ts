import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { NAME_PATTERN } from '../../../shared/teams'
import {
  TASK_SCHEMA_VERSION,
  type ClaimResult,
  type Task,
  type TaskChange,
  type TaskStatus
} from '../../../shared/tasks'
import type { Disposable } from '../base'
import { LockAbortedError, withLock, type LockOptions } from '../locks'
import { decideClaim } from './claim'
import { findCycle } from './cycles'
import { TaskCycleError, TaskInputError, TaskNotFoundError, type TaskFileError } from './errors'
import { createTaskFile, raiseHighWaterMark, taskDir, TaskFileCache, taskPath, writeTask } from './files'
import { watchTasks, type TaskChangeListener } from './watch'

/** Fields of a new task. `blockedBy`: ids of existing tasks this one waits for. */
export interface NewTask {
  subject: string
  description?: string
  activeForm?: string
  owner?: string
  blockedBy?: number[]
}

/**
 * A change to a task. `owner: null` clears it. `addBlocks`/`addBlockedBy` add links on both sides.
 * `by`: the agent making the change (absent for a person or the CLI), used to decide assignments.
 */
export interface TaskPatch {
  status?: TaskStatus
  owner?: string | null
  subject?: string
  description?: string
  activeForm?: string
  addBlocks?: number[]
  addBlockedBy?: number[]
  by?: string
}

/** Outcome of an update: the task after it and, when someone was assigned it, who to notify. */
export interface UpdateResult {
  task: Task
  /**
   * The new owner's name when a `task_assignment` message should be sent (docs/teams.md#shared-task-list): the owner
   * changed to someone other than `patch.by`. Never set when an agent assigns a task to itself.
   * The caller sends the message; the store only decides.
   */
  assignTo?: string
}

/** The task list with the problems met reading it (each names its file; those files are skipped). */
export interface TaskListing {
  tasks: Task[]
  problems: TaskFileError[]
}

/**
 * One team's shared task list at `<home>/tasks/{team}/` (docs/teams.md#shared-task-list, docs/storage.md#layout): one JSON file per task,
 * `.highwatermark`, and `.lock`. Every read-modify-write happens under the team's lock (pid + start
 * time, broken at once when its holder is dead) and every write is temp + rename, so any number of
 * threads and processes may use the same list, and a `kill -9` at any instant leaves every file
 * whole. Reads take no lock. Safe to create several instances for one team.
 *
 * @throws TaskInputError from the constructor when `team` is not a safe name.
 */
export class TaskStore {
  readonly dir: string
  private readonly lockPath: string
  private readonly listeners = new Set<(change: TaskChange) => void>()
  private readonly files: TaskFileCache

  constructor(
    readonly home: string,
    readonly team: string,
    private readonly lockOptions: LockOptions = {}
  ) {
    if (!NAME_PATTERN.test(team)) throw new TaskInputError(`Invalid team name '${team}': use [a-z0-9-].`)
    this.dir = taskDir(home, team)
    this.lockPath = join(this.dir, '.lock')
    this.files = new TaskFileCache(this.dir)
  }

  /** Creates a task; its id is the next past the high-water mark. @throws TaskNotFoundError for an unknown blocker. */
  async create(fields: NewTask): Promise<Task> {
    if (!fields.subject.trim()) throw new TaskInputError('A task needs a subject.')
    return this.locked(() => {
      const blockers = (fields.blockedBy ?? []).map((b) => this.mustGet(b))
      const now = new Date().toISOString()
      const task = createTaskFile(this.dir, (id) => ({
        schemaVersion: TASK_SCHEMA_VERSION,
        id,
        subject: fields.subject,
        description: fields.description ?? '',
        ...(fields.activeForm ? { activeForm: fields.activeForm } : {}),
        ...(fields.owner ? { owner: fields.owner } : {}),
        status: 'pending',
        blocks: [],
        blockedBy: [...new Set(blockers.map((b) => b.id))],
        createdAt: now,
        updatedAt: now
      }))
      this.emit(task)
      for (const b of blockers) this.save({ ...b, blocks: union(b.blocks, [task.id]) })
      return task
    })
  }

  /** The task, or `undefined` when there is none. @throws TaskFileError when its file is invalid. */
  get(id: number): Task | undefined {
    const r = this.files.read(id)
    if ('problem' in r) throw r.problem
    return 'task' in r ? r.task : undefined
  }

  /** Every valid task by id, with the invalid files reported. No lock: each file is read whole. */
  list(): TaskListing {
    const { tasks, problems } = this.files.readAll()
    return { tasks: [...tasks.values()], problems }
  }

  /**
   * Applies `patch` atomically. New links are checked against the whole list under the same lock
   * that writes them, so two concurrent updates can never close a cycle between them.
   * @throws TaskNotFoundError (task or link target); TaskInputError for a self-link or an empty
   * subject; TaskCycleError when `addBlocks`/`addBlockedBy` would close a dependency cycle (nothing
   * is written then).
   */
  async update(id: number, patch: TaskPatch): Promise<UpdateResult> {
    return this.locked(() => {
      if (patch.subject !== undefined && !patch.subject.trim()) throw new TaskInputError('A task needs a subject.')
      const before = this.mustGet(id)
      this.refuseCycles(id, patch)
      let task: Task = { ...before }
      if (patch.subject !== undefined) task.subject = patch.subject
      if (patch.description !== undefined) task.description = patch.description
      if (patch.activeForm !== undefined) task.activeForm = patch.activeForm
      if (patch.status !== undefined) task.status = patch.status
      if (patch.owner === null) delete task.owner
      else if (patch.owner !== undefined) task.owner = patch.owner
      for (const other of this.linkTargets(id, patch.addBlocks)) {
        task.blocks = union(task.blocks, [other.id])
        this.save({ ...other, blockedBy: union(other.blockedBy, [id]) })
      }
      for (const other of this.linkTargets(id, patch.addBlockedBy)) {
        task.blockedBy = union(task.blockedBy, [other.id])
        this.save({ ...other, blocks: union(other.blocks, [id]) })
      }
      task = this.save(task)
      const assigned = task.owner !== undefined && task.owner !== before.owner && task.owner !== patch.by
      return assigned ? { task, assignTo: task.owner } : { task }
    })
  }

  /** Deletes a task and removes it from every other task's links. The high-water mark never drops. */
  async delete(id: number): Promise<void> {
    await this.locked(() => {
      this.mustGet(id)
      raiseHighWaterMark(this.dir, id)
      rmSync(taskPath(this.dir, id), { force: true })
      for (const t of this.files.readAll().tasks.values()) {
        if (t.blocks.includes(id) || t.blockedBy.includes(id)) {
          this.save({ ...t, blocks: t.blocks.filter((x) => x !== id), blockedBy: t.blockedBy.filter((x) => x !== id) })
        }
      }
      this.emitChange({ type: 'deleted', team: this.team, id })
    })
  }

  /**
   * Claims task `id` for `agent`: exactly one of any number of concurrent claimants wins. A refusal
   * is a result, not an error (reasons in {@link ClaimResult}). The common refusal — someone already
   * owns it — is answered from a lock-free read: ownership only changes under the lock, and files
   * are replaced whole, so the answer was true at the instant of the read.
   *
   * @throws TaskFileError when the task's file is not a valid task (it is not claimable as is).
   */
  async claim(id: number, agent: string): Promise<ClaimResult> {
    const taken = (): ClaimResult | undefined => {
      const r = this.files.read(id)
      if ('task' in r && (r.task.status === 'completed' || (r.task.owner !== undefined && r.task.owner !== agent))) {
        return { ok: false, reason: 'already_claimed', task: r.task }
      }
      return undefined
    }
    const quick = taken()
    if (quick) return quick
    try {
      return await withLock(
        this.lockPath,
        (): ClaimResult => {
          const r = this.files.read(id)
          if ('problem' in r) throw r.problem
          if (!('task' in r)) return { ok: false, reason: 'not_found' }
          const refusal = decideClaim(
            r.task,
            agent,
            (b) => this.files.read(b),
            () => this.files.readAll().tasks.values()
          )
          if (refusal) return refusal
          return { ok: true, task: this.save({ ...r.task, owner: agent, status: 'in_progress' }) }
        },
        // while waiting for the lock, stop as soon as someone else has won the task
        { ...this.lockOptions, giveUp: () => taken() !== undefined }
      )
    } catch (error) {
      const late = error instanceof LockAbortedError ? taken() : undefined
      if (late) return late
      throw error
    }
  }

  /**
   * Returns every unfinished task owned by `agent` to `pending` with no owner (docs/teams.md#teammate-life-cycle: when a
   * teammate exits, however it exits). Returns the released tasks. A task list that no longer
   * exists (the team was deleted) has nothing to release and is not created again by the lock.
   */
  async releaseOwnedBy(agent: string): Promise<Task[]> {
    if (!existsSync(this.dir)) return []
    return this.locked(() => {
      const released: Task[] = []
      for (const t of this.files.readAll().tasks.values()) {
        if (t.owner !== agent || t.status === 'completed') continue
        const { owner: _owner, ...rest } = t
        released.push(this.save({ ...rest, status: 'pending' }))
      }
      return released
    })
  }

  /**
   * Calls `listener` with the whole task after every change, made by this process or any other
   * (the team's folder is watched — the folder, not the files, since atomic renames replace them),
   * and with `deleted` for deletions. Duplicate notices of one state are dropped. Dispose to stop
   * watching; the watcher is closed at once.
   */
  onDidChange(listener: TaskChangeListener): Disposable {
    return watchTasks(this.dir, this.team, listener, this.listeners)
  }

  private locked<T>(fn: () => T): Promise<T> {
    return withLock(this.lockPath, fn, this.lockOptions)
  }

  private mustGet(id: number): Task {
    const task = this.get(id)
    if (!task) throw new TaskNotFoundError(this.team, id)
    return task
  }

  private linkTargets(id: number, ids: number[] | undefined): Task[] {
    return (ids ?? []).map((other) => {
      if (other === id) throw new TaskInputError(`Task #${id} cannot block itself.`)
      return this.mustGet(other)
    })
  }

  /** @throws TaskCycleError when the links `patch` adds to task `id` would close a cycle; TaskNotFoundError, TaskInputError as {@link linkTargets}. */
  private refuseCycles(id: number, patch: TaskPatch): void {
    const edges = [
      ...this.linkTargets(id, patch.addBlockedBy).map((t) => [id, t.id] as const),
      ...this.linkTargets(id, patch.addBlocks).map((t) => [t.id, id] as const)
    ]
    if (edges.length === 0) return
    const cycle = findCycle(this.files.readAll().tasks.values(), edges, id)
    if (cycle.length > 0) throw new TaskCycleError(this.team, cycle)
  }

  private save(task: Task): Task {
    const saved = { ...task, updatedAt: new Date().toISOString() }
    writeTask(this.dir, saved)
    this.emit(saved)
    return saved
  }

  private emit(task: Task): void {
    this.emitChange({ type: 'updated', team: this.team, task })
  }

  private emitChange(change: TaskChange): void {
    for (const l of this.listeners) l(change)
  }
}

function union(a: number[], b: number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y)
}
