import { closeSync, ftruncateSync, fstatSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs'

/**
 * Every write of the runtime's own records — inbox messages, task files, transcripts — goes
 * through here, so a full disk or a failing device behaves the same everywhere: the bytes are
 * written whole or the call throws, and callers leave no partial file behind (issue 10 "Disk").
 *
 * It is also the seam that lets tests fail those writes ({@link simulateWriteFaults}): the machine
 * has no small tmpfs to fill, and tests run as root, so permission bits cannot make writes fail.
 */

/** Which writes fail and how, while a simulation is on. */
export interface WriteFaultPlan {
  /** The writes to fail, by the path of the file written (a temp file's path for atomic writes). */
  matches: (path: string) => boolean
  /** Bytes the "disk" still takes before it is full: a write past them is cut short there, then fails. 0 by default. */
  bytesLeft?: number
  /** The error code raised: `ENOSPC` (disk full, default) or `EIO` (device error). */
  code?: 'ENOSPC' | 'EIO'
}

let plan: (WriteFaultPlan & { bytesLeft: number }) | undefined

/**
 * Makes matching writes fail until the returned function is called (tests only; one plan at a
 * time, process-wide). A write that would go past `bytesLeft` writes what fits — a real full disk
 * also accepts a short write first — and then throws.
 * @throws Error when a simulation is already on.
 */
export function simulateWriteFaults(faults: WriteFaultPlan): () => void {
  if (plan) throw new Error('A write-fault simulation is already on; end it before starting another.')
  plan = { ...faults, bytesLeft: faults.bytesLeft ?? 0 }
  return () => {
    plan = undefined
  }
}

/** An errno-style error as Node raises it, so `isSystemError` and callers treat it like the real one. */
function faultError(code: 'ENOSPC' | 'EIO', path: string): NodeJS.ErrnoException {
  const text = code === 'ENOSPC' ? 'no space left on device' : 'i/o error'
  const error: NodeJS.ErrnoException = new Error(`${code}: ${text}, write '${path}'`)
  error.code = code
  error.syscall = 'write'
  error.path = path
  return error
}

/**
 * Writes all of `data` to `fd` (a short `write(2)` is continued, never left as is).
 * @param path the file's path, for errors and the fault seam.
 * @throws NodeJS.ErrnoException (ENOSPC, EIO, …) when the device refuses; some bytes may have been written.
 */
export function writeAllSync(fd: number, data: string | Buffer, path: string): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  let offset = 0
  while (offset < bytes.length) {
    let room = bytes.length - offset
    const failing = plan?.matches(path) ? plan : undefined
    if (failing) {
      if (failing.bytesLeft === 0) throw faultError(failing.code ?? 'ENOSPC', path)
      room = Math.min(room, failing.bytesLeft)
    }
    const written = writeSync(fd, bytes, offset, room)
    if (failing) failing.bytesLeft -= written
    if (written === 0) throw faultError('ENOSPC', path)
    offset += written
  }
}

/**
 * Writes `data` to the file `path` and closes it: a new file with `wx` (the default; an existing
 * file is an error), or a truncated one with `w`. On a failed write the partial file is removed.
 * @throws NodeJS.ErrnoException from open or write (EEXIST, ENOSPC, EIO, …).
 */
export function writeNewFileSync(path: string, data: string | Buffer, flag: 'wx' | 'w' = 'wx'): void {
  const fd = openSync(path, flag)
  try {
    writeAllSync(fd, data, path)
  } catch (error) {
    closeSync(fd)
    removeQuietly(path)
    throw error
  }
  closeSync(fd)
}

/**
 * Appends `data` to the file open on `fd` as one record: all of it, or — when the device refuses
 * part way — nothing, the file cut back to its length before the call.
 * @throws NodeJS.ErrnoException when the write fails (the file is then as it was).
 */
export function appendRecordSync(fd: number, data: string, path: string): void {
  const before = fstatSync(fd).size
  try {
    writeAllSync(fd, data, path)
  } catch (error) {
    try {
      ftruncateSync(fd, before)
    } catch {
      // the device refused the truncation too; the reader skips a torn last line
    }
    throw error
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // already gone, or never created
  }
}

/**
 * Ends a torn last line of an append-only line file: when the file open on `fd` (opened for reading
 * too, e.g. `a+`) is not empty and does not end with "\n" — a process was killed mid-record — a
 * "\n" is appended, so the torn fragment stays a line of its own, which readers skip, and the next
 * record starts on a fresh line instead of being fused into it (and lost with it).
 * @returns true when a newline was added.
 * @throws NodeJS.ErrnoException when the file cannot be read or the newline written.
 */
export function endTornLineSync(fd: number, path: string): boolean {
  const size = fstatSync(fd).size
  if (size === 0) return false
  const last = Buffer.alloc(1)
  readSync(fd, last, 0, 1, size - 1)
  if (last[0] === 0x0a) return false
  appendRecordSync(fd, '\n', path)
  return true
}
