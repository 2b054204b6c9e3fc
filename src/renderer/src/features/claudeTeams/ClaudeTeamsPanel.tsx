import { useEffect, useState } from 'react'
import type { ClaudeTeamView } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'
import { ClaudeBoard } from './ClaudeBoard'
import { ClaudeMemberRows } from './ClaudeMemberRows'
import { startClaudeTeams, useAction, useClaudeTeams } from './claudeTeamsStore'
import './claudeTeams.css'

// Claude Code's agent teams (docs/claude-code-teams.md): the drawer's "Claude Code" tab, every
// team whole — its rows (the dashboard's, with subagents nested), its board, its message cards
// with plan answers, and every file that does not parse. Every action is written with Claude
// Code's protocol by main (claudeTeams.* requests). An ended team shows the same, read-only.

function Team({ team }: { team: ClaudeTeamView }) {
  const live = team.status === 'live'
  const [error, act] = useAction()
  return (
    <section className="cc-team" aria-label={`Claude Code team ${team.name}`}>
      <header>
        <h3>{team.name}</h3>
        <span className={`cc-status ${team.status}`}>{live ? 'live' : 'ended (read-only)'}</span>
      </header>
      {error ? (
        <p role="alert" className="cc-error">
          {error}
        </p>
      ) : null}
      {team.unreadable.map((u) => (
        <p key={u.path} className="cc-unreadable" role="status">
          Unreadable <code>{u.path}</code>: {u.reason}
        </p>
      ))}
      <ClaudeMemberRows team={team} act={act} />
      <ClaudeBoard team={team} />
      <ol className="cc-cards" aria-label="Messages">
        {team.messages.map((m) => (
          <li key={`${m.to}/${m.key}`} className={`cc-card kind-${m.kind}`}>
            <span className="cc-route">
              {m.from} → {m.to}
            </span>{' '}
            <span className="cc-summary">{m.summary}</span>
            {m.delivered ? <span className="cc-chip">delivered</span> : null}
            {m.invalid ? <span className="cc-chip">malformed: {m.invalid}</span> : null}
            {live && m.kind === 'plan_approval_request' ? (
              <PlanAnswer team={team.name} from={m.from} text={m.text} act={act} />
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  )
}

function PlanAnswer(props: { team: string; from: string; text: string; act: (work: () => Promise<unknown>) => void }) {
  let requestId: string | undefined
  try {
    requestId = (JSON.parse(props.text) as { requestId?: string }).requestId
  } catch {
    requestId = undefined
  }
  if (!requestId) return null
  const answer = (approve: boolean) =>
    props.act(() =>
      connectedApi().request('claudeTeams.answerPlan', {
        team: props.team,
        name: props.from,
        requestId: requestId!,
        approve
      })
    )
  return (
    <span className="cc-plan">
      <button type="button" onClick={() => answer(true)}>
        Approve
      </button>
      <button type="button" onClick={() => answer(false)}>
        Reject
      </button>
    </span>
  )
}

/** The "Claude Code" tab: every team under Claude Code's config folder, live first. */
export function ClaudeTeamsPanel({ active }: { active: boolean }) {
  const teams = useClaudeTeams((s) => s.teams)
  const error = useClaudeTeams((s) => s.error)
  const [shown, setShown] = useState(false)
  useEffect(() => {
    if (active && !shown) {
      setShown(true)
      startClaudeTeams()
    }
  }, [active, shown])
  if (error) return <p className="cc-error">{error}</p>
  if (!teams) return <p className="cc-empty">{shown ? 'Reading Claude Code’s teams…' : ''}</p>
  if (teams.teams.length === 0)
    return (
      <p className="cc-empty">
        No Claude Code team under <code>{teams.configDir}</code> yet. Teams appear here while an interactive Claude Code
        session with agent teams runs.
      </p>
    )
  return (
    <div className="cc-teams">
      {teams.teams.map((t) => (
        <Team key={t.name} team={t} />
      ))}
    </div>
  )
}
