import './mailbox.css'
import { useMemo } from 'react'
import { MailboxKindSchema, type MailboxKind } from '../../../../shared/ipc'
import { selectClaudeTeamCount, selectUnreadCount, selectVisibleMessages, teamKeyOf } from '../../store/mailboxSlice'
import { actions, useAppStore } from '../../store/store'
import { useClaudeTeams } from '../claudeTeams/claudeTeamsStore'
import { KIND_LABELS, teamLabel } from './format'
import { MessageList } from './MessageList'

/**
 * The mailbox inspector (docs/ui.md#the-workspace-ui, issue 7 item 4): every message of the team, and of every
 * Claude Code team seen (docs/claude-code-teams.md#in-the-workspace), live, as readable cards,
 * with filters by team, agent, kind and read state. No props: it reads the mailbox slice of the
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
  const claudeTeams = useAppStore(selectClaudeTeamCount)
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
          ) : claudeTeams > 0 ? null : (
            'No team'
          )}
          {claudeTeams > 0 ? (
            <span className="mb-cc-count">
              {team ? ' · ' : ''}
              {claudeTeams} Claude Code team{claudeTeams === 1 ? '' : 's'}
            </span>
          ) : null}
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
        <p className="mailbox-empty">{emptyText(team || claudeTeams > 0 ? 'any' : null, loaded, total)}</p>
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

/**
 * Filters: team (Swarmdesk's, each Claude Code team's, ended ones marked), agent (sender or
 * recipient), kind, unread only. Options come from the messages themselves.
 */
function Filters() {
  const filters = useAppStore((s) => s.mailbox.filters)
  const entries = useAppStore((s) => s.mailbox.entries)
  const deleted = useAppStore((s) => s.mailbox.deleted)
  const ended = useClaudeTeams((s) =>
    (s.teams?.teams ?? [])
      .filter((t) => t.status === 'ended')
      .map((t) => t.name)
      .join('\n')
  )
  const { names, kinds, teams } = useMemo(() => {
    const names = new Set<string>()
    const kinds = new Set<MailboxKind>()
    const teams = new Map<string, string>()
    const over = new Set(ended.split('\n'))
    for (const e of entries) {
      const key = teamKeyOf(e)
      if (!teams.has(key)) {
        const gone = e.source === 'claude-code' ? (over.has(e.team) ? ' (ended)' : '') : deleted ? ' (deleted)' : ''
        teams.set(key, `${teamLabel(e.source, e.team)}${gone}`)
      }
      if (filters.team !== null && key !== filters.team) continue
      names.add(e.from)
      names.add(e.to)
      kinds.add(e.kind)
    }
    if (filters.agent) names.add(filters.agent)
    if (filters.kind) kinds.add(filters.kind)
    if (filters.team && !teams.has(filters.team)) teams.set(filters.team, filters.team)
    const order = MailboxKindSchema.options
    return {
      names: [...names].sort((a, b) => (a === 'team-lead' ? -1 : b === 'team-lead' ? 1 : a.localeCompare(b))),
      kinds: order.filter((k) => kinds.has(k)),
      // Swarmdesk's team first, then Claude Code's by name
      teams: [...teams].sort(
        ([a], [b]) => Number(b.startsWith('swarmdesk:')) - Number(a.startsWith('swarmdesk:')) || a.localeCompare(b)
      )
    }
  }, [entries, filters.agent, filters.kind, filters.team, deleted, ended])
  const active = filters.team !== null || filters.agent !== null || filters.kind !== null || filters.unreadOnly
  return (
    <div className="mb-filters" role="group" aria-label="Filters">
      <label>
        <span className="mb-filter-label">Team</span>
        <select
          aria-label="Filter by team"
          value={filters.team ?? ''}
          onChange={(e) => actions.setMailboxFilters({ team: e.target.value || null })}
        >
          <option value="">All teams</option>
          {teams.map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </label>
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
          onClick={() => actions.setMailboxFilters({ team: null, agent: null, kind: null, unreadOnly: false })}
        >
          Clear
        </button>
      ) : null}
    </div>
  )
}
