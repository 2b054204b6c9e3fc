import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'

// How a running workspace follows hand edits of its settings files (docs/permissions.md#reloading-while-it-runs):
// the files' folders watched with chokidar, events debounced, and the files' contents compared with
// what the last reload read, so the workspace's own writes (a save in the Settings view, which
// reloads already) do not reload a second time.

/** Each file's text as read, `undefined` for a file that does not exist (or cannot be read). */
export type SettingsTexts = ReadonlyMap<string, string | undefined>

/** Reads every file of `files` as text; a missing or unreadable one reads as `undefined`. */
export async function readSettingsTexts(files: readonly string[]): Promise<SettingsTexts> {
  const texts = await Promise.all(files.map((f) => readFile(f, 'utf8').catch(() => undefined)))
  return new Map(files.map((f, i) => [f, texts[i]]))
}

/** The files of `now` whose text differs from `before`'s (a file created or deleted differs), in `now`'s order. */
export function changedSettingsFiles(before: SettingsTexts, now: SettingsTexts): string[] {
  return [...now].flatMap(([file, text]) => (before.get(file) === text ? [] : [file]))
}

let watching = 0

/** Settings watches of this process not yet closed. For leak tests. */
export function activeSettingsWatches(): number {
  return watching
}

/** Inputs of {@link watchSettingsFiles}. */
export interface SettingsWatchOptions {
  /** The files to follow, absolute; they need not exist (creating one is seen). */
  files: readonly string[]
  /**
   * Called once the events have been quiet for `debounceMs` after a change of one of `files`, with
   * the files that had events since the last call (in the order of their first event).
   */
  onChange(files: string[]): void
  /**
   * Quiet time before `onChange`, in milliseconds (default 300): an editor writes in several steps
   * (a temp file renamed over it, a truncate then a write) and one reload follows them all.
   */
  debounceMs?: number
}

/** A running watch: {@link ready} once the folders are watched, {@link close} to stop it. */
export interface SettingsWatch {
  /** Resolves when chokidar has scanned the folders: an edit from then on is seen. */
  readonly ready: Promise<void>
  /** Stops watching and drops a pending `onChange`; idempotent. Resolves when the watches are closed. */
  close(): Promise<void>
}

/**
 * Watches `files` through their folders (a watch of a single file misses an editor's atomic
 * rename of a temp file over it); a folder that does not exist yet is watched through its nearest existing
 * ancestor, so `mkdir .swarmdesk` then a new file is seen). Nothing else below those folders is
 * watched: every other path is ignored before chokidar descends into it.
 */
export function watchSettingsFiles(options: SettingsWatchOptions): SettingsWatch {
  const debounceMs = options.debounceMs ?? 300
  const wanted = new Set(options.files)
  // a file and every folder above it: the only paths chokidar may look at
  const keep = new Set<string>()
  for (const file of options.files) for (let p = file; !keep.has(p); p = dirname(p)) keep.add(p)
  const roots = new Set(options.files.map((f) => nearestExisting(dirname(f))))
  let timer: NodeJS.Timeout | undefined
  let closed = false
  const touched = new Set<string>()
  const watcher: FSWatcher = watch([...roots], {
    ignoreInitial: true,
    ignored: (path: string) => !keep.has(path),
    persistent: false
  })
  watching++
  watcher.on('all', (_event, path) => {
    if (closed || !wanted.has(path)) return
    touched.add(path)
    clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      const files = [...touched]
      touched.clear()
      if (!closed) options.onChange(files)
    }, debounceMs)
  })
  // a folder that cannot be watched (removed, no permission) leaves that folder unwatched; the others go on
  watcher.on('error', () => undefined)
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
  return {
    ready,
    async close() {
      if (closed) return
      closed = true
      clearTimeout(timer)
      watching--
      await watcher.close()
    }
  }
}

/** `dir`, or its nearest ancestor that exists. */
function nearestExisting(dir: string): string {
  let d = dir
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d)
  return d
}
