import type { StateCreator } from 'zustand/vanilla'
import type { MailboxChange, MailboxEntry, MailboxKind, MailboxPage } from '../../../shared/ipc'
import type { AppState } from './store'

/**
 * What the inspector shows: messages of one team (its {@link teamKeyOf}: Swarmdesk's or one of
 * Claude Code's), touching one agent (as sender or recipient), of one kind, unread only. `null` = any.
 */
export interface MailboxFilters {
  team: string | null
  agent: string | null
  kind: MailboxKind | null
  unreadOnly: boolean
}

/**
 * The team's messages as the mailbox inspector shows them (docs/ui.md#the-workspace-ui), fed by `mailbox.list` pages
 * and `mailbox.changed` pushes, plus the inspector's own UI state (filters, cards opened as raw
 * JSON). `entries` are oldest first (by message id, then inbox, as main orders them); `index`
 * maps a key to its position so an upsert is O(1) for the common case of a newer message.
 */
export interface MailboxSlice {
  mailbox: {
    /** The team followed; null before any team. */
    team: string | null
    /** The team was deleted (TeamDelete): its messages stay on show, marked. */
    deleted: boolean
    /** A `mailbox.list` answered since the last team change. */
    loaded: boolean
    entries: MailboxEntry[]
    index: ReadonlyMap<string, number>
    /** Older messages main dropped past its cap. */
    dropped: number
    /** Why the last listing failed, shown in the inspector. */
    error: string | undefined
    filters: MailboxFilters
    /** Keys of the cards showing their raw JSON. */
    raw: Readonly<Record<string, true>>
  }
  /** Merges a `mailbox.list` page; a page of another team replaces everything first. */
  applyMailboxPage(page: MailboxPage): void
  /** Applies a `mailbox.changed` push. */
  applyMailboxChange(change: MailboxChange): void
  setMailboxFilters(patch: Partial<MailboxFilters>): void
  toggleMailboxRaw(key: string): void
  setMailboxError(error: string | undefined): void
}

type MailboxState = MailboxSlice['mailbox']

const EMPTY_FILTERS: MailboxFilters = { team: null, agent: null, kind: null, unreadOnly: false }

/** A team as the inspector's team filter names it: `swarmdesk:{team}` or `claude-code:{team}`. */
export function teamKeyOf(e: Pick<MailboxEntry, 'source' | 'team'>): string {
  return `${e.source}:${e.team}`
}

/**
 * The state for Swarmdesk's team `team` before its first page: no Swarmdesk message, but the
 * messages of Claude Code's teams kept from `from` (they do not depend on Swarmdesk's team).
 */
function emptyMailbox(
  team: string | null,
  deleted: boolean,
  filters: MailboxFilters,
  from?: MailboxState
): MailboxState {
  const entries = from ? from.entries.filter((e) => e.source === 'claude-code') : []
  const index = new Map(entries.map((e, i) => [e.key, i]))
  const raw = Object.fromEntries(
    Object.keys(from?.raw ?? {})
      .filter((k) => index.has(k))
      .map((k) => [k, true as const])
  )
  return { team, deleted, loaded: false, entries, index, dropped: 0, error: undefined, filters, raw }
}

function compare(a: MailboxEntry, b: MailboxEntry): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0
}

/**
 * Upserts `incoming` into `state`'s entries: a known key is replaced only by a higher `rev` (a page
 * answered before a push never undoes it); new keys are appended when they sort after the last
 * entry, else merged in order. Returns `state` itself when nothing changed.
 */
export function upsertEntries(state: MailboxState, incoming: readonly MailboxEntry[]): MailboxState {
  let entries: MailboxEntry[] | undefined
  let index = state.index as Map<string, number>
  const fresh: MailboxEntry[] = []
  for (const e of incoming) {
    const at = index.get(e.key)
    if (at === undefined) {
      fresh.push(e)
      continue
    }
    const known = (entries ?? state.entries)[at]!
    if (known.rev >= e.rev) continue
    entries ??= state.entries.slice()
    entries[at] = e
  }
  if (fresh.length > 0) {
    const seen = new Set<string>()
    const unique = fresh.filter((e) => !seen.has(e.key) && (seen.add(e.key), true)).sort(compare)
    const base = entries ?? state.entries.slice()
    const last = base[base.length - 1]
    index = new Map(index)
    if (!last || compare(last, unique[0]!) < 0) {
      for (const e of unique) index.set(e.key, base.push(e) - 1)
      entries = base
    } else {
      entries = base.concat(unique).sort(compare)
      index = new Map(entries.map((e, i) => [e.key, i]))
    }
  }
  if (!entries) return state
  return { ...state, entries, index }
}

/** Creates the mailbox slice (zustand slices pattern). */
export const createMailboxSlice: StateCreator<AppState, [], [], MailboxSlice> = (set) => ({
  mailbox: emptyMailbox(null, false, EMPTY_FILTERS),
  applyMailboxPage: (page) =>
    set((s) => {
      const base =
        page.team === s.mailbox.team ? s.mailbox : emptyMailbox(page.team, page.deleted, s.mailbox.filters, s.mailbox)
      const next = upsertEntries(base, page.entries)
      return { mailbox: { ...next, deleted: page.deleted, loaded: true, dropped: page.dropped, error: undefined } }
    }),
  applyMailboxChange: (change) =>
    set((s) => {
      const m = s.mailbox
      if (change.type === 'team') {
        if (change.team === m.team)
          return change.deleted === m.deleted ? s : { mailbox: { ...m, deleted: change.deleted } }
        return { mailbox: emptyMailbox(change.team, change.deleted, m.filters, m) }
      }
      if (change.type === 'claudeCode') {
        const next = upsertEntries(m, change.entries)
        return next === m ? s : { mailbox: next }
      }
      // a change of a team this renderer did not hear about (a push lost while reconnecting): follow it
      const base = change.team === m.team ? m : emptyMailbox(change.team, false, m.filters, m)
      const next = upsertEntries(base, change.entries)
      return next === m ? s : { mailbox: next }
    }),
  setMailboxFilters: (patch) =>
    set((s) => ({ mailbox: { ...s.mailbox, filters: { ...s.mailbox.filters, ...patch } } })),
  toggleMailboxRaw: (key) =>
    set((s) => {
      const raw = { ...s.mailbox.raw }
      if (raw[key]) delete raw[key]
      else raw[key] = true
      return { mailbox: { ...s.mailbox, raw } }
    }),
  setMailboxError: (error) => set((s) => ({ mailbox: { ...s.mailbox, error } }))
})

/** Whether `e` passes `f`. An agent filter matches the sender or the recipient. */
export function matchesFilters(e: MailboxEntry, f: MailboxFilters): boolean {
  if (f.unreadOnly && e.read) return false
  if (f.team !== null && teamKeyOf(e) !== f.team) return false
  if (f.kind !== null && e.kind !== f.kind) return false
  if (f.agent !== null && e.from !== f.agent && e.to !== f.agent) return false
  return true
}

let memo: { entries: MailboxEntry[]; filters: MailboxFilters; out: MailboxEntry[] } | undefined

/** The entries the filters let through, oldest first; the same array while neither input changes. */
export function selectVisibleMessages(state: AppState): MailboxEntry[] {
  const { entries, filters } = state.mailbox
  if (memo && memo.entries === entries && memo.filters === filters) return memo.out
  const noFilter = filters.team === null && filters.agent === null && filters.kind === null && !filters.unreadOnly
  const out = noFilter ? entries : entries.filter((e) => matchesFilters(e, filters))
  memo = { entries, filters, out }
  return out
}

/** Unread messages of the team (a count for the tab and the filter). */
export function selectUnreadCount(state: AppState): number {
  let n = 0
  for (const e of state.mailbox.entries) if (!e.read) n++
  return n
}

let teamsMemo: { entries: MailboxEntry[]; count: number } | undefined

/** How many Claude Code teams have messages in the inspector (the same answer while the entries do not change). */
export function selectClaudeTeamCount(state: AppState): number {
  const { entries } = state.mailbox
  if (teamsMemo?.entries === entries) return teamsMemo.count
  const teams = new Set<string>()
  for (const e of entries) if (e.source === 'claude-code') teams.add(e.team)
  teamsMemo = { entries, count: teams.size }
  return teams.size
}
