import { describe, expect, it } from 'vitest'
import type { MailboxEntry, MailboxPage } from '../../../shared/ipc'
import { selectClaudeTeamCount, selectUnreadCount, selectVisibleMessages } from './mailboxSlice'
import { createAppStore } from './store'

let rev = 0
/** An entry of team `docs`; ids sort as their number. */
function entry(n: number, over: Partial<MailboxEntry> = {}): MailboxEntry {
  const id = String(n).padStart(13, '0')
  const to = over.to ?? 'carol'
  return {
    key: `${to}/${id}`,
    id,
    source: 'swarmdesk',
    team: 'docs',
    from: 'team-lead',
    to,
    timestamp: '2026-01-01T00:00:00.000Z',
    kind: 'plain',
    summary: `m${n}`,
    read: false,
    text: `m${n}`,
    rev: ++rev,
    ...over
  }
}

/** A message of Claude Code team `team`, keyed and ordered as main makes them (claudeCode/mailboxEntries.ts). */
function ccEntry(n: number, team: string, over: Partial<MailboxEntry> = {}): MailboxEntry {
  const to = over.to ?? 'alice'
  return entry(n, {
    key: `claude-code:${team}/${to}/m${n}`,
    id: `${String(n).padStart(13, '0')}-cc-m${n}`,
    source: 'claude-code',
    team,
    text: `cc${n}`,
    ...over
  })
}

function page(entries: MailboxEntry[], over: Partial<MailboxPage> = {}): MailboxPage {
  return { team: 'docs', deleted: false, entries, offset: 0, total: entries.length, dropped: 0, ...over }
}

const texts = (s: ReturnType<typeof createAppStore>) => s.getState().mailbox.entries.map((e) => e.text)

describe('mailbox slice', () => {
  it('merges pages and pushes in message order, whatever order they arrive in', () => {
    const store = createAppStore()
    store.getState().applyMailboxChange({ type: 'messages', team: 'docs', entries: [entry(5)] })
    store.getState().applyMailboxPage(page([entry(1), entry(3)]))
    store.getState().applyMailboxChange({ type: 'messages', team: 'docs', entries: [entry(2), entry(6)] })
    expect(texts(store)).toEqual(['m1', 'm2', 'm3', 'm5', 'm6'])
    const { index, entries } = store.getState().mailbox
    for (const [i, e] of entries.entries()) expect(index.get(e.key)).toBe(i)
    expect(store.getState().mailbox.loaded).toBe(true)
  })

  it('keeps the newer revision of a message: a stale page never marks a read message unread', () => {
    const store = createAppStore()
    const unread = entry(1)
    const read = { ...unread, read: true, rev: ++rev }
    store.getState().applyMailboxChange({ type: 'messages', team: 'docs', entries: [read] })
    const before = store.getState().mailbox
    store.getState().applyMailboxChange({ type: 'messages', team: 'docs', entries: [unread] })
    expect(store.getState().mailbox).toBe(before)
    store.getState().applyMailboxPage(page([unread]))
    expect(store.getState().mailbox.entries).toEqual([read])
    expect(selectUnreadCount(store.getState())).toBe(0)
  })

  it('keeps a deleted team’s messages, marked, and starts empty for a new team', () => {
    const store = createAppStore()
    store.getState().applyMailboxPage(page([entry(1), entry(2)]))
    store.getState().toggleMailboxRaw(entry(1).key)
    store.getState().applyMailboxChange({ type: 'team', team: 'docs', deleted: true })
    expect(store.getState().mailbox).toMatchObject({ team: 'docs', deleted: true })
    expect(texts(store)).toEqual(['m1', 'm2'])
    store.getState().setMailboxFilters({ unreadOnly: true })
    store.getState().applyMailboxChange({ type: 'team', team: 'next', deleted: false })
    expect(store.getState().mailbox).toMatchObject({
      team: 'next',
      deleted: false,
      loaded: false,
      entries: [],
      raw: {}
    })
    // the person's filters survive the team change
    expect(store.getState().mailbox.filters.unreadOnly).toBe(true)
  })

  it('filters by agent (sender or recipient), kind and unread; the same array while nothing changed', () => {
    const store = createAppStore()
    store
      .getState()
      .applyMailboxPage(
        page([
          entry(1, { to: 'carol', kind: 'task_assignment' }),
          entry(2, { from: 'carol', to: 'team-lead', kind: 'permission_request', read: true }),
          entry(3, { from: 'alice', to: 'bob' })
        ])
      )
    const visible = () => selectVisibleMessages(store.getState()).map((e) => e.id.replace(/^0+/, ''))
    expect(visible()).toEqual(['1', '2', '3'])
    store.getState().setMailboxFilters({ agent: 'carol' })
    expect(visible()).toEqual(['1', '2'])
    expect(selectVisibleMessages(store.getState())).toBe(selectVisibleMessages(store.getState()))
    store.getState().setMailboxFilters({ kind: 'permission_request' })
    expect(visible()).toEqual(['2'])
    store.getState().setMailboxFilters({ team: null, agent: null, kind: null, unreadOnly: true })
    expect(visible()).toEqual(['1', '3'])
    expect(selectUnreadCount(store.getState())).toBe(2)
  })

  it('keeps Claude Code’s messages, interleaved in time, whichever Swarmdesk team is followed, and filters by team', () => {
    const store = createAppStore()
    store
      .getState()
      .applyMailboxChange({ type: 'claudeCode', entries: [ccEntry(2, 'session-a'), ccEntry(4, 'session-b')] })
    // no Swarmdesk team yet: Claude Code's cards are there all the same
    expect(store.getState().mailbox.team).toBeNull()
    expect(texts(store)).toEqual(['cc2', 'cc4'])
    store.getState().applyMailboxPage(page([entry(1), entry(3), ccEntry(2, 'session-a')]))
    expect(texts(store)).toEqual(['m1', 'cc2', 'm3', 'cc4'])
    expect(selectClaudeTeamCount(store.getState())).toBe(2)
    // a read (delivered) Claude Code message replaces its older revision
    store
      .getState()
      .applyMailboxChange({ type: 'claudeCode', entries: [ccEntry(2, 'session-a', { read: true, delivered: true })] })
    expect(store.getState().mailbox.entries[1]).toMatchObject({ text: 'cc2', read: true, delivered: true })
    store.getState().setMailboxFilters({ team: 'claude-code:session-a' })
    expect(selectVisibleMessages(store.getState()).map((e) => e.text)).toEqual(['cc2'])
    store.getState().setMailboxFilters({ team: 'swarmdesk:docs' })
    expect(selectVisibleMessages(store.getState()).map((e) => e.text)).toEqual(['m1', 'm3'])
    // Swarmdesk follows another team: its old messages go, Claude Code's stay (with their raw toggles)
    store.getState().toggleMailboxRaw(ccEntry(4, 'session-b').key)
    store.getState().toggleMailboxRaw(entry(1).key)
    store.getState().applyMailboxChange({ type: 'team', team: 'next', deleted: false })
    expect(texts(store)).toEqual(['cc2', 'cc4'])
    expect(store.getState().mailbox.raw).toEqual({ [ccEntry(4, 'session-b').key]: true })
    const { index, entries } = store.getState().mailbox
    for (const [i, e] of entries.entries()) expect(index.get(e.key)).toBe(i)
    // a page of yet another team keeps them too
    store.getState().applyMailboxPage(page([entry(5, { team: 'third' })], { team: 'third' }))
    expect(texts(store)).toEqual(['cc2', 'cc4', 'm5'])
  })

  it('opens and closes a card’s raw JSON, and records a listing error', () => {
    const store = createAppStore()
    store.getState().toggleMailboxRaw('carol/1')
    expect(store.getState().mailbox.raw).toEqual({ 'carol/1': true })
    store.getState().toggleMailboxRaw('carol/1')
    expect(store.getState().mailbox.raw).toEqual({})
    store.getState().setMailboxError('The mailbox could not be listed: closed')
    expect(store.getState().mailbox.error).toMatch(/could not be listed/)
    store.getState().applyMailboxPage(page([]))
    expect(store.getState().mailbox.error).toBeUndefined()
  })
})
