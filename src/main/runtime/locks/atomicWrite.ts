import { randomBytes } from 'node:crypto'
import { linkSync, renameSync, unlinkSync } from 'node:fs'
import { writeNewFileSync } from './diskWrites'
import { basename, dirname, join } from 'node:path'

/**
 * Writes `text` (a string as UTF-8, or bytes) to `path` by a temp file in the same directory and `rename(2)`, so readers see the
 * old or the new contents, never a torn file, even if this process is killed mid-write. The temp
 * name starts with `.` so directory listings of JSON files skip it. No fsync: a `kill -9` keeps
 * the page cache; only power loss could lose the last write.
 */
export function writeFileAtomicSync(path: string, text: string | Buffer): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  try {
    writeNewFileSync(tmp, text)
    renameSync(tmp, path)
  } catch (error) {
    try {
      unlinkSync(tmp)
    } catch {
      // never created
    }
    throw error
  }
}

/**
 * Creates `path` with `text` only if it does not exist, atomically: a complete temp file is
 * `link(2)`ed into place, so the file is never seen half-written and is never overwritten.
 * Returns false when `path` already exists.
 */
export function createFileExclusiveSync(path: string, text: string): boolean {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.new`)
  writeNewFileSync(tmp, text)
  try {
    linkSync(tmp, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    unlinkSync(tmp)
  }
}
