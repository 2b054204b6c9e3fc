import type { LockOwner } from './owner'

/** Errors of the lock subsystem; `name` survives IPC. */
export class LockError extends Error {
  override name = 'LockError'
}

/**
 * A live process held the lock for longer than the caller would wait. Recoverable: retry later.
 * Never raised for a dead holder — those locks are broken at once.
 */
export class LockTimeoutError extends LockError {
  override name = 'LockTimeoutError'
  constructor(
    readonly path: string,
    readonly holder: LockOwner | undefined,
    readonly waitedMs: number
  ) {
    super(`${path}: still held by pid ${holder?.pid ?? '?'} after ${waitedMs} ms`)
  }
}

/** The wait for a lock was aborted through its AbortSignal. */
export class LockAbortedError extends LockError {
  override name = 'LockAbortedError'
}
