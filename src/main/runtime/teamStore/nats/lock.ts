import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import type { KV } from '@nats-io/kv'
import { LockTimeoutError } from '../../locks'

/** How old a lock record may grow before another process takes the lock over, ms (its holder hung or vanished). */
export const LOCK_STALE_MS = 10_000
/** How long to wait for a lock before giving up, ms. */
export const LOCK_WAIT_MS = 20_000

/**
 * Runs `fn` holding the key `key` of the lock bucket (docs/nats.md#task-list): taken by a KV create,
 * which exactly one process wins, released by a delete at the revision it was taken at. A record
 * older than {@link LOCK_STALE_MS} belongs to a holder that vanished and is taken over by a
 * compare-and-set on its revision; the bucket's TTL removes any left behind. Writes made under the
 * lock still compare revisions, so a holder that outlived its lock can never overwrite a newer value.
 * @throws LockTimeoutError after {@link LOCK_WAIT_MS}.
 */
export async function withKvLock<T>(locks: KV, key: string, fn: () => Promise<T>): Promise<T> {
  const record = (): string => JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() })
  const started = Date.now()
  let revision: number | undefined
  for (let attempt = 0; revision === undefined; attempt++) {
    try {
      revision = await locks.create(key, record())
    } catch {
      const held = await locks.get(key)
      if (held && held.operation === 'PUT' && Date.now() - held.created.getTime() > LOCK_STALE_MS) {
        revision = await locks.update(key, record(), held.revision).catch(() => undefined)
        if (revision !== undefined) break
      }
      if (Date.now() - started > LOCK_WAIT_MS)
        throw new LockTimeoutError(`team store lock ${key}`, undefined, Date.now() - started)
      await sleep(2 + Math.random() * Math.min(40, 2 * 2 ** Math.min(attempt, 5)))
    }
  }
  try {
    return await fn()
  } finally {
    await locks.delete(key, { previousSeq: revision }).catch(() => undefined)
  }
}
