import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import lockfile from 'proper-lockfile'
import {
  ClaudeInboxSchema,
  ClaudeTaskFileSchema,
  parseText,
  type ClaudeInboxMessage,
  type ClaudeTaskFile
} from './formats'
import { messageIdentity } from './protocol'

// Writing into a Claude Code team's files the way Claude Code 2.1.197 does
// (docs/claude-code-teams.md#writing-back). Its writers hold a proper-lockfile lock whose lock is the
// directory `<file>.lock` (mkdir is atomic; the holder touches its mtime, and a lock older than
// 10 s is stale), then read the file, change it, and write a temp file renamed over it. Swarmdesk
// takes the very same lock, so neither side ever writes over the other's change.

/** Retries while Claude Code holds the lock: more patient than its own (10 for an inbox, 30 for a task), ~20 s at most. */
const RETRIES = { retries: 200, minTimeout: 5, maxTimeout: 100 }

/** A write Claude Code's files refused: the file, and what was wrong with it or with the request. */
export class ClaudeWriteError extends Error {
  constructor(
    readonly path: string,
    message: string
  ) {
    super(`${path}: ${message}`)
    this.name = 'ClaudeWriteError'
  }
}

/** Refuses a team or agent name that is not one plain file name (it would write outside the team's folder). */
function plainName(kind: string, name: string): string {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name))
    throw new ClaudeWriteError(name, `${kind} '${name}' is not a plain name (no slashes, not . or ..)`)
  return name
}

/** Writes `text` to a temp file beside `path` and renames it over `path` (readers see the old or the new file, whole). */
async function replaceFile(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp.${randomBytes(4).toString('hex')}`
  try {
    await fs.writeFile(tmp, text, 'utf8')
    await fs.rename(tmp, path)
  } catch (error) {
    await fs.unlink(tmp).catch(() => undefined)
    throw error
  }
}

/**
 * Creates `path` as `[]` unless it exists. Claude Code creates it with an exclusive write, which a
 * reader can catch empty for an instant; Swarmdesk links a complete temp file instead, so its
 * inbox is never seen half-made (and proper-lockfile needs the file to exist before locking it).
 */
async function createEmptyInbox(path: string): Promise<void> {
  const tmp = `${path}.tmp.${randomBytes(4).toString('hex')}`
  await fs.writeFile(tmp, '[]', 'utf8')
  try {
    await fs.link(tmp, path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    await fs.unlink(tmp).catch(() => undefined)
  }
}

async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const release = await lockfile.lock(path, { lockfilePath: `${path}.lock`, retries: RETRIES })
  try {
    return await fn()
  } finally {
    await release()
  }
}

/** The inbox file of `agent` in `team`. */
export function inboxPath(root: string, team: string, agent: string): string {
  return join(root, 'teams', plainName('team', team), 'inboxes', `${plainName('agent', agent)}.json`)
}

/** The task file of task `id` in `team`. */
export function taskPath(root: string, team: string, id: string): string {
  return join(root, 'tasks', plainName('team', team), `${plainName('task id', id)}.json`)
}

/** A message to write: who it is from, its text (plain, or a protocol document's JSON), an optional summary and colour. */
export interface OutgoingMessage {
  from: string
  text: string
  summary?: string
  color?: string
}

/**
 * Appends a message to `agent`'s inbox of `team` as Claude Code does: creates the inbox (`[]`)
 * if missing, locks it, reads the array, pushes the message with a fresh `msg_id`,
 * `type: "message"` and `read: false`, and replaces the file.
 * @returns the message as written.
 * @throws ClaudeWriteError when the team folder is gone (an ended team is read-only) or the inbox is
 *   not a message array (it is left as it is); proper-lockfile's ELOCKED after ~20 s of a live holder.
 */
export async function appendToInbox(
  root: string,
  team: string,
  agent: string,
  message: OutgoingMessage
): Promise<ClaudeInboxMessage> {
  const path = inboxPath(root, team, agent)
  const teamDir = join(root, 'teams', team)
  try {
    await fs.access(join(teamDir, 'config.json'))
  } catch {
    throw new ClaudeWriteError(teamDir, `team '${team}' has ended (no config.json): its files are read-only`)
  }
  await fs.mkdir(join(teamDir, 'inboxes'), { recursive: true })
  await createEmptyInbox(path)
  return withFileLock(path, async () => {
    const parsed = parseText(ClaudeInboxSchema, await fs.readFile(path, 'utf8'))
    if (!parsed.ok) throw new ClaudeWriteError(path, `left unchanged, it is ${parsed.reason}`)
    const written: ClaudeInboxMessage = {
      from: message.from,
      text: message.text,
      ...(message.summary ? { summary: message.summary } : {}),
      timestamp: new Date().toISOString(),
      ...(message.color ? { color: message.color } : {}),
      ...messageIdentity(),
      type: 'message',
      read: false
    }
    await replaceFile(path, JSON.stringify([...parsed.value, written], null, 2))
    return written
  })
}

/**
 * Changes task `id` of `team` as TaskUpdate does, under the task file's own lock, and first the
 * list's (`tasks/<team>/.lock`, which Claude Code's claim holds while it checks owners): reads the
 * task, applies `change`, and replaces the file. `change` sees the task as it is under the lock and returns the
 * new one, or throws to refuse.
 * @throws ClaudeWriteError when the task file is missing (the list was wiped) or not a task.
 */
export async function updateTask(
  root: string,
  team: string,
  id: string,
  change: (task: ClaudeTaskFile) => ClaudeTaskFile
): Promise<ClaudeTaskFile> {
  const path = taskPath(root, team, id)
  try {
    await fs.access(path)
  } catch {
    throw new ClaudeWriteError(path, `task #${id} is no longer in team '${team}'s list (Claude Code wiped it)`)
  }
  const list = join(root, 'tasks', team, '.lock')
  await fs.writeFile(list, '', { flag: 'wx' }).catch(() => undefined)
  return withFileLock(list, () =>
    withFileLock(path, async () => {
      const parsed = parseText(ClaudeTaskFileSchema, await fs.readFile(path, 'utf8'))
      if (!parsed.ok) throw new ClaudeWriteError(path, `left unchanged, it is ${parsed.reason}`)
      const next = change(parsed.value)
      await replaceFile(path, JSON.stringify({ ...next, id }, null, 2))
      return next
    })
  )
}
