export { acquireLock, withLock, type BrokenLock, type HeldLock, type LockOptions } from './fileLock'
export { createFileExclusiveSync, writeFileAtomicSync } from './atomicWrite'
export { LockAbortedError, LockError, LockTimeoutError } from './errors'
export { currentOwner, ownerGone, type LockOwner, type OwnerGoneReason } from './owner'
