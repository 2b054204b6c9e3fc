import { mkdir, readFile, realpath, rename, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, isAbsolute, join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { z } from 'zod'
import type { RecentWorkspace } from '../../shared/ipc'

/**
 * The recent workspaces list (docs/ui.md#the-workspace-ui "open a folder (recent list)"): `<home>/recent.json`,
 * most recently opened first, at most {@link RECENT_MAX} folders, each a canonical path (symlinks
 * resolved). Written atomically (temp file + rename, write-file-atomic), so a crash leaves the old
 * or the new list, never half of one. Shared by the Electron app and the web host; writes within
 * one process are serialised, and the file is re-read before each change, so two hosts running
 * side by side lose at most one concurrent change, never the file.
 */

/** Most folders the list keeps; opening one more drops the oldest. */
export const RECENT_MAX = 20

const EntrySchema = z.object({
  path: z.string().min(1).refine(isAbsolute, 'not an absolute path'),
  openedAt: z.string().min(1)
})
type Entry = z.infer<typeof EntrySchema>

const FileSchema = z.object({ schemaVersion: z.literal(1), workspaces: z.array(z.unknown()) })

/** `<home>/recent.json`. */
export function recentPath(home: string): string {
  return join(home, 'recent.json')
}

/** The recent list cannot be read: the file is not JSON or not a recent list. Its message names the file and what to do. */
export class RecentListError extends Error {
  override readonly name = 'RecentListError'
}

/** A folder that cannot be opened as a workspace: it does not exist or is not a directory. */
export class NotAFolderError extends Error {
  override readonly name = 'NotAFolderError'
}

/**
 * `~` and `~/…` (or `~\\…`) with the user's home folder (`os.homedir()`, i.e. `$HOME`) in place of
 * the tilde, as a shell expands them; any other path unchanged (`~user` forms are not expanded:
 * they stay relative and are refused as such).
 */
export function expandHome(path: string): string {
  if (path === '~') return homedir()
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(homedir(), path.slice(2))
  return path
}

/**
 * The canonical form of a folder to open: absolute, symlinks resolved, and a directory. A leading
 * `~` stands for the home folder ({@link expandHome}), as in a shell: people type `~/project`.
 * @param path absolute, `~`-relative, or relative to `base` when given.
 * @throws NotAFolderError naming the path when it is relative without `base`, missing, or not a directory.
 */
export async function canonicalFolder(path: string, base?: string): Promise<string> {
  const trimmed = expandHome(path.trim())
  if (!isAbsolute(trimmed) && base === undefined)
    throw new NotAFolderError(
      `'${trimmed}' is not an absolute path: give the folder's full path, e.g. /home/me/project or ~/project.`
    )
  const absolute = isAbsolute(trimmed) ? trimmed : join(base!, trimmed)
  let real: string
  try {
    real = await realpath(absolute)
  } catch {
    throw new NotAFolderError(`${absolute} does not exist: check the path, or create the folder first.`)
  }
  const info = await stat(real)
  if (!info.isDirectory())
    throw new NotAFolderError(`${absolute} is a file, not a folder: open the folder that contains it.`)
  return real
}

/** What {@link RecentWorkspaces.read} found: the good entries, and what was wrong with the file if anything. */
export interface RecentRead {
  entries: Entry[]
  /** Entries dropped because they were malformed (the rest were kept). */
  dropped: number
}

/**
 * The recent list of one Swarmdesk home. Methods re-read the file each time (another host may
 * have changed it) and never cache.
 */
export class RecentWorkspaces {
  private queue: Promise<unknown> = Promise.resolve()

  /**
   * @param home the Swarmdesk home (SWARMDESK_HOME, `~/.swarmdesk`).
   * @param now clock for `openedAt` (tests pass their own).
   */
  constructor(
    readonly home: string,
    private readonly now: () => Date = () => new Date()
  ) {}

  /** `<home>/recent.json`. */
  get file(): string {
    return recentPath(this.home)
  }

  /**
   * The list as the menu shows it, most recent first; each folder marked `missing` when it no
   * longer exists or is no longer a directory.
   * @throws RecentListError when the file is not a recent list at all (nothing is changed; the
   *   next {@link record} moves it aside and starts a new list).
   */
  async list(): Promise<RecentWorkspace[]> {
    const { entries } = await this.read()
    return Promise.all(
      entries.map(async (entry) => ({
        path: entry.path,
        name: basename(entry.path) || entry.path,
        openedAt: entry.openedAt,
        missing: !(await stat(entry.path).then(
          (s) => s.isDirectory(),
          () => false
        ))
      }))
    )
  }

  /**
   * Records that `folder` (canonical, see {@link canonicalFolder}) was opened now: it moves to the
   * top, and the list is cut to {@link RECENT_MAX}. A file that is not a recent list is moved aside
   * to `recent.json.corrupt` (kept for the person) and a new list started, so opening a workspace
   * never fails because of it. Malformed entries of an otherwise good file are dropped, the good
   * ones kept.
   * @returns the list after the change.
   */
  record(folder: string): Promise<RecentWorkspace[]> {
    return this.change(async (entries) =>
      [{ path: folder, openedAt: this.now().toISOString() }, ...entries.filter((e) => e.path !== folder)].slice(
        0,
        RECENT_MAX
      )
    )
  }

  /** Removes `folder` from the list (exact path); a folder not in it changes nothing. @returns the list after the change. */
  forget(folder: string): Promise<RecentWorkspace[]> {
    return this.change(async (entries) => entries.filter((e) => e.path !== folder))
  }

  /**
   * Reads and validates the file: missing → empty; malformed entries dropped and counted.
   * @throws RecentListError when the file is not JSON or not `{schemaVersion: 1, workspaces: [...]}`.
   */
  async read(): Promise<RecentRead> {
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], dropped: 0 }
      throw error
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      throw new RecentListError(
        `${this.file} is not valid JSON (${(error as Error).message}). Fix or delete it; opening a folder starts a new list and keeps the old file as recent.json.corrupt.`
      )
    }
    const file = FileSchema.safeParse(json)
    if (!file.success) {
      throw new RecentListError(
        `${this.file} is not a Swarmdesk recent list (expected {"schemaVersion": 1, "workspaces": [...]}). Fix or delete it; opening a folder starts a new list and keeps the old file as recent.json.corrupt.`
      )
    }
    const entries: Entry[] = []
    const seen = new Set<string>()
    let dropped = 0
    for (const raw of file.data.workspaces) {
      const entry = EntrySchema.safeParse(raw)
      if (!entry.success || seen.has(entry.data.path)) {
        dropped++
        continue
      }
      seen.add(entry.data.path)
      entries.push(entry.data)
    }
    return { entries: entries.slice(0, RECENT_MAX), dropped }
  }

  /** Runs one read-modify-write after every earlier one of this object. */
  private change(edit: (entries: Entry[]) => Promise<Entry[]>): Promise<RecentWorkspace[]> {
    const run = this.queue.then(async () => {
      let entries: Entry[]
      try {
        entries = (await this.read()).entries
      } catch (error) {
        if (!(error instanceof RecentListError)) throw error
        await rename(this.file, `${this.file}.corrupt`)
        entries = []
      }
      const next = await edit(entries)
      await mkdir(this.home, { recursive: true })
      await writeFileAtomic(this.file, `${JSON.stringify({ schemaVersion: 1, workspaces: next }, null, 2)}\n`, {
        encoding: 'utf8'
      })
      return this.list()
    })
    this.queue = run.catch(() => undefined)
    return run
  }
}
