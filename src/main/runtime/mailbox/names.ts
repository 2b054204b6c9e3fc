import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { InvalidNameError } from './errors'

/** Team and agent names: lowercase letters, digits, hyphens (docs/teams.md#spawning-a-teammate), 1–64 characters. */
const NAME_RE = /^[a-z0-9][a-z0-9-]{0,63}$/

/**
 * Turns any display name into a valid team/agent name: lowercase, every run of other characters
 * becomes `-`, trimmed to 64. `'Alice Smith'` → `'alice-smith'`. May return `''` (nothing usable).
 */
export function sanitizeName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
}

/**
 * Checks a team or agent name before it becomes a path segment; no sanitising behind the
 * caller's back, so `../x` or `Alice` fail loudly rather than land in another inbox.
 * @throws InvalidNameError naming the field and the fix.
 */
export function assertName(field: string, value: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new InvalidNameError(field, String(value), 'is empty: give a name of [a-z0-9-]')
  if (!NAME_RE.test(value)) {
    const hint = sanitizeName(value)
    throw new InvalidNameError(
      field,
      value,
      `must be 1-64 characters of [a-z0-9-] starting with a letter or digit${hint ? ` (did you mean '${hint}'?)` : ''}`
    )
  }
  return value
}

/** The folders of one inbox (maildir layout). */
export interface InboxPaths {
  /** `<home>/teams/{team}/inboxes/{agent}` */
  root: string
  /** Files being written; never read. A file here is a send that has not been acknowledged. */
  tmp: string
  /** Delivered, unread. */
  new: string
  /** Delivered, read. */
  cur: string
}

/** Paths of `agent`'s inbox in `team`. @throws InvalidNameError for a bad team or agent name. */
export function inboxPaths(home: string, team: string, agent: string): InboxPaths {
  const root = join(home, 'teams', assertName('team', team), 'inboxes', assertName('agent', agent))
  return { root, tmp: join(root, 'tmp'), new: join(root, 'new'), cur: join(root, 'cur') }
}

let lastMs = 0
let seq = 0
const processTag = `${process.pid.toString(36)}-${threadId.toString(36)}`

/**
 * A new message id, also its file name (plus `.json`):
 * `{ms: 13 digits}-{seq: 6 digits}-{pid base36}-{threadId base36}-{8 hex random}`.
 *
 * Sorting ids as strings orders messages by send time: `ms` never goes backwards within a thread
 * (a clock step back is clamped to the last value) and `seq` orders sends of the same
 * millisecond. Across threads and processes, order is by millisecond of the send, then by the
 * rest of the name (arbitrary but stable). pid + threadId + random make two writers' names
 * distinct without any coordination, even for a recycled pid.
 */
export function newMessageId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now
    seq = 0
  } else {
    seq++
  }
  return `${String(lastMs).padStart(13, '0')}-${String(seq).padStart(6, '0')}-${processTag}-${randomBytes(4).toString('hex')}`
}

/** What a protocol request id is for: a permission question, a shutdown request, a plan approval. */
export type RequestIdKind = 'perm' | 'shutdown' | 'plan'

/**
 * A new request id, the one format of every request of the team protocol and of the permission
 * queue: `{kind}-{16 hex random}` (`perm-3f9a…`, `shutdown-…`, `plan-…`). The reply carries it
 * back (`requestId` of a `permission_response`, `shutdown_approved`, `plan_approval_response`),
 * so it must be unique among the requests open at once in a team: 64 random bits are.
 * Readers accept any non-empty id (messages written before this format still parse).
 */
export function newRequestId(kind: RequestIdKind): string {
  return `${kind}-${randomBytes(8).toString('hex')}`
}

/** Whether a directory entry is a message file of ours (`{id}.json`, no dotfiles, no temp names). */
export function isMessageFile(name: string): boolean {
  return name.endsWith('.json') && !name.startsWith('.')
}
