import { watch, type FSWatcher } from 'node:fs'
import type { Disposable } from '../base'

/**
 * Fallback poll period, ms. Directory watching delivers within ~1 ms here (STACK.md); the poll
 * only covers a missed event (a watch that failed, a network file system). Claude Code polls
 * every 500 ms as its only delivery path; we watch and poll rarely.
 */
export const DEFAULT_POLL_MS = 2_000

let active = 0

/** Live inbox watchers in this process (each holds an fs.watch handle and a timer). For leak tests. */
export function activeInboxWatchers(): number {
  return active
}

/**
 * Calls `onChange` whenever `dir` may have new entries: on every fs.watch event of the directory
 * (the directory, not the files: a watch on a file misses atomic renames, STACK.md), and every
 * `pollMs` in case an event was missed. Calls are coalesced: at most one `onChange` runs at a
 * time, and changes during a run cause exactly one more run. `dir` must exist. If the watch
 * fails (e.g. the folder is deleted), the poll carries on alone. Dispose to release both.
 */
export function watchDirectory(dir: string, onChange: () => Promise<void>, pollMs = DEFAULT_POLL_MS): Disposable {
  let disposed = false
  let running = false
  let again = false
  let watcher: FSWatcher | undefined

  const kick = (): void => {
    if (disposed) return
    if (running) {
      again = true
      return
    }
    running = true
    void onChange()
      .catch(() => undefined)
      .finally(() => {
        running = false
        if (again) {
          again = false
          kick()
        }
      })
  }

  try {
    watcher = watch(dir, { persistent: true }, kick)
    watcher.on('error', () => {
      watcher?.close()
      watcher = undefined
    })
  } catch {
    watcher = undefined
  }
  const timer = setInterval(kick, pollMs)
  active++
  return {
    dispose() {
      if (disposed) return
      disposed = true
      active--
      clearInterval(timer)
      watcher?.close()
      watcher = undefined
    }
  }
}
