import { promises as fs, renameSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { MailboxMessageSchema, type MailboxMessage } from '../../../shared/mailbox'
import { writeAllSync, writeNewFileSync } from '../locks'
import { InboxNotAFolderError, TeamGoneError } from './errors'
import { isMessageFile, type InboxPaths } from './names'

/** A file of an inbox that could not be used: skipped, never fatal. `path` is absolute. */
export interface InboxProblem {
  path: string
  problem: string
}

/** A delivered message with its read state (`cur/` = read) and its file. */
export interface InboxEntry {
  message: MailboxMessage
  read: boolean
  path: string
}

const created = new Set<string>()

/** Files read at once by {@link readEntries}. */
const READ_BATCH = 64

/** Creates `tmp/`, `new/` and `cur/` once per process (re-created if the inbox was deleted). */
export async function ensureInbox(paths: InboxPaths, force = false): Promise<void> {
  if (!force && created.has(paths.root)) return
  await Promise.all([paths.tmp, paths.new, paths.cur].map((d) => fs.mkdir(d, { recursive: true }))).catch(
    (error: unknown) => {
      throw notAFolder(paths, error) ?? error
    }
  )
  created.add(paths.root)
}

/**
 * An {@link InboxNotAFolderError} for `error` when it is a file standing where a folder of the inbox
 * must be (`ENOTDIR`, or `EEXIST` from a mkdir), naming the first such file; else undefined.
 */
export function notAFolder(paths: InboxPaths, error: unknown): InboxNotAFolderError | undefined {
  const code = (error as NodeJS.ErrnoException).code
  if (code !== 'ENOTDIR' && code !== 'EEXIST') return undefined
  const chain: string[] = []
  for (let dir = paths.new; dir !== dirname(dir); dir = dirname(dir)) chain.unshift(dir)
  for (const dir of chain.concat(paths.tmp, paths.cur)) {
    try {
      if (!statSync(dir).isDirectory()) return new InboxNotAFolderError(basename(paths.root), dir)
    } catch {
      // missing (or unreadable): not the file in the way
    }
  }
  return undefined
}

/**
 * Like {@link ensureInbox}, but never creates the team's own folder: each level below
 * `teams/{team}` is made on its own, so a team deleted meanwhile is not brought back by a late
 * send (a teammate's last answer racing the leader's TeamDelete).
 * @throws TeamGoneError when `teams/{team}` does not exist.
 */
async function ensureInboxInExistingTeam(paths: InboxPaths, force = false): Promise<void> {
  if (!force && created.has(paths.root)) return
  const inboxes = dirname(paths.root)
  const team = basename(dirname(inboxes))
  for (const dir of [inboxes, paths.root, paths.tmp, paths.new, paths.cur]) {
    try {
      await fs.mkdir(dir)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT') throw new TeamGoneError(team)
      const blocked = notAFolder(paths, error)
      if (blocked) throw blocked
      if (code !== 'EEXIST') throw error
    }
  }
  created.add(paths.root)
}

/**
 * Delivers one message: writes `tmp/{id}.json` (exclusive create), optionally fsyncs it, renames
 * it into `new/`. The rename is the commit point — atomic on POSIX within one file system — so a reader
 * sees the whole file or nothing, and a writer killed before it leaves only a `tmp/` file.
 * No lock: writers never wait for each other. Resolves once the rename is done.
 *
 * `fsync` guards against power loss only. A killed process cannot lose what it wrote: the data is
 * in the kernel's page cache, which outlives the process. Measured here, an fsync costs ~10 ms a
 * message (and ~20 ms with 32 writers syncing at once), twice the whole delivery budget (
 * docs/teams.md#mailbox wants an idle recipient woken "at once"), so it is off by default.
 * @returns the delivered file's path.
 */
export async function deliver(
  paths: InboxPaths,
  message: MailboxMessage,
  fsync = false,
  existingTeamOnly = false
): Promise<string> {
  if (existingTeamOnly) await ensureInboxInExistingTeam(paths)
  else await ensureInbox(paths)
  const name = `${message.id}.json`
  const data = JSON.stringify(message)
  const tmp = join(paths.tmp, name)
  const dest = join(paths.new, name)
  const write = fsync ? () => writeSyncedThenRename(tmp, dest, data) : async () => writeThenRename(tmp, dest, data)
  try {
    await write()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    // the inbox was deleted since this process created it (a leftover tmp file is swept later)
    if (existingTeamOnly) await ensureInboxInExistingTeam(paths, true)
    else await ensureInbox(paths, true)
    await write()
  }
  return dest
}

/**
 * The fast path: four plain system calls (open, write, close, rename) of a small file, ~0.2 ms.
 * Synchronous on purpose: the thread-pool hops of the async versions cost more CPU than the
 * calls themselves, and CPU is what 32 writers on two cores run short of (burst benchmark).
 */
function writeThenRename(tmp: string, dest: string, data: string): void {
  writeNewFileSync(tmp, data)
  renameSync(tmp, dest)
}

/** The durable path: the fsync takes milliseconds, so it must not block the event loop. */
async function writeSyncedThenRename(tmp: string, dest: string, data: string): Promise<void> {
  const handle = await fs.open(tmp, 'wx')
  try {
    writeAllSync(handle.fd, data, tmp)
    await handle.sync()
  } catch (error) {
    await handle.close()
    await fs.rm(tmp, { force: true })
    throw error
  }
  await handle.close()
  await fs.rename(tmp, dest)
}

async function listDir(paths: InboxPaths, dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).filter(isMessageFile)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw notAFolder(paths, error) ?? error
  }
}

/** Parses one message file; `undefined` + a problem when it is not a valid message. */
function parseMessage(path: string, name: string, raw: string): { message?: MailboxMessage; problem?: InboxProblem } {
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch (error) {
    return { problem: { path, problem: `not JSON (${(error as Error).message}); fix or delete the file` } }
  }
  const parsed = MailboxMessageSchema.safeParse(json)
  if (!parsed.success) {
    return {
      problem: {
        path,
        problem: `not a message: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`
      }
    }
  }
  if (`${parsed.data.id}.json` !== name)
    return {
      problem: {
        path,
        problem: `id '${parsed.data.id}' does not match the file name; rename the file to '${parsed.data.id}.json'`
      }
    }
  return { message: parsed.data }
}

/**
 * Reads an inbox, oldest first (by id). `new/` is listed before `cur/`, so a message marked read
 * meanwhile is seen (once, as read) rather than missed. `tmp/` is never read. A missing inbox is
 * empty. Invalid files are reported in `problems` and skipped; the valid ones are all returned.
 * `only` filters the file names of `new/` before they are read (the watcher's fast path).
 */
export async function readEntries(
  paths: InboxPaths,
  opts: { unreadOnly?: boolean; only?: (name: string) => boolean } = {}
): Promise<{ entries: InboxEntry[]; problems: InboxProblem[] }> {
  const unread = (await listDir(paths, paths.new)).filter((n) => !opts.only || opts.only(n))
  const read = opts.unreadOnly ? [] : await listDir(paths, paths.cur)
  const byName = new Map<string, boolean>()
  for (const n of unread) byName.set(n, false)
  for (const n of read) byName.set(n, true)
  const names = [...byName.keys()].sort()
  const entries: InboxEntry[] = []
  const problems: InboxProblem[] = []
  const readOne = async (name: string): Promise<void> => {
    let isRead = byName.get(name) === true
    let path = join(isRead ? paths.cur : paths.new, name)
    let raw: string
    try {
      raw = await fs.readFile(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        problems.push({ path, problem: `cannot be read (${(error as Error).message})` })
        return
      }
      // gone since the listing: deleted (skip), or marked read (look in cur/)
      if (isRead || opts.unreadOnly) return
      isRead = true
      path = join(paths.cur, name)
      try {
        raw = await fs.readFile(path, 'utf8')
      } catch {
        return
      }
    }
    const { message, problem } = parseMessage(path, name, raw)
    if (problem) problems.push(problem)
    if (message) entries.push({ message, read: isRead, path })
  }
  // bounded, so a large inbox never runs the process out of file descriptors
  for (let i = 0; i < names.length; i += READ_BATCH) await Promise.all(names.slice(i, i + READ_BATCH).map(readOne))
  entries.sort((a, b) => (a.message.id < b.message.id ? -1 : a.message.id > b.message.id ? 1 : 0))
  problems.sort((a, b) => a.path.localeCompare(b.path))
  return { entries, problems }
}

/**
 * Marks messages read: renames `new/{id}.json` → `cur/{id}.json` (atomic; two readers marking the
 * same message both succeed). Unknown ids are returned in `missing`.
 */
export async function markEntriesRead(
  paths: InboxPaths,
  ids: readonly string[]
): Promise<{ marked: string[]; missing: string[] }> {
  const marked: string[] = []
  const missing: string[] = []
  for (const id of ids) {
    const name = `${id}.json`
    try {
      await fs.rename(join(paths.new, name), join(paths.cur, name))
      marked.push(id)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      const already = await fs.stat(join(paths.cur, name)).then(
        () => true,
        () => false
      )
      ;(already ? marked : missing).push(id)
    }
  }
  return { marked, missing }
}

/**
 * Deletes `tmp/` files older than `olderThanMs` (by mtime): sends whose writer died before the
 * rename. Never touches a live send: a send spends milliseconds in `tmp/`, the default age is
 * 10 minutes. @returns how many were removed.
 */
export async function sweepTmp(paths: InboxPaths, olderThanMs: number, now = Date.now()): Promise<number> {
  let names: string[]
  try {
    names = await fs.readdir(paths.tmp)
  } catch {
    return 0
  }
  let removed = 0
  for (const name of names) {
    const path = join(paths.tmp, name)
    try {
      const st = await fs.stat(path)
      if (now - st.mtimeMs > olderThanMs) {
        await fs.unlink(path)
        removed++
      }
    } catch {
      // removed by another sweeper
    }
  }
  return removed
}
