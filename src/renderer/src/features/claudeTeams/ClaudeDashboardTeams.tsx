import { useEffect } from 'react'
import type { ClaudeTeamView } from '../../../../shared/ipc'
import { useAppStore } from '../../store/store'
import { ClaudeMemberRows } from './ClaudeMemberRows'
import { startClaudeTeams, useAction, useClaudeTeams } from './claudeTeamsStore'
import './claudeTeams.css'

// Claude Code's teams on the team dashboard (docs/ui.md#claude-codes-teams), under Swarmdesk's
// own: every live team's members as rows, then the ended ones, folded, read-only.

function DashboardTeam({ team }: { team: ClaudeTeamView }) {
  const [error, act] = useAction()
  return (
    <section className="cc-dash-team" aria-label={`Claude Code team ${team.name}`}>
      <header className="dashboard-head">
        <h2 className="side-title">Claude Code · {team.name}</h2>
        <span className={`cc-status ${team.status}`}>{team.status === 'live' ? 'live' : 'ended (read-only)'}</span>
      </header>
      {error ? (
        <p role="alert" className="cc-error">
          {error}
        </p>
      ) : null}
      {team.unreadable.length > 0 ? (
        <p
          className="cc-unreadable"
          role="status"
          title={team.unreadable.map((u) => `${u.path}: ${u.reason}`).join('\n')}
        >
          {team.unreadable.length} file{team.unreadable.length === 1 ? '' : 's'} not in the format Claude Code 2.1.197
          writes (the Claude Code tab names them)
        </p>
      ) : null}
      <ClaudeMemberRows team={team} act={act} />
    </section>
  )
}

/** The dashboard's Claude Code teams; follows them from the first connection on. */
export function ClaudeDashboardTeams() {
  const connected = useAppStore((s) => s.connection.status === 'open')
  useEffect(() => {
    if (connected) startClaudeTeams()
  }, [connected])
  const teams = useClaudeTeams((s) => s.teams)
  if (!teams || teams.teams.length === 0) return null
  const live = teams.teams.filter((t) => t.status === 'live')
  const ended = teams.teams.filter((t) => t.status !== 'live')
  return (
    <div className="cc-dash">
      {live.map((t) => (
        <DashboardTeam key={t.name} team={t} />
      ))}
      {ended.length > 0 ? (
        <details className="cc-ended">
          <summary>Ended Claude Code teams ({ended.length}), read-only</summary>
          {ended.map((t) => (
            <DashboardTeam key={t.name} team={t} />
          ))}
        </details>
      ) : null}
    </div>
  )
}
