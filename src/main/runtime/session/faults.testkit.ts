import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Where a {@link writeFaultPrelude} looks for its orders, and the prelude file itself. */
export interface FaultPrelude {
  /** The `.mjs` to import before the runtime (in-process, as a worker prelude, or with `node --import`). */
  path: string
  /**
   * The trigger file: while it exists, the next write to a file whose path contains its content
   * fails with ENOSPC (as a full disk fails it), and the trigger is removed (one fault per trigger).
   */
  trigger: string
}

/**
 * Writes a test-only fault prelude into `dir`: it patches `node:fs` the same way in whatever
 * thread or process imports it (then `module.syncBuiltinESMExports()`, so the runtime's named ESM
 * imports see the patch too):
 * - `writeSync` to an fd opened (`openSync`) for a path containing the trigger file's content
 *   throws a real-looking `ENOSPC` errno error once, while the trigger exists — the transcript
 *   writer's appends (locks/diskWrites.ts) fail as on a full disk;
 * - `fs.promises.readFile` of a file named `bug.txt` resolves `null`, so the Read tool trips over
 *   it with a TypeError: an unexpected exception, not a ToolError.
 * Importing it twice in one thread patches once.
 */
export function writeFaultPrelude(dir: string): FaultPrelude {
  const trigger = join(dir, 'disk-full.trigger')
  const path = join(dir, 'faults.mjs')
  writeFileSync(
    path,
    `import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
const TRIGGER = ${JSON.stringify(trigger)}
if (!globalThis.__swarmdeskFaultPrelude) {
  globalThis.__swarmdeskFaultPrelude = true
  const paths = new Map()
  const openSync = fs.openSync
  fs.openSync = function (path, ...rest) {
    const fd = openSync.call(this, path, ...rest)
    paths.set(fd, String(path))
    return fd
  }
  const writeSync = fs.writeSync
  fs.writeSync = function (fd, ...rest) {
    const path = paths.get(fd)
    if (path !== undefined && fs.existsSync(TRIGGER)) {
      const fragment = fs.readFileSync(TRIGGER, 'utf8').trim()
      if (fragment && path.includes(fragment)) {
        fs.rmSync(TRIGGER, { force: true })
        const error = new Error("ENOSPC: no space left on device, write '" + path + "'")
        Object.assign(error, { errno: -28, code: 'ENOSPC', syscall: 'write', path })
        throw error
      }
    }
    return writeSync.call(this, fd, ...rest)
  }
  const readFile = fs.promises.readFile
  fs.promises.readFile = function (path, ...rest) {
    if (String(path).endsWith('/bug.txt')) return Promise.resolve(null)
    return readFile.call(this, path, ...rest)
  }
  syncBuiltinESMExports()
}
`
  )
  return { path, trigger }
}
