import { randomBytes } from 'node:crypto'
import {
  existsSync,
  linkSync,
  mkdirSync,
  watch,
  type FSWatcher,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync
} from 'node:fs'
import { basename, dirname } from 'node:path'
import { z } from 'zod'
import { LockAbortedError, LockTimeoutError } from './errors'
import { currentOwner, ownerGone, type LockOwner, type OwnerGoneReason } from './owner'

/** Contents of a lock file. Written whole before the lock appears (link of a complete temp file). */
const LockFileSchema = z.object({
  schemaVersion: z.literal(1),
  pid: z.number().int(),
  startTime: z.string().nullable(),
  token: z.string(),
  acquiredAt: z.string()
})

/** A lock that was broken on the way in: whose it was and why it no longer counted. */
export interface BrokenLock {
  owner: LockOwner | undefined
  reason: OwnerGoneReason | 'unreadable'
}

/** A held lock. `release`/`dispose` are idempotent. */
export interface HeldLock {
  readonly path: string
  /** Locks of dead owners this acquisition broke (empty in the common case). */
  readonly broken: readonly BrokenLock[]
  /** Time spent waiting for live holders, ms. */
  readonly waitedMs: number
  release(): void
  dispose(): void
}

/** Options of {@link acquireLock}. */
export interface LockOptions {
  /** Give up on a live holder after this long, ms (default 10 000). Dead holders never wait. */
  timeoutMs?: number
  signal?: AbortSignal
  /**
   * Checked before and after each wait for a live holder: when it returns true the caller no
   * longer needs the lock (say, the task it wanted was claimed meanwhile) and LockAbortedError is
   * thrown, so a waiter does not take the lock in turn only to find its work already done.
   */
  giveUp?: () => boolean
  /** Told of each dead holder's lock this acquisition breaks (for logs and tests). */
  onBroken?: (broken: BrokenLock) => void
}

/** Same-process waiters queue here first, so they do not poll a lock their own process holds. */
const localQueues = new Map<string, Promise<void>>()

/**
 * Takes the lock file at `path` (created with its directory if needed).
 *
 * Every lock records its owner's pid and process start time (docs/teams.md#team-config). A holder that is dead, a
 * zombie, or whose pid now belongs to a process with another start time is broken at once, with no
 * stale timeout: no lock blocks others longer than its holder lives. (proper-lockfile, which Claude
 * Code uses, judges staleness by mtime and blocked writers ~10 s after a `kill -9`, STACK.md.)
 * The lock appears atomically by `link(2)` of a complete temp file, so it is never seen half-written.
 * Waiting for a live holder watches the lock's folder, so the release wakes the waiter at once
 * (under 1 ms, STACK.md), with a poll every 4–32 ms as the fallback should an event be missed.
 *
 * @throws LockTimeoutError when a live process holds it past `timeoutMs`; LockAbortedError on abort.
 */
export async function acquireLock(path: string, options: LockOptions = {}): Promise<HeldLock> {
  const previous = localQueues.get(path) ?? Promise.resolve()
  let releaseLocal!: () => void
  const mine = new Promise<void>((r) => (releaseLocal = r))
  const tail = previous.then(() => mine)
  localQueues.set(path, tail)
  const dropLocal = () => {
    releaseLocal()
    if (localQueues.get(path) === tail) localQueues.delete(path)
  }
  try {
    await previous
    const held = await acquireFile(path, options)
    let done = false
    const release = () => {
      if (done) return
      done = true
      try {
        releaseFile(path, held.token)
      } finally {
        // the temp file the lock was linked from: removed after the release, not while holding
        tryUnlink(held.tmp)
        dropLocal()
      }
    }
    return { path, broken: held.broken, waitedMs: held.waitedMs, release, dispose: release }
  } catch (error) {
    dropLocal()
    throw error
  }
}

/** Runs `fn` holding the lock at `path`, releasing it however `fn` ends. */
export async function withLock<T>(
  path: string,
  fn: (lock: HeldLock) => T | Promise<T>,
  options?: LockOptions
): Promise<T> {
  const lock = await acquireLock(path, options)
  try {
    return await fn(lock)
  } finally {
    lock.release()
  }
}

async function acquireFile(path: string, options: LockOptions) {
  const timeoutMs = options.timeoutMs ?? 10_000
  const owner = currentOwner()
  const token = randomBytes(8).toString('hex')
  const tmp = `${path}.${owner.pid}.${token}.tmp`
  const body = {
    schemaVersion: 1,
    pid: owner.pid,
    startTime: owner.startTime,
    token,
    acquiredAt: new Date().toISOString()
  }
  const started = performance.now()
  const broken: BrokenLock[] = []
  // The poll is the fallback (a release wakes the waiter through the watch) and finds a holder
  // that died; starting it at 1 ms woke every waiter several times per held lock for nothing.
  let delay = 8
  // The temp file is written only when the lock looks free: a waiter behind a live holder
  // creates and removes nothing in the lock's folder, which every holder and waiter shares.
  let written = false
  let acquired = false
  const waiter = new LockWaiter(path)
  try {
    for (;;) {
      if (options.signal?.aborted) throw new LockAbortedError(`${path}: wait aborted`)
      let holder = readLock(path)
      if (holder === 'missing') {
        if (!written) {
          writeTemp(tmp, JSON.stringify(body))
          written = true
        }
        try {
          linkSync(tmp, path)
          acquired = true
          return { token, tmp, broken, waitedMs: performance.now() - started }
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code
          if (code === 'ENOENT') {
            // the folder was removed under us (a team deleted while we waited): recreate and retry
            written = false
            continue
          }
          if (code !== 'EEXIST') throw error
        }
        holder = readLock(path)
        if (holder === 'missing') continue
      }
      const owner = holder === 'unreadable' ? undefined : { pid: holder.pid, startTime: holder.startTime }
      const reason = owner ? ownerGone(owner) : 'unreadable'
      if (reason) {
        if (breakLock(path, holder === 'unreadable' ? undefined : holder.token, token)) {
          broken.push({ owner, reason })
          options.onBroken?.({ owner, reason })
        }
        continue
      }
      const waited = performance.now() - started
      if (waited >= timeoutMs) throw new LockTimeoutError(path, owner, Math.round(waited))
      if (options.giveUp?.()) throw new LockAbortedError(`${path}: no longer needed`)
      await waiter.wait(delay * (0.5 + Math.random()))
      delay = Math.min(delay * 2, 32)
      // the holder may have done what this caller wanted (claimed its task): ask before taking the lock in turn
      if (options.giveUp?.()) throw new LockAbortedError(`${path}: no longer needed`)
    }
  } finally {
    waiter.close()
    if (written && !acquired) tryUnlink(tmp)
  }
}

/** Writes the lock's temp file, creating its folder only when it is missing. */
function writeTemp(tmp: string, text: string): void {
  try {
    writeFileSync(tmp, text)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    mkdirSync(dirname(tmp), { recursive: true })
    writeFileSync(tmp, text)
  }
}

/** Sleeps until the lock file is removed (a watch on its folder) or `ms` pass. Watches only once asked to wait. */
class LockWaiter {
  private watcher: FSWatcher | undefined
  private wake: (() => void) | undefined

  constructor(private readonly path: string) {}

  wait(ms: number): Promise<void> {
    if (!this.watcher) {
      const name = basename(this.path)
      try {
        // Only the lock's going away is worth waking for: another waiter taking it in turn (a
        // change to the same name) would wake every waiter to find it held again. A dead holder
        // removes nothing; the timer finds it.
        this.watcher = watch(dirname(this.path), (_e, f) => {
          if ((f === null || f.toString() === name) && !existsSync(this.path)) this.wake?.()
        })
        this.watcher.on('error', () => this.wake?.())
      } catch {
        // no watching here: the poll alone serves
      }
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer)
        this.wake = undefined
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.wake = done
    })
  }

  close(): void {
    this.watcher?.close()
    this.wake?.()
  }
}

function readLock(path: string): z.infer<typeof LockFileSchema> | 'missing' | 'unreadable' {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing'
    throw error
  }
  try {
    return LockFileSchema.parse(JSON.parse(text))
  } catch {
    return 'unreadable'
  }
}

/**
 * Removes a dead holder's lock without ever removing a live one: the lock is moved aside, and if
 * what was moved is not the dead holder's (another breaker freed it and a live process took it in
 * between), it is linked back. Returns whether the dead holder's lock was removed by this call.
 */
function breakLock(path: string, deadToken: string | undefined, myToken: string): boolean {
  const aside = `${path}.broken.${myToken}`
  try {
    renameSync(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
  const moved = readLock(aside)
  const wasDead = moved === 'unreadable' ? deadToken === undefined : moved !== 'missing' && moved.token === deadToken
  if (!wasDead) {
    try {
      linkSync(aside, path)
    } catch {
      // someone took the free lock meanwhile; the displaced holder's section still ends normally
    }
  }
  tryUnlink(aside)
  return wasDead
}

function releaseFile(path: string, token: string): void {
  const holder = readLock(path)
  if (holder !== 'missing' && holder !== 'unreadable' && holder.token === token) tryUnlink(path)
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // already gone
  }
}
