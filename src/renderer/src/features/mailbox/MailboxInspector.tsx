import './mailbox.css'
import { useMemo } from 'react'
import { MailboxKindSchema, type MailboxKind } from '../../../../shared/ipc'
import { selectUnreadCount, selectVisibleMessages } from '../../store/mailboxSlice'
import { actions, useAppStore } from '../../store/store'
import { KIND_LABELS } from './format'
import { MessageList } from './MessageList'

/**
 * The mailbox inspector (docs/ui.md#the-workspace-ui, issue 7 item 4): every message of the team, live, as readable
 * cards, with filters by agent, kind and read state. No props: it reads the mailbox slice of the
 * app store (fed by `mailbox.list` and `mailbox.changed`, see wireMailbox.ts). Meant for the
 * right-hand drawer's "Mailbox" tab. A deleted team's messages stay on show, marked, until the
 * leader creates the next team.
 */
export function MailboxInspector() {
  const team = useAppStore((s) => s.mailbox.team)
  const deleted = useAppStore((s) => s.mailbox.deleted)
  const loaded = useAppStore((s) => s.mailbox.loaded)
  const error = useAppStore((s) => s.mailbox.error)
  const dropped = useAppStore((s) => s.mailbox.dropped)
  const total = useAppStore((s) => s.mailbox.entries.length)
  const unread = useAppStore(selectUnreadCount)
  const visible = useAppStore(selectVisibleMessages)
  return (
    <section
      className="mailbox-inspector"
      aria-label="Mailbox inspector"
      data-team={team ?? ''}
      data-deleted={deleted ? 'true' : 'false'}
    >
      <header className="mb-top">
        <span className="mb-title">
          {team ? (
            <>
              Team <strong>{team}</strong>
            </>
          ) : (
            'No team'
          )}
        </span>
        {deleted ? (
          <span className="mb-deleted" title="TeamDelete removed its inboxes; these are the messages seen before">
            deleted team
          </span>
        ) : null}
        <span className="mb-counts" data-testid="mailbox-counts">
          {total} message{total === 1 ? '' : 's'} · {unread} unread
        </span>
      </header>
      <Filters />
      {error ? (
        <p className="mb-error" role="alert">
          {error}
        </p>
      ) : null}
      {dropped > 0 ? <p className="mb-note">{dropped} older messages are not kept.</p> : null}
      {visible.length > 0 ? (
        <MessageList entries={visible} />
      ) : (
        <p className="mailbox-empty">{emptyText(team, loaded, total)}</p>
      )}
    </section>
  )
}

function emptyText(team: string | null, loaded: boolean, total: number): string {
  if (!team) return 'No team yet: messages appear here once the leader creates a team.'
  if (!loaded && total === 0) return 'Loading the team’s messages…'
  if (total === 0) return 'No messages yet.'
  return 'No message matches these filters.'
}

/** Filters: agent (sender or recipient), kind, unread only. Options come from the messages themselves. */
function Filters() {
  const filters = useAppStore((s) => s.mailbox.filters)
  const entries = useAppStore((s) => s.mailbox.entries)
  const { names, kinds } = useMemo(() => {
    const names = new Set<string>()
    const kinds = new Set<MailboxKind>()
    for (const e of entries) {
      names.add(e.from)
      names.add(e.to)
      kinds.add(e.kind)
    }
    if (filters.agent) names.add(filters.agent)
    if (filters.kind) kinds.add(filters.kind)
    const order = MailboxKindSchema.options
    return {
      names: [...names].sort((a, b) => (a === 'team-lead' ? -1 : b === 'team-lead' ? 1 : a.localeCompare(b))),
      kinds: order.filter((k) => kinds.has(k))
    }
  }, [entries, filters.agent, filters.kind])
  const active = filters.agent !== null || filters.kind !== null || filters.unreadOnly
  return (
    <div className="mb-filters" role="group" aria-label="Filters">
      <label>
        <span className="mb-filter-label">Agent</span>
        <select
          aria-label="Filter by agent"
          value={filters.agent ?? ''}
          onChange={(e) => actions.setMailboxFilters({ agent: e.target.value || null })}
        >
          <option value="">All agents</option>
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="mb-filter-label">Kind</span>
        <select
          aria-label="Filter by kind"
          value={filters.kind ?? ''}
          onChange={(e) => actions.setMailboxFilters({ kind: (e.target.value || null) as MailboxKind | null })}
        >
          <option value="">All kinds</option>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </label>
      <label className="mb-unread-filter">
        <input
          type="checkbox"
          checked={filters.unreadOnly}
          onChange={(e) => actions.setMailboxFilters({ unreadOnly: e.target.checked })}
        />
        Unread only
      </label>
      {active ? (
        <button
          type="button"
          className="link-button"
          onClick={() => actions.setMailboxFilters({ agent: null, kind: null, unreadOnly: false })}
        >
          Clear
        </button>
      ) : null}
    </div>
  )
}
