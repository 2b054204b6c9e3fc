import { useEffect } from 'react'
import { useAppStore } from '../../store/store'
import { ClaudeBoard } from './ClaudeBoard'
import { startClaudeTeams, useClaudeTeams } from './claudeTeamsStore'
import './claudeTeams.css'

/**
 * The task boards of the live Claude Code teams (docs/ui.md#claude-codes-teams), under Swarmdesk's
 * own board in the Tasks tab: a card dragged onto one of its team's dashboard rows is assigned.
 * Ended teams' boards are in the Claude Code tab.
 */
export function ClaudeTaskBoards() {
  const connected = useAppStore((s) => s.connection.status === 'open')
  useEffect(() => {
    if (connected) startClaudeTeams()
  }, [connected])
  const teams = useClaudeTeams((s) => s.teams)
  const live = (teams?.teams ?? []).filter((t) => t.status === 'live')
  if (live.length === 0) return null
  return (
    <div className="cc-task-boards">
      {live.map((t) => (
        <section key={t.name} className="cc-task-board" aria-label={`Claude Code tasks of ${t.name}`}>
          <h3 className="side-title">Claude Code · {t.name}</h3>
          <p className="task-hint">Drag a card onto a member's row on the dashboard to assign it.</p>
          <ClaudeBoard team={t} />
        </section>
      ))}
    </div>
  )
}
