import { promises as fs, watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'
import { MailboxMessageSchema, type MailboxMessage } from '../../shared/mailbox'
import type { Disposable } from '../runtime/base'
import type { TeamStorePort } from '../runtime/teamStore'
import { isMessageFile } from '../runtime/mailbox'

// How the mailbox inspector's feed (mailboxFeed.ts) reads the inbox folders of the maildir mailbox
// (docs/teams.md#mailbox): watches that survive a folder created or deleted later, scans that never
// overlap, and message files read wherever they moved to.

let watching = 0

/** Directory watches the feeds of this process hold (each an fs.watch handle and a timer). For leak tests. */
export function activeFeedWatches(): number {
  return watching
}

/** Wraps `scan` so at most one run is in flight and changes during a run cause exactly one more. */
export function serialize(scan: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined
  let again = false
  const run = (): Promise<void> => {
    if (running) {
      again = true
      return running
    }
    running = scan()
      .catch(() => undefined)
      .finally(() => {
        running = undefined
        if (again) {
          again = false
          void run()
        }
      })
    return running
  }
  return run
}

/** A directory watch; `attach` retries the fs.watch when it is not in place (a folder created since). */
export interface DirWatch extends Disposable {
  attach(): void
}

/**
 * Calls `onChange` on every fs.watch event of `dir` and every `pollMs` (a missed event, a folder
 * that does not exist yet or was deleted: the poll carries on alone). Watching the directory, not
 * its files: a file watch misses atomic renames (STACK.md).
 */
export function watchDir(dir: string, onChange: () => void, pollMs: number): DirWatch {
  let watcher: FSWatcher | undefined
  let disposed = false
  const attach = (): void => {
    if (watcher || disposed) return
    try {
      watcher = watch(dir, { persistent: false }, onChange)
      watcher.on('error', () => {
        watcher?.close()
        watcher = undefined
      })
    } catch {
      watcher = undefined
    }
  }
  attach()
  const timer = setInterval(() => {
    attach()
    onChange()
  }, pollMs)
  timer.unref?.()
  watching++
  return {
    attach,
    dispose() {
      if (disposed) return
      disposed = true
      watching--
      clearInterval(timer)
      watcher?.close()
      watcher = undefined
    }
  }
}

export /** The message files of one inbox folder (`new/` or `cur/`); none when it does not exist. */
async function listMessages(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).filter(isMessageFile)
  } catch {
    return []
  }
}

/** Reads `name` from `cur/` or `new/` (it may have moved since the listing); undefined when gone or not a valid message. */
export async function readMessage(
  root: string,
  name: string,
  isRead: boolean
): Promise<{ message: MailboxMessage; read: boolean } | undefined> {
  for (const read of isRead ? [true] : [false, true]) {
    let raw: string
    try {
      raw = await fs.readFile(join(root, read ? 'cur' : 'new', name), 'utf8')
    } catch {
      continue
    }
    try {
      const parsed = MailboxMessageSchema.safeParse(JSON.parse(raw))
      // invalid files are the CLI's to report (`swarmdesk mailbox`); the inspector skips them
      if (!parsed.success || `${parsed.data.id}.json` !== name) return undefined
      return { message: parsed.data, read }
    } catch {
      return undefined
    }
  }
  return undefined
}

/**
 * What the mailbox inspector's feed does with a JetStream store's pushes: `message` for each
 * message (with its read state, a mark pushed before it kept for it), `read` for a mark (key
 * `{to}/{id}`) that answers whether the message is known; an unknown one is kept for its message.
 */
export function followStoreMail(
  store: TeamStorePort,
  team: string,
  on: { message(message: MailboxMessage, read: boolean): void; read(key: string): boolean }
): Disposable & { ready: Promise<void> } {
  const marked = new Set<string>()
  return store.mailbox.follow!(team, (e) => {
    if (e.type === 'read') {
      const key = `${e.agent}/${e.id}`
      if (!on.read(key)) marked.add(key)
      return
    }
    on.message(e.message, marked.delete(`${e.message.to}/${e.message.id}`))
  })
}
