import { randomUUID } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'

/**
 * A faithful model of Claude Code's teammate inbox (docs/teams.md#mailbox, STACK.md): one JSON array per
 * agent, `{team}/inboxes/{agent}.json`, rewritten whole under a proper-lockfile lock taken with
 * 10 retries of 5–100 ms (proper-lockfile's default stale time, 10 s, applies); the recipient
 * polls the file every 500 ms. The benchmark's yardstick, not product code.
 */
export const BASELINE_LOCK_OPTIONS = { retries: { retries: 10, minTimeout: 5, maxTimeout: 100 } }

/** Claude Code's inbox poll period, ms. */
export const BASELINE_POLL_MS = 500

/** One entry of the baseline's array. `text` carries the send time for latency figures. */
export interface BaselineMessage {
  id: string
  from: string
  text: string
  timestamp: string
  read: boolean
}

/**
 * Creates the inbox as `[]` unless it exists. The file appears whole (written aside, then
 * hard-linked into place, which fails if it exists): created and written in two steps outside the
 * lock, a late `[]` could land over the start of a locked writer's rewrite of the new file, and
 * the next read found `[]` followed by the rest of an array.
 */
async function ensureFile(file: string): Promise<void> {
  await fs.mkdir(dirname(file), { recursive: true })
  const aside = `${file}.${process.pid}.${randomUUID()}.new`
  await fs.writeFile(aside, '[]')
  try {
    await fs.link(aside, file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    })
  } finally {
    await fs.unlink(aside)
  }
}

/** Appends a message: lock, read the array, push, rewrite, unlock. Throws ELOCKED when retries run out. */
export async function baselineSend(file: string, message: BaselineMessage): Promise<void> {
  await ensureFile(file)
  const release = await lockfile.lock(file, BASELINE_LOCK_OPTIONS)
  try {
    const list = await baselineRead(file)
    list.push(message)
    await fs.writeFile(file, JSON.stringify(list, null, 2))
  } finally {
    await release()
  }
}

/** Reads the whole array (no lock, as Claude Code's reader does). A missing file is empty. */
export async function baselineRead(file: string): Promise<BaselineMessage[]> {
  let raw: string
  try {
    raw = await fs.readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return raw.trim() === '' ? [] : (JSON.parse(raw) as BaselineMessage[])
}

/** Takes the inbox lock and keeps it (a writer about to rewrite the file). */
export async function baselineHoldLock(file: string): Promise<void> {
  await ensureFile(file)
  await lockfile.lock(file, BASELINE_LOCK_OPTIONS)
}
