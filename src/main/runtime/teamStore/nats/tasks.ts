import { KvWatchInclude, type KvEntry } from '@nats-io/kv'
import { NAME_PATTERN } from '../../../../shared/teams'
import { TASK_SCHEMA_VERSION, TaskSchema, type ClaimResult, type Task, type TaskChange } from '../../../../shared/tasks'
import {
  decideClaim,
  findCycle,
  TaskCycleError,
  TaskInputError,
  TaskNotFoundError,
  type NewTask,
  type TaskPatch,
  type TaskRead
} from '../../tasks'
import type { TaskListPort } from '../port'
import { isWrongRevision, type NatsHandles } from './connection'
import { withKvLock } from './lock'
import { taskMirrors, type Versioned } from './taskMirror'
import { startingWatch } from './ordered'

const taskKey = (team: string, id: number): string => `${team}.task.${id}`
const hwmKey = (team: string): string => `${team}.hwm`

/**
 * The shared task list in the `swarmdesk-tasks` bucket (docs/nats.md#task-list): one key per task,
 * `{team}.task.{id}`, and the counter `{team}.hwm`. Every write is a compare-and-set on the
 * revision it read, so no update is ever lost; a claim is nothing else (of any number of
 * claimants, in any processes, exactly one set succeeds). Changes that touch several tasks (a
 * create with blockers, links, deletes, releases) also hold the team's key in the lock bucket, so
 * a cycle check and its writes see one list. Ids come from the counter, raised by a
 * compare-and-set before the task is written, so an id is never handed out twice.
 */
export function natsTasks(h: NatsHandles): TaskListPort {
  const team_ = (team: string): string => {
    if (!NAME_PATTERN.test(team)) throw new TaskInputError(`Invalid team name '${team}': use [a-z0-9-].`)
    return team
  }
  const entry = (e: KvEntry | null): Versioned | undefined => {
    if (!e || e.operation !== 'PUT') return undefined
    const parsed = TaskSchema.safeParse(e.json())
    return parsed.success ? { task: parsed.data, revision: e.revision } : undefined
  }
  const getV = async (team: string, id: number): Promise<Versioned | undefined> =>
    entry(await h.tasks.get(taskKey(team, id)))
  const mirrors = taskMirrors(h)
  /**
   * Every task of `team`, by id, as fresh as a read from the server: from this process's mirror
   * of the list (taskMirror.ts, docs/nats.md#task-list), else key by key. Its tasks may be the
   * mirror's own: nothing here changes a task in place, and what leaves the store is a copy.
   */
  const all = async (team: string): Promise<Map<number, Versioned>> => (await mirrors.snapshot(team)) ?? keyByKey(team)
  /**
   * Every task of `team` read as the keys 1..counter (an id is never above the counter, and a
   * deleted one reads as nothing) rather than through the bucket's key listing: a listing is a
   * consumer that counts the keys when it starts, and a task rewritten while it runs (a racing
   * claim) removes the old revision it counted, so the listing waited out its 30 s timeout.
   */
  const keyByKey = async (team: string): Promise<Map<number, Versioned>> => {
    const counter = await h.tasks.get(hwmKey(team))
    const high = counter && counter.operation === 'PUT' ? Number(counter.string()) : 0
    const ids = Array.from({ length: high }, (_, i) => i + 1)
    const got = await Promise.all(ids.map(async (id) => getV(team, id)))
    const map = new Map<number, Versioned>()
    for (const v of got) if (v) map.set(v.task.id, v)
    return new Map([...map.entries()].sort((a, b) => a[0] - b[0]))
  }
  /** Writes `task` if its key is still at `revision`. @throws the wrong-revision error when it moved. */
  const save = async (team: string, v: Versioned, task: Task): Promise<Task> => {
    const saved = { ...task, updatedAt: new Date().toISOString() }
    v.revision = await h.tasks.update(taskKey(team, saved.id), JSON.stringify(saved), v.revision)
    v.task = saved
    return saved
  }
  /** Re-reads task `id` and writes `change` of it until no one changed it in between (idempotent changes only: links). */
  const modify = async (team: string, id: number, change: (t: Task) => Task): Promise<void> => {
    for (;;) {
      const v = await getV(team, id)
      if (!v) return
      try {
        await save(team, v, change(v.task))
        return
      } catch (error) {
        if (!isWrongRevision(error)) throw error
      }
    }
  }
  const locked = <T>(team: string, fn: () => Promise<T>): Promise<T> =>
    withKvLock(h.locks, `${team}.tasks`, async () => {
      // a claim racing a multi-task change moves a revision: the change is run again on fresh reads
      for (let attempt = 0; ; attempt++) {
        try {
          return await fn()
        } catch (error) {
          if (!isWrongRevision(error) || attempt >= 20) throw error
        }
      }
    })
  const mustGet = (team: string, tasks: Map<number, Versioned>, id: number): Versioned => {
    const v = tasks.get(id)
    if (!v) throw new TaskNotFoundError(team, id)
    return v
  }
  const nextId = async (team: string): Promise<number> => {
    for (;;) {
      const e = await h.tasks.get(hwmKey(team))
      const n = e && e.operation === 'PUT' ? Number(e.string()) : 0
      try {
        if (e) await h.tasks.update(hwmKey(team), String(n + 1), e.revision)
        else await h.tasks.create(hwmKey(team), String(n + 1))
        return n + 1
      } catch (error) {
        if (!isWrongRevision(error) && !/exists/i.test((error as Error).message)) throw error
      }
    }
  }
  const read =
    (tasks: Map<number, Versioned>) =>
    (id: number): TaskRead => {
      const v = tasks.get(id)
      return v ? { task: v.task } : { missing: true }
    }

  return {
    async create(team, fields: NewTask) {
      team_(team)
      if (!fields.subject.trim()) throw new TaskInputError('A task needs a subject.')
      return locked(team, async () => {
        const tasks = await all(team)
        const blockers = (fields.blockedBy ?? []).map((b) => mustGet(team, tasks, b))
        const id = await nextId(team)
        const now = new Date().toISOString()
        const task: Task = {
          schemaVersion: TASK_SCHEMA_VERSION,
          id,
          subject: fields.subject,
          description: fields.description ?? '',
          ...(fields.activeForm ? { activeForm: fields.activeForm } : {}),
          ...(fields.owner ? { owner: fields.owner } : {}),
          status: 'pending',
          blocks: [],
          blockedBy: [...new Set(blockers.map((b) => b.task.id))],
          createdAt: now,
          updatedAt: now
        }
        await h.tasks.create(taskKey(team, id), JSON.stringify(task))
        for (const b of blockers) await modify(team, b.task.id, (t) => ({ ...t, blocks: union(t.blocks, [id]) }))
        return task
      })
    },
    get: async (team, id) => (await getV(team_(team), id))?.task,
    // copies: the tasks of a snapshot are the mirror's own
    list: async (team) => [...(await all(team_(team))).values()].map((v) => structuredClone(v.task)),
    listing: async (team) => ({
      tasks: [...(await all(team_(team))).values()].map((v) => structuredClone(v.task)),
      problems: []
    }),
    async claim(team, id, agent): Promise<ClaimResult> {
      team_(team)
      for (;;) {
        // the whole list in one look (the mirror), the claimed task with it: its revision is the
        // one the compare-and-set below holds to
        const tasks = await all(team)
        const v = tasks.get(id)
        if (!v) return { ok: false, reason: 'not_found' }
        const t = v.task
        const refusal = decideClaim(t, agent, read(tasks), () => [...tasks.values()].map((x) => x.task))
        if (refusal) return { ...refusal, task: structuredClone(refusal.task) }
        try {
          return { ok: true, task: await save(team, v, { ...t, owner: agent, status: 'in_progress' }) }
        } catch (error) {
          if (!isWrongRevision(error)) throw error
          // someone changed it first: decide again on what they wrote
        }
      }
    },
    async update(team, id, patch: TaskPatch) {
      team_(team)
      if (patch.subject !== undefined && !patch.subject.trim()) throw new TaskInputError('A task needs a subject.')
      return locked(team, async () => {
        const tasks = await all(team)
        const before = mustGet(team, tasks, id)
        const targets = (ids: number[] | undefined): Versioned[] =>
          (ids ?? []).map((other) => {
            if (other === id) throw new TaskInputError(`Task #${id} cannot block itself.`)
            return mustGet(team, tasks, other)
          })
        const blocks = targets(patch.addBlocks)
        const blockedBy = targets(patch.addBlockedBy)
        const edges = [
          ...blockedBy.map((t) => [id, t.task.id] as const),
          ...blocks.map((t) => [t.task.id, id] as const)
        ]
        if (edges.length > 0) {
          const cycle = findCycle(
            [...tasks.values()].map((v) => v.task),
            edges,
            id
          )
          if (cycle.length > 0) throw new TaskCycleError(team, cycle)
        }
        const task: Task = { ...before.task }
        if (patch.subject !== undefined) task.subject = patch.subject
        if (patch.description !== undefined) task.description = patch.description
        if (patch.activeForm !== undefined) task.activeForm = patch.activeForm
        if (patch.status !== undefined) task.status = patch.status
        if (patch.owner === null) delete task.owner
        else if (patch.owner !== undefined) task.owner = patch.owner
        for (const o of blocks) {
          task.blocks = union(task.blocks, [o.task.id])
          await modify(team, o.task.id, (t) => ({ ...t, blockedBy: union(t.blockedBy, [id]) }))
        }
        for (const o of blockedBy) {
          task.blockedBy = union(task.blockedBy, [o.task.id])
          await modify(team, o.task.id, (t) => ({ ...t, blocks: union(t.blocks, [id]) }))
        }
        const previousOwner = before.task.owner
        const saved = await save(team, before, task)
        const assigned = saved.owner !== undefined && saved.owner !== previousOwner && saved.owner !== patch.by
        return assigned ? { task: saved, assignTo: saved.owner } : { task: saved }
      })
    },
    async delete(team, id) {
      team_(team)
      await locked(team, async () => {
        const tasks = await all(team)
        const v = mustGet(team, tasks, id)
        await h.tasks.delete(taskKey(team, id), { previousSeq: v.revision })
        for (const o of tasks.values()) {
          const t = o.task
          if (t.id !== id && (t.blocks.includes(id) || t.blockedBy.includes(id)))
            await modify(team, t.id, (x) => ({
              ...x,
              blocks: x.blocks.filter((b) => b !== id),
              blockedBy: x.blockedBy.filter((b) => b !== id)
            }))
        }
      })
    },
    async releaseOwnedBy(team, agent) {
      team_(team)
      return locked(team, async () => {
        const released: Task[] = []
        for (const v of (await all(team)).values()) {
          if (v.task.owner !== agent || v.task.status === 'completed') continue
          const { owner: _owner, ...rest } = v.task
          released.push(await save(team, v, { ...rest, status: 'pending' }))
        }
        return released
      })
    },
    watch(team, listener: (change: TaskChange) => void) {
      team_(team)
      const prefix = `${team}.task.`
      return startingWatch(async (watch) => {
        const iter = await h.tasks.watch({ key: `${prefix}*`, include: KvWatchInclude.UpdatesOnly })
        watch.onStop(() => iter.stop())
        void (async () => {
          for await (const e of iter) {
            const id = Number(e.key.slice(prefix.length))
            if (e.operation === 'PUT') {
              const parsed = TaskSchema.safeParse(e.json())
              if (parsed.success) listener({ type: 'updated', team, task: parsed.data })
            } else listener({ type: 'deleted', team, id })
          }
        })()
      })
    }
  }
}

function union(a: number[], b: number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y)
}
