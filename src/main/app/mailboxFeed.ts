import type { TeamContext, TeamStorePort } from '../runtime/teamStore'
import { existsSync, promises as fs } from 'node:fs'
import { join } from 'node:path'
import {
  MAILBOX_FEED_MAX,
  MAILBOX_PAGE_MAX,
  type MailboxChange,
  type MailboxEntry,
  type MailboxPage
} from '../../shared/ipc'
import { DisposableStore, Emitter, type Disposable } from '../runtime/base'
import { DEFAULT_POLL_MS } from '../runtime/mailbox'
import type { MailboxMessage } from '../../shared/mailbox'
import { compareEntries, compareIds, toEntry } from './mailboxEntry'
import { followStoreMail, listMessages, readMessage, serialize, watchDir, type DirWatch } from './mailboxWatch'

/** Options of {@link MailboxFeed}. */
export interface MailboxFeedOptions {
  /** Swarmdesk's data directory (docs/storage.md#layout): inboxes are under `<home>/teams/{team}/inboxes/`. */
  home: string
  /** Most messages kept; older ones are dropped and counted (default {@link MAILBOX_FEED_MAX}). */
  maxEntries?: number
  /** Fallback poll period of the directory watches, ms (default the mailbox's, 2,000). */
  pollMs?: number
  /** The session's team store: on JetStream the feed follows its pushes (`mailbox.follow`), not the folders. */
  store?: TeamStorePort
}

/**
 * How far apart (ms) the copies of one broadcast and its `message_sent {to: "*"}` event may be.
 * The mailbox delivers a broadcast as one send per recipient (docs/teams.md#sendmessage-between-teammates) with no mark of its own,
 * and the copies' timestamps are not tight (14 ms apart seen here), while separate sends of the
 * same words — two teammates spawned with one prompt — can be as close. So the feed groups copies
 * only when the runtime reported a broadcast by that sender ({@link MailboxFeed.noteBroadcast}):
 * plain messages from it with the same text and summary, to different inboxes, within this window.
 */
export const BROADCAST_WINDOW_MS = 5_000

/**
 * The mailbox inspector's view of one team (docs/ui.md#the-workspace-ui): every message of every inbox under
 * `<home>/teams/{team}/inboxes/{agent}/{new,cur}/`, oldest first, with its read state, followed
 * live by directory watches (the mailbox's own `onDidReceive` reports only unread messages, and
 * the inspector also needs every read).
 *
 * Decisions (documented for the UI): a broadcast stays one entry per recipient inbox, each marked
 * with all its recipients (see {@link BROADCAST_WINDOW_MS}); when the followed team is deleted
 * (TeamDelete), what was seen stays, marked `deleted`, until another team is followed, which
 * starts empty. Never creates or deletes anything on disk: it only lists and reads.
 *
 * Claude Code's teams' messages are merged in too ({@link putClaudeCode}), each marked with its
 * team; they stay whichever Swarmdesk team is followed.
 */
export class MailboxFeed implements Disposable {
  private readonly home: string
  private readonly max: number
  private readonly pollMs: number
  private readonly store: TeamStorePort | undefined
  private readonly changed = new Emitter<MailboxChange>()
  /** Fires for every change, after the feed's state reflects it. */
  readonly onDidChange = this.changed.event
  private team: string | undefined
  private deleted = false
  private entries: MailboxEntry[] = []
  private readonly byKey = new Map<string, MailboxEntry>()
  /** Broadcasts the runtime reported (sender, epoch ms), newest last. */
  private hints: Array<{ from: string; at: number }> = []
  private dropped = 0
  private rev = 0
  /** Claude Code's entries merged so far, by key: the highest revision seen (kept for those trimmed too). */
  private readonly claudeRevs = new Map<string, number>()
  private watches = new DisposableStore()
  private readonly inboxes = new Map<string, () => Promise<void>>()
  private pending = new Set<Promise<void>>()
  private disposed = false

  constructor(options: MailboxFeedOptions) {
    this.home = options.home
    this.max = options.maxEntries ?? MAILBOX_FEED_MAX
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS
    this.store = options.store?.mailbox.follow ? options.store : undefined
  }

  /**
   * Follows `team`'s mailboxes (TeamCreate, a resumed session's team), or marks the current team
   * deleted when `team` is undefined and its config is gone (TeamDelete). Following a new team
   * forgets the old one's messages. Fires a `team` change when anything changed.
   */
  follow(team: string | undefined): void {
    if (this.disposed) return
    if (team === undefined) {
      if (this.team === undefined) return
      this.stopWatching()
      // on a server only TeamDelete lets go of the team
      this.deleted = this.store ? true : !existsSync(join(this.teamDir(this.team), 'config.json'))
      if (!this.deleted) this.clear(undefined)
      this.changed.fire({ type: 'team', team: this.team ?? null, deleted: this.deleted })
      return
    }
    if (team === this.team && !this.deleted) return
    this.stopWatching()
    this.clear(team)
    this.changed.fire({ type: 'team', team, deleted: false })
    this.startWatching(team)
  }

  /** A page of the feed, oldest first: `limit` (1–5,000, default 5,000) entries from `offset`. */
  list(offset = 0, limit = MAILBOX_PAGE_MAX): MailboxPage {
    const n = Math.max(1, Math.min(MAILBOX_PAGE_MAX, limit))
    return {
      team: this.team ?? null,
      deleted: this.deleted,
      entries: this.entries.slice(offset, offset + n),
      offset,
      total: this.entries.length,
      dropped: this.dropped
    }
  }

  /**
   * Reads the followed team's inboxes once more, now, and resolves when done: called just before
   * TeamDelete removes them, so the last deliveries and reads are not lost with the folder.
   */
  async flush(): Promise<void> {
    if (this.disposed || this.deleted || this.team === undefined) return
    for (const scan of this.inboxes.values()) this.track(scan)
    await this.settled()
  }

  /** Resolves once every scan started so far has finished (tests; a scan never rejects). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending])
  }

  /** Stops every watch; the feed answers `list` with what it holds. Idempotent. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.stopWatching()
    this.changed.dispose()
  }

  private teamDir(team: string): string {
    return join(this.home, 'teams', team)
  }

  /** Forgets Swarmdesk's team's messages; Claude Code's stay. */
  private clear(team: string | undefined): void {
    this.team = team
    this.deleted = false
    this.entries = this.entries.filter((e) => e.source === 'claude-code')
    this.byKey.clear()
    for (const e of this.entries) this.byKey.set(e.key, e)
    this.hints = []
    this.dropped = 0
  }

  private stopWatching(): void {
    this.watches.dispose()
    this.watches = new DisposableStore()
    this.inboxes.clear()
  }

  /**
   * Watches the team folder (for `inboxes/` appearing), `inboxes/` (for a new agent's inbox) and
   * each inbox's `new/` and `cur/` (deliveries and reads). The mailbox creates `inboxes/{agent}/`
   * with its three folders before its first delivery, so watching starts before any message lands.
   */
  private startWatching(team: string): void {
    if (this.store) return this.followStore(team, this.store)
    const watches = this.watches
    const dir = join(this.teamDir(team), 'inboxes')
    const scanTeam = serialize(async () => {
      let agents: string[]
      try {
        agents = (await fs.readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name)
      } catch {
        return
      }
      if (watches.isDisposed) return
      if (!watched.has(dir)) {
        watched.add(dir)
        watches.add(watchDir(dir, () => this.track(scanTeam), this.pollMs))
        // an inbox created between the listing and the watch would wait for the poll: list again
        this.track(scanTeam)
      }
      for (const agent of agents) {
        if (this.inboxes.has(agent)) continue
        // the inbox folder too: its new/ and cur/ may still be being created (their watches then attach at the next scan)
        const dirs = [join(dir, agent), join(dir, agent, 'new'), join(dir, agent, 'cur')]
        const watchers: DirWatch[] = []
        const scan = serialize(async () => {
          for (const w of watchers) w.attach()
          await this.scanInbox(team, agent, watches)
        })
        this.inboxes.set(agent, scan)
        for (const d of dirs) watchers.push(watches.add(watchDir(d, () => this.track(scan), this.pollMs)))
        this.track(scan)
      }
    })
    const watched = new Set<string>()
    watches.add(watchDir(this.teamDir(team), () => this.track(scanTeam), this.pollMs))
    this.track(scanTeam)
  }

  /** Follows the team's inboxes on a JetStream store (mailboxWatch.ts `followStoreMail`). */
  private followStore(team: string, store: TeamStorePort): void {
    const watches = this.watches
    const sub = followStoreMail(store, team, {
      read: (key) => {
        const known = this.byKey.get(key)
        if (known && !known.read && !watches.isDisposed)
          this.add(team, [], new Set([this.update(known, { read: true }).key]))
        return known !== undefined
      },
      message: (message, read) => void (watches.isDisposed || this.add(team, [{ message, read }], new Set()))
    })
    watches.add(sub)
    this.track(() => sub.ready)
  }

  private track(scan: () => Promise<void>): void {
    const p = scan().catch(() => undefined)
    this.pending.add(p)
    void p.finally(() => this.pending.delete(p))
  }

  /** Lists one inbox; reads only files not seen yet, and updates the read state of the others. */
  private async scanInbox(team: string, agent: string, watches: DisposableStore): Promise<void> {
    const root = join(this.teamDir(team), 'inboxes', agent)
    // new/ before cur/: a message marked read in between is then seen once, as read
    const unread = await listMessages(join(root, 'new'))
    const read = await listMessages(join(root, 'cur'))
    if (watches.isDisposed) return
    const state = new Map<string, boolean>()
    for (const n of unread) state.set(n, false)
    for (const n of read) state.set(n, true)
    const changed = new Set<string>()
    const fresh: Array<{ message: MailboxMessage; read: boolean }> = []
    for (const [name, isRead] of state) {
      const known = this.byKey.get(`${agent}/${name.slice(0, -'.json'.length)}`)
      if (known) {
        // read state only ever goes new/ → cur/
        if (isRead && !known.read) changed.add(this.update(known, { read: true }).key)
        continue
      }
      const found = await readMessage(root, name, isRead)
      if (found && found.message.to === agent) fresh.push(found)
    }
    if (watches.isDisposed) return
    this.add(team, fresh, changed)
  }

  /** Inserts `fresh` messages (in id order), groups broadcasts, trims, and fires the entries in `changed` and the new ones. */
  private add(team: string, fresh: Array<{ message: MailboxMessage; read: boolean }>, changed: Set<string>): void {
    const senders = new Set<string>()
    fresh.sort((a, b) => compareIds(a.message.id, b.message.id))
    for (const { message, read: isRead } of fresh) {
      const entry = toEntry(message, isRead, ++this.rev, team)
      if (this.byKey.has(entry.key)) continue
      this.insert(entry)
      changed.add(entry.key)
      if (entry.kind === 'plain') senders.add(entry.from)
    }
    for (const from of senders) for (const e of this.groupBroadcasts(from)) changed.add(e.key)
    this.trim()
    const entries = [...changed].map((k) => this.byKey.get(k)).filter((e): e is MailboxEntry => e !== undefined)
    if (entries.length > 0) this.changed.fire({ type: 'messages', team, entries })
  }

  private update(entry: MailboxEntry, patch: Partial<MailboxEntry>): MailboxEntry {
    const next = { ...entry, ...patch, rev: ++this.rev }
    this.byKey.set(next.key, next)
    const i = this.indexOf(next)
    if (i >= 0) this.entries[i] = next
    return next
  }

  /** Inserts in order (id, then inbox); most deliveries are newer than everything seen, so append. */
  private insert(entry: MailboxEntry): void {
    this.byKey.set(entry.key, entry)
    const last = this.entries[this.entries.length - 1]
    if (!last || compareEntries(last, entry) < 0) {
      this.entries.push(entry)
      return
    }
    let lo = 0
    let hi = this.entries.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareEntries(this.entries[mid]!, entry) < 0) lo = mid + 1
      else hi = mid
    }
    this.entries.splice(lo, 0, entry)
  }

  private indexOf(entry: MailboxEntry): number {
    let lo = 0
    let hi = this.entries.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareEntries(this.entries[mid]!, entry) < 0) lo = mid + 1
      else hi = mid
    }
    return this.entries[lo]?.key === entry.key ? lo : -1
  }

  /**
   * The runtime reported a broadcast (`message_sent` with `to: "*"`, docs/events.md#event-stream-and-command-line) by `from` at `at`
   * (epoch ms): its copies, already seen or still to come, are marked with all their recipients.
   */
  noteBroadcast(from: string, at: number): void {
    if (this.disposed || this.team === undefined) return
    this.hints.push({ from, at })
    if (this.hints.length > 100) this.hints.shift()
    const changed = this.groupBroadcasts(from)
    if (changed.length > 0) this.changed.fire({ type: 'messages', team: this.team, entries: changed })
  }

  /** Marks the copies of `from`'s reported broadcasts among its recent plain messages; returns the entries it changed. */
  private groupBroadcasts(from: string): MailboxEntry[] {
    const hints = this.hints.filter((h) => h.from === from)
    if (hints.length === 0) return []
    const near = (e: MailboxEntry): boolean =>
      hints.some((h) => Math.abs(Date.parse(e.timestamp) - h.at) <= BROADCAST_WINDOW_MS)
    const groups = new Map<string, MailboxEntry[]>()
    // a broadcast is recent: look at the newest messages only
    for (let i = this.entries.length - 1; i >= Math.max(0, this.entries.length - 500); i--) {
      const e = this.entries[i]!
      if (e.source !== 'swarmdesk' || e.from !== from || e.kind !== 'plain' || !near(e)) continue
      const k = `${e.summary}\u0000${e.text}`
      groups.set(k, [...(groups.get(k) ?? []), e])
    }
    const changed: MailboxEntry[] = []
    for (const copies of groups.values()) {
      const recipients = [...new Set(copies.map((e) => e.to))].sort()
      if (recipients.length < 2) continue
      for (const e of copies)
        if (e.broadcast?.join(',') !== recipients.join(',')) changed.push(this.update(e, { broadcast: recipients }))
    }
    return changed
  }

  /**
   * Merges messages of Claude Code's teams (claudeCode/mailboxEntries.ts, every one the recorder
   * holds): each not seen yet, or whose revision grew, is upserted in time order and pushed as one
   * `claudeCode` change. One dropped past the cap stays dropped.
   */
  putClaudeCode(entries: readonly MailboxEntry[]): void {
    if (this.disposed) return
    const changed: MailboxEntry[] = []
    for (const e of entries) {
      const seen = this.claudeRevs.get(e.key)
      if (seen !== undefined && seen >= e.rev) continue
      this.claudeRevs.set(e.key, e.rev)
      if (seen !== undefined && !this.byKey.has(e.key)) continue // trimmed
      if (this.byKey.has(e.key)) {
        this.byKey.set(e.key, e)
        const i = this.indexOf(e)
        if (i >= 0) this.entries[i] = e
      } else this.insert(e)
      changed.push(e)
    }
    this.trim()
    const kept = changed.filter((e) => this.byKey.get(e.key) === e)
    if (kept.length > 0) this.changed.fire({ type: 'claudeCode', entries: kept })
  }

  /** Drops the oldest entries past the cap (docs/ui.md#the-workspace-ui: the inspector must stay smooth at 10,000). */
  private trim(): void {
    const excess = this.entries.length - this.max
    if (excess <= 0) return
    for (const e of this.entries.splice(0, excess)) this.byKey.delete(e.key)
    this.dropped += excess
  }
}

/**
 * A {@link MailboxFeed} that follows the session's team: the one it leads now (a resumed
 * session's), then every TeamCreate / TeamDelete (`onDidChangeTeam`, teams/context.ts),
 * reading the inboxes one last time before TeamDelete removes them (`onWillDeleteTeam`).
 * `team` undefined (no team tools in this session): the feed stays empty.
 */
export function followTeamMailboxes(
  team: Pick<TeamContext, 'team' | 'onDidChangeTeam' | 'onWillDeleteTeam'> | undefined,
  options: MailboxFeedOptions
): MailboxFeed {
  const feed = new MailboxFeed(options)
  if (!team) return feed
  feed.follow(team.team())
  const sub = team.onDidChangeTeam((t) => feed.follow(t))
  const last = team.onWillDeleteTeam(() => feed.flush())
  const dispose = feed.dispose.bind(feed)
  feed.dispose = () => {
    sub.dispose()
    last.dispose()
    dispose()
  }
  return feed
}
