import { useEffect, useState, type DragEvent } from 'react'
import type { ClaudeTeams, ClaudeTeamTask, ClaudeTeamView } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'
import './claudeTeams.css'

// Claude Code's agent teams (docs/claude-code-teams.md): the drawer's "Claude Code" tab. Its rows,
// board and cards are the views Swarmdesk's own team has; every action is written with Claude
// Code's protocol by main (claudeTeams.* requests). An ended team shows the same, read-only.

const COLUMNS: ReadonlyArray<ClaudeTeamTask['status']> = ['pending', 'in_progress', 'completed']
const COLUMN_LABEL: Record<ClaudeTeamTask['status'], string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed'
}

/** Runs a request, showing its refusal (main says why) instead of throwing. */
function useAction(): [string | undefined, (work: () => Promise<unknown>) => void] {
  const [error, setError] = useState<string | undefined>()
  const run = (work: () => Promise<unknown>): void => {
    setError(undefined)
    work().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
  }
  return [error, run]
}

function Team({ team }: { team: ClaudeTeamView }) {
  const live = team.status === 'live'
  const [error, act] = useAction()
  const [pane, setPane] = useState<{ name: string; text: string } | undefined>()
  const [draft, setDraft] = useState('')
  const api = connectedApi()
  const paneName = pane?.name
  // the open pane follows its transcript: read again whenever the team changes
  useEffect(() => {
    if (!paneName) return
    let current = true
    connectedApi()
      .request('claudeTeams.transcript', { team: team.name, name: paneName })
      .then(
        (read) => current && setPane({ name: paneName, ...read }),
        () => undefined
      )
    return () => {
      current = false
    }
  }, [team, paneName])
  const drop = (owner: string) => (e: DragEvent) => {
    e.preventDefault()
    const taskId = e.dataTransfer.getData('application/x-claude-task')
    if (taskId && live) act(() => api.request('claudeTeams.assign', { team: team.name, taskId, owner }))
  }
  const teammates = team.members.filter((m) => m.name !== 'team-lead')
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
      <ul className="cc-members" aria-label="Members">
        {teammates.map((m) => (
          <li key={m.name} onDragOver={(e) => e.preventDefault()} onDrop={drop(m.name)} data-member={m.name}>
            <span className="cc-name" style={m.color ? { color: m.color } : undefined}>
              {m.name}
            </span>
            <span className="cc-member-status">{m.status}</span>
            {m.planModeRequired ? <span className="cc-chip">plan mode</span> : null}
            {m.transcript ? (
              <button
                type="button"
                onClick={() =>
                  act(async () =>
                    setPane({
                      name: m.name,
                      ...(await api.request('claudeTeams.transcript', { team: team.name, name: m.name }))
                    })
                  )
                }
              >
                Pane
              </button>
            ) : null}
            {live && m.status === 'active' ? (
              <button
                type="button"
                onClick={() => act(() => api.request('claudeTeams.shutdown', { team: team.name, name: m.name }))}
              >
                Shut down
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {live && teammates.some((m) => m.status === 'active') ? (
        <form
          className="cc-message"
          onSubmit={(e) => {
            e.preventDefault()
            const to = new FormData(e.currentTarget).get('to')
            if (typeof to === 'string' && draft.trim())
              act(async () => {
                await api.request('claudeTeams.message', { team: team.name, to, text: draft })
                setDraft('')
              })
          }}
        >
          <select name="to" aria-label="Message to">
            {['team-lead', ...teammates.filter((m) => m.status === 'active').map((m) => m.name)].map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
          <input aria-label="Message" value={draft} onChange={(e) => setDraft(e.target.value)} />
          <button type="submit">Message</button>
        </form>
      ) : null}
      <div className="cc-board" aria-label="Tasks">
        {COLUMNS.map((status) => (
          <div key={status} className="cc-column">
            <h4>{COLUMN_LABEL[status]}</h4>
            {team.tasks
              .filter((t) => t.status === status)
              .map((t) => (
                <div
                  key={t.id}
                  className={`cc-task${t.wiped ? ' wiped' : ''}`}
                  draggable={live && !t.wiped && t.status !== 'completed'}
                  onDragStart={(e) => e.dataTransfer.setData('application/x-claude-task', t.id)}
                >
                  #{t.id} {t.subject}
                  {t.owner ? <span className="cc-owner"> · {t.owner}</span> : null}
                  {t.waitingFor.length > 0 ? (
                    <span className="cc-chip">waits for #{t.waitingFor.join(', #')}</span>
                  ) : null}
                  {t.wiped ? <span className="cc-chip">wiped by Claude Code</span> : null}
                </div>
              ))}
          </div>
        ))}
      </div>
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
      {pane ? (
        <figure className="cc-pane" aria-label={`${pane.name}'s transcript`}>
          <figcaption>
            {pane.name}{' '}
            <button type="button" onClick={() => setPane(undefined)}>
              Close
            </button>
          </figcaption>
          <pre>{pane.text}</pre>
        </figure>
      ) : null}
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

/** The "Claude Code" tab: every team under Claude Code's config folder, loaded when the tab is first shown. */
export function ClaudeTeamsPanel({ active }: { active: boolean }) {
  const [teams, setTeams] = useState<ClaudeTeams | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [started, setStarted] = useState(false)
  useEffect(() => {
    if (active && !started) setStarted(true)
  }, [active, started])
  useEffect(() => {
    if (!started) return
    let api
    try {
      api = connectedApi()
    } catch (e) {
      setError((e as Error).message)
      return
    }
    const off = api.on('claudeTeams.changed', setTeams)
    api
      .request('claudeTeams.list', {})
      .then(setTeams, (e: unknown) => setError(e instanceof Error ? e.message : String(e)))
    return off
  }, [started])
  if (error) return <p className="cc-error">{error}</p>
  if (!teams) return <p className="cc-empty">{started ? 'Reading Claude Code’s teams…' : ''}</p>
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
