import { existsSync, watch, type FSWatcher } from 'node:fs'
import { dirname } from 'node:path'

/**
 * One `fs.watch` on a directory that may not exist yet (docs/storage.md#layout: a session's `agents/` folder
 * appears with its first transcript). While it is missing, its nearest existing ancestor is
 * watched instead (any change there may be the chain being created) and every event there is
 * reported with no file name. STACK.md: watch the directory, never the file — a file watch misses
 * atomic renames. Whoever owns it calls {@link arm} again on each poll, which moves the watch down
 * once the directory exists and re-creates a watch that failed; at most one watcher is open at any
 * time. Where watching is impossible, nothing is reported and the owner's poll carries on alone.
 */
export class DirectoryWatch {
  private watcher: FSWatcher | undefined
  private watchedDir: string | undefined
  private closed = false

  /**
   * @param target the directory to watch (absolute).
   * @param onChange called for every change: with the changed entry's name inside `target`, or
   *   `undefined` when the event came from an ancestor or carried no name.
   */
  constructor(
    private readonly target: string,
    private readonly onChange: (filename: string | undefined) => void
  ) {}

  /**
   * Watches `target`, or its nearest existing ancestor while it is missing. After arming a watch it
   * looks again: a directory created before the watch took hold gets no event, so the watch moves
   * down until it sits on the deepest existing directory. A no-op once closed.
   */
  arm(): void {
    if (this.closed) return
    for (;;) {
      let dir = this.target
      while (!existsSync(dir)) {
        const parent = dirname(dir)
        if (parent === dir) break
        dir = parent
      }
      if (this.watcher && this.watchedDir === dir) return
      this.unwatch()
      try {
        const watcher = watch(dir, { persistent: false }, (_event, filename) => {
          if (this.closed || this.watcher !== watcher) return
          this.onChange(dir === this.target && filename ? filename.toString() : undefined)
        })
        watcher.on('error', () => {
          if (this.watcher === watcher) this.unwatch()
          else watcher.close()
        })
        this.watcher = watcher
        this.watchedDir = dir
      } catch {
        this.unwatch()
        return
      }
      if (dir === this.target) return
    }
  }

  /** True while a watcher is open (leak tests). */
  get watching(): boolean {
    return this.watcher !== undefined
  }

  /** Releases the watcher; later {@link arm} calls do nothing. Idempotent. */
  close(): void {
    this.closed = true
    this.unwatch()
  }

  private unwatch(): void {
    this.watcher?.close()
    this.watcher = undefined
    this.watchedDir = undefined
  }
}
