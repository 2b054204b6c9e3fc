import { setTimeout as sleep } from 'node:timers/promises'
import type { KvEntry } from '@nats-io/kv'
import { TaskSchema, type Task } from '../../../../shared/tasks'
import type { NatsHandles } from './connection'

/** The stream behind the `swarmdesk-tasks` bucket and the subject prefix of its keys. */
const TASKS_STREAM = 'KV_swarmdesk-tasks'
const TASKS_SUBJECT = '$KV.swarmdesk-tasks'

/** How long a read waits for its mirror to catch up with the server before it reads key by key, ms. */
export const MIRROR_CATCH_UP_MS = 2_000

/** A task with the KV revision it was read at: a write compares against it. */
export interface Versioned {
  task: Task
  revision: number
}

/** One team's task keys as this process last heard of them, and how far it heard. */
interface Mirror {
  /** Task id → the task and its revision, or a tombstone (deleted at that revision). */
  keys: Map<number, { task?: Task; revision: number }>
  /** The highest stream sequence applied: every task write of the team up to it is in `keys`. */
  seen: number
  waiters: Set<{ target: number; wake: () => void }>
  /** Settles when the watch has started (rejects when it could not). */
  started: Promise<void>
  stop: () => void
}

/**
 * Every process's copy of its teams' task lists (docs/nats.md#task-list), kept current by a KV watch
 * of `{team}.task.*`, so a claim or a listing reads the list without one get per task. A read is
 * as fresh as a read from the server: it asks the server for the sequence of the team's last task
 * write (one message get by subject, `last_by_subj` with a wildcard) and waits until the watch has
 * delivered up to it; the watch delivers in sequence order, so the copy then holds every write up
 * to that point. When the watch cannot catch up within {@link MIRROR_CATCH_UP_MS} (a lost
 * connection, a stalled consumer), `snapshot` answers `undefined` and the caller reads key by key.
 * The watches end with the connection (the store's close drains it).
 */
export function taskMirrors(h: NatsHandles): {
  /**
   * Every task of `team` by id, each with its revision, as fresh as a read from the server, or
   * `undefined` when the mirror could not catch up (read key by key then). The map and its
   * wrappers are the caller's; the tasks are the mirror's own: never change one in place (copy it).
   */
  snapshot: (team: string) => Promise<Map<number, Versioned> | undefined>
} {
  const mirrors = new Map<string, Mirror>()

  const apply = (m: Mirror, prefix: string, e: KvEntry): void => {
    const id = Number(e.key.slice(prefix.length))
    if (Number.isInteger(id)) {
      const known = m.keys.get(id)
      if (!known || known.revision < e.revision) {
        const parsed = e.operation === 'PUT' ? TaskSchema.safeParse(e.json()) : undefined
        m.keys.set(id, { ...(parsed?.success ? { task: parsed.data } : {}), revision: e.revision })
      }
    }
    if (e.revision > m.seen) m.seen = e.revision
    for (const w of m.waiters) if (w.target <= m.seen) w.wake()
  }

  const open = (team: string): Mirror => {
    const existing = mirrors.get(team)
    if (existing) return existing
    const prefix = `${team}.task.`
    let stopped = false
    let stopIter: (() => void) | undefined
    const m: Mirror = {
      keys: new Map(),
      seen: 0,
      waiters: new Set(),
      started: Promise.resolve(),
      stop: () => {
        stopped = true
        stopIter?.()
      }
    }
    const forget = (): void => {
      if (mirrors.get(team) === m) mirrors.delete(team)
      m.stop()
    }
    m.started = h.tasks.watch({ key: `${prefix}*` }).then((iter) => {
      stopIter = () => iter.stop()
      if (stopped) iter.stop()
      void (async () => {
        for await (const e of iter) apply(m, prefix, e)
      })()
        .catch(() => undefined)
        // a watch that ended (its connection closed) is made again by the next read
        .finally(forget)
    })
    m.started.catch(forget)
    mirrors.set(team, m)
    return m
  }

  /** Resolves true once `m` has applied up to `target`, false after {@link MIRROR_CATCH_UP_MS}. */
  const until = async (m: Mirror, target: number): Promise<boolean> => {
    if (m.seen >= target) return true
    const ac = new AbortController()
    let waiter: { target: number; wake: () => void } | undefined
    const caught = new Promise<boolean>((resolve) => {
      waiter = { target, wake: () => resolve(true) }
      m.waiters.add(waiter)
    })
    try {
      return await Promise.race([
        caught,
        sleep(MIRROR_CATCH_UP_MS, false, { signal: ac.signal, ref: false }).catch(() => false)
      ])
    } finally {
      ac.abort()
      if (waiter) m.waiters.delete(waiter)
    }
  }

  return {
    async snapshot(team) {
      const m = open(team)
      try {
        await m.started
        const last = await h.jsm.streams.getMessage(TASKS_STREAM, { last_by_subj: `${TASKS_SUBJECT}.${team}.task.*` })
        if (!(await until(m, last?.seq ?? 0))) return undefined
      } catch {
        return undefined
      }
      const out = new Map<number, Versioned>()
      for (const [id, k] of [...m.keys.entries()].sort((a, b) => a[0] - b[0]))
        if (k.task) out.set(id, { task: k.task, revision: k.revision })
      return out
    }
  }
}
