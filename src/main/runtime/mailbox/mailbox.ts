import {
  MAILBOX_SCHEMA_VERSION,
  MailboxMessageSchema,
  messageKind,
  parseMessageBody,
  ProtocolBodyError,
  protocolText,
  type MailboxMessage,
  type ProtocolBody,
  type ProtocolType
} from '../../../shared/mailbox'
import { toDisposable, type Disposable } from '../base'
import { InvalidMessageError, MailboxAbortError } from './errors'
import { readdirSync } from 'node:fs'
import { assertName, inboxPaths, isMessageFile, newMessageId, type InboxPaths } from './names'
import {
  deliver,
  ensureInbox,
  markEntriesRead,
  notAFolder,
  readEntries,
  sweepTmp,
  type InboxEntry,
  type InboxProblem
} from './store'
import { DEFAULT_POLL_MS, watchDirectory } from './watch'

/** Age after which a `tmp/` file is a dead writer's leftover and is swept, ms. */
export const STALE_TMP_MS = 10 * 60_000

/** What every message a sender gives has besides its content. */
interface OutgoingEnvelope {
  from: string
  color?: string
  summary?: string
  /** ISO time; defaults to now. */
  timestamp?: string
}

/**
 * What a sender gives; the mailbox adds `schemaVersion`, `id`, `to` and (by default) `timestamp`.
 * Exactly one of:
 * - `text`: a plain message. Text that claims a protocol type (a JSON object whose `type` is one
 *   of src/shared/mailbox.ts's) is refused: a structured message is sent as `body`.
 * - `body`: a structured message (docs/teams.md#mailbox), built with `protocolBody`; the mailbox
 *   checks it against its type's schema and stores its JSON as the message's `text`, as always.
 */
export type OutgoingMessage = OutgoingEnvelope & ({ text: string; body?: never } | { body: ProtocolBody; text?: never })

/** A send that was acknowledged: the message is in the recipient's `new/`. */
export interface SendResult {
  id: string
  /** The delivered file. */
  path: string
}

/** Fired after every acknowledged send (the runtime turns it into a `message_sent` event). */
export interface SentEvent {
  team: string
  message: MailboxMessage
  kind: 'plain' | ProtocolType
}

/** Result of {@link Mailbox.read}: valid messages oldest first, and the files that were skipped. */
export interface ReadResult {
  messages: InboxEntry[]
  problems: InboxProblem[]
}

export interface MailboxOptions {
  /** Swarmdesk's data directory (docs/storage.md#layout). */
  home: string
  /** Fallback poll period of waits and subscriptions, ms (default 2,000). */
  pollMs?: number
  /**
   * fsync every message before it is acknowledged: survives power loss, not just process crashes,
   * at ~10 ms a send on this kind of machine. Default false (see `deliver`).
   */
  fsync?: boolean
}

/**
 * Maildir-style inboxes under `<home>/teams/{team}/inboxes/{agent}/{tmp,new,cur}/` (docs/teams.md#mailbox).
 * Safe for any number of writers in threads and processes, without locks; see README "Mailbox".
 * Instances hold no resources of their own: only waits and subscriptions do, and they end with
 * their AbortSignal / disposable.
 */
export class Mailbox {
  readonly home: string
  private readonly pollMs: number
  private readonly fsync: boolean
  private readonly sentListeners = new Set<(e: SentEvent) => void>()
  private readonly swept = new Set<string>()

  constructor(options: MailboxOptions) {
    this.home = options.home
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS
    this.fsync = options.fsync ?? false
  }

  /** Paths of an inbox. @throws InvalidNameError */
  paths(team: string, agent: string): InboxPaths {
    return inboxPaths(this.home, team, agent)
  }

  /**
   * Delivers `message` to `to`'s inbox, creating the inbox on the first message. Resolves once the
   * message is in `new/` (acknowledged): from then on it survives any crash of the sender.
   * With `existingTeamOnly`, a team whose folder is gone (deleted) gets nothing and is not
   * created again: the send throws TeamGoneError instead.
   * @throws InvalidNameError for a bad team or recipient; InvalidMessageError for a bad message;
   *   TeamGoneError (only with `existingTeamOnly`).
   */
  async send(
    team: string,
    to: string,
    message: OutgoingMessage,
    opts: { existingTeamOnly?: boolean } = {}
  ): Promise<SendResult> {
    const paths = inboxPaths(this.home, team, assertName('to', to))
    const stored = composeMessage(to, message)
    const path = await deliver(paths, stored, this.fsync, opts.existingTeamOnly === true)
    this.sweepOnce(paths)
    const event: SentEvent = { team, message: stored, kind: messageKind(stored.text) }
    // the message is delivered whatever a listener does: a send never fails after its rename
    for (const l of this.sentListeners) {
      try {
        l(event)
      } catch (error) {
        setImmediate(() => {
          throw error
        })
      }
    }
    return { id: stored.id, path }
  }

  /**
   * Sends one message to every member but the sender (`to: "*"`, docs/teams.md#sendmessage-between-teammates). Members are
   * validated before anything is sent, so a bad name sends nothing.
   * @throws InvalidNameError for a bad member name.
   */
  async broadcast(team: string, members: readonly string[], message: OutgoingMessage): Promise<SendResult[]> {
    const targets = [...new Set(members)].filter((m) => m !== message.from)
    for (const m of targets) assertName('to', m)
    return Promise.all(targets.map((m) => this.send(team, m, message)))
  }

  /**
   * Number of unread messages in `agent`'s inbox (files in `new/`), read synchronously without
   * parsing them: a cheap check for "is anything waiting to be delivered" (docs/scenarios.md#scripted-model-scenarios). 0 for an
   * inbox that does not exist yet.
   */
  unreadCount(team: string, agent: string): number {
    try {
      return readdirSync(this.paths(team, agent).new).filter(isMessageFile).length
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
      throw notAFolder(this.paths(team, agent), error) ?? error
    }
  }

  /** Reads `agent`'s inbox, oldest first; changes nothing. Invalid files land in `problems`. */
  async read(team: string, agent: string, opts: { unreadOnly?: boolean } = {}): Promise<ReadResult> {
    const { entries, problems } = await readEntries(this.paths(team, agent), opts)
    return { messages: entries, problems }
  }

  /** Marks messages read (`new/` → `cur/`). Already-read ids count as marked; unknown ones are `missing`. */
  async markRead(
    team: string,
    agent: string,
    ids: readonly string[]
  ): Promise<{ marked: string[]; missing: string[] }> {
    return markEntriesRead(this.paths(team, agent), ids)
  }

  /**
   * Resolves with the oldest unread message, at once if one is waiting, else as soon as one
   * arrives (directory watch, poll fallback). Does not mark it read. Creates the (empty) inbox so
   * it can be watched. The watcher is released on every exit path.
   * @throws MailboxAbortError when `signal` aborts.
   */
  async waitForMessage(team: string, agent: string, opts: { signal?: AbortSignal } = {}): Promise<InboxEntry> {
    const paths = this.paths(team, agent)
    const { signal } = opts
    if (signal?.aborted) throw new MailboxAbortError(signal.reason)
    await ensureInbox(paths)
    return new Promise<InboxEntry>((resolve, reject) => {
      let done = false
      const finish = (fn: () => void): void => {
        if (done) return
        done = true
        watcher.dispose()
        signal?.removeEventListener('abort', onAbort)
        fn()
      }
      const onAbort = (): void => finish(() => reject(new MailboxAbortError(signal?.reason)))
      const check = async (): Promise<void> => {
        if (done) return
        try {
          const { entries } = await readEntries(paths, { unreadOnly: true })
          if (entries[0]) finish(() => resolve(entries[0]!))
        } catch (error) {
          finish(() => reject(error))
        }
      }
      const watcher = watchDirectory(paths.new, check, this.pollMs)
      signal?.addEventListener('abort', onAbort, { once: true })
      // aborted while the inbox was being created: the event has fired already
      if (signal?.aborted) onAbort()
      else void check()
    })
  }

  /**
   * Calls `listener` once for every unread message of the inbox — those waiting now, then each
   * new one as it arrives — oldest first. Messages marked read before they were seen are not
   * reported. A listener that throws does not end the subscription: its error goes to `onError`
   * (default: rethrown on a later tick, as an uncaught exception — a listener bug should be loud).
   * I/O errors of a scan are retried at the next change or poll. `ready` resolves once the watch
   * is set up and the waiting messages were reported. Dispose to stop.
   */
  onDidReceive(
    team: string,
    agent: string,
    listener: (entry: InboxEntry) => void,
    opts: { onError?: (error: unknown) => void } = {}
  ): Disposable & { ready: Promise<void> } {
    const onError =
      opts.onError ??
      ((error: unknown) =>
        setImmediate(() => {
          throw error
        }))
    const paths = this.paths(team, agent)
    const seen = new Set<string>()
    let disposed = false
    let watcher: Disposable | undefined
    const scan = async (): Promise<void> => {
      const listed = new Set<string>()
      const only = (n: string): boolean => (listed.add(n), !seen.has(n))
      const { entries } = await readEntries(paths, { unreadOnly: true, only })
      // forget names no longer in new/ (marked read), so `seen` stays as small as the unread set
      for (const n of seen) if (!listed.has(n)) seen.delete(n)
      for (const e of entries) {
        const name = `${e.message.id}.json`
        if (disposed || seen.has(name)) continue
        seen.add(name)
        try {
          listener(e)
        } catch (error) {
          onError(error)
        }
      }
    }
    const ready = ensureInbox(paths).then(() => {
      if (disposed) return
      watcher = watchDirectory(paths.new, scan, this.pollMs)
      return scan()
    })
    ready.catch(() => undefined)
    return Object.assign(
      toDisposable(() => {
        disposed = true
        watcher?.dispose()
      }),
      { ready }
    )
  }

  /** Subscribes to acknowledged sends made through this instance (a throwing listener's error is rethrown on a later tick). */
  onDidSend(listener: (e: SentEvent) => void): Disposable {
    this.sentListeners.add(listener)
    return toDisposable(() => this.sentListeners.delete(listener))
  }

  /** Deletes dead writers' `tmp/` leftovers older than `olderThanMs` (default 10 min). */
  async sweep(team: string, agent: string, olderThanMs = STALE_TMP_MS): Promise<number> {
    return sweepTmp(this.paths(team, agent), olderThanMs)
  }

  /** Sweeps each inbox once per instance, in the background, after its first send. */
  private sweepOnce(paths: InboxPaths): void {
    if (this.swept.has(paths.root)) return
    this.swept.add(paths.root)
    void sweepTmp(paths, STALE_TMP_MS).catch(() => undefined)
  }
}

/**
 * The whole stored message for `to` (id, time, checked text) from what a sender gives: the one
 * place every transport builds a message (docs/teams.md#mailbox).
 * @throws InvalidMessageError for a bad message.
 */
export function composeMessage(to: string, message: OutgoingMessage): MailboxMessage {
  const full = {
    schemaVersion: MAILBOX_SCHEMA_VERSION,
    id: newMessageId(),
    from: message.from,
    to,
    text: messageText(message),
    timestamp: message.timestamp ?? new Date().toISOString(),
    ...(message.color !== undefined ? { color: message.color } : {}),
    ...(message.summary !== undefined ? { summary: message.summary } : {})
  }
  const parsed = MailboxMessageSchema.safeParse(full)
  if (!parsed.success)
    throw new InvalidMessageError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '))
  return parsed.data
}

/**
 * The stored `text` of an outgoing message: a body's JSON once its schema accepts it; plain text
 * as given unless it claims a protocol type, which would reach readers unchecked.
 * @throws InvalidMessageError for a body its schema refuses, or plain text that claims a protocol type.
 */
function messageText(message: OutgoingMessage): string {
  if (message.body !== undefined) {
    try {
      return protocolText(message.body)
    } catch (error) {
      if (error instanceof ProtocolBodyError) throw new InvalidMessageError(`body: ${error.message}`)
      throw error
    }
  }
  if (typeof message.text !== 'string')
    throw new InvalidMessageError('text: give the message as text (plain) or body (structured)')
  const parsed = parseMessageBody(message.text)
  if (parsed.kind !== 'plain') {
    const type = parsed.kind === 'structured' ? parsed.body.type : parsed.type
    throw new InvalidMessageError(
      `text: this text is a ${type} body; send a structured message as body (built with protocolBody), so its schema checks it`
    )
  }
  return message.text
}

/** Creates a {@link Mailbox} over `home`. */
export function createMailbox(options: MailboxOptions): Mailbox {
  return new Mailbox(options)
}
