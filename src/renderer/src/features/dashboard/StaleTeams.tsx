import { useCallback, useEffect, useState } from 'react'
import type { StaleTeam } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'
import { useAppStore } from '../../store/store'
import { errorText } from '../../lib/errorText'

/**
 * The dashboard's list of stale teams (`teams.stale`): teams of this data directory whose leader
 * session is gone — a crash, or a new session — each with why it is stale and a Delete button
 * (`teams.deleteStale`, as `swarmdesk team delete` does: config, inboxes, task list, leftover
 * teammate processes). Main refuses a team whose leader lives; the refusal shows on its row.
 * Read when the dashboard opens, when the session's team changes, and on Refresh. Hidden when
 * there is none.
 */
export function StaleTeams() {
  const connected = useAppStore((s) => s.connection.status === 'open')
  const team = useAppStore((s) => s.dashboard.team)
  const [teams, setTeams] = useState<StaleTeam[]>([])
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [pending, setPending] = useState<string | undefined>()
  const [listError, setListError] = useState<string | undefined>()

  const refresh = useCallback(async () => {
    try {
      setTeams((await connectedApi().request('teams.stale', {})).teams)
      setListError(undefined)
    } catch (err) {
      setListError(`The stale teams could not be listed: ${errorText(err)}`)
    }
  }, [])

  useEffect(() => {
    if (connected) void refresh()
  }, [connected, team, refresh])

  const remove = async (name: string): Promise<void> => {
    setPending(name)
    try {
      await connectedApi().request('teams.deleteStale', { team: name })
      setErrors(({ [name]: _gone, ...rest }) => rest)
      await refresh()
    } catch (err) {
      setErrors((e) => ({ ...e, [name]: errorText(err) }))
    } finally {
      setPending(undefined)
    }
  }

  if (teams.length === 0 && !listError) return null
  return (
    <section className="stale-teams" aria-label="Stale teams">
      <header className="stale-teams-head">
        <h3 className="side-title">Stale teams</h3>
        <button type="button" className="btn btn-small" onClick={() => void refresh()} disabled={!connected}>
          Refresh
        </button>
      </header>
      {listError ? <p className="spawn-note error">{listError}</p> : null}
      <p className="spawn-note">
        Their leader session is gone; each keeps its name taken until deleted (or until a team of that name is created).
      </p>
      <ul className="stale-team-list">
        {teams.map((t) => (
          <li key={t.name} className="stale-team" data-testid="stale-team" data-team={t.name}>
            <div className="stale-team-line">
              <span className="stale-team-name">{t.name}</span>
              <span className="stale-team-members">
                {t.members} member{t.members === 1 ? '' : 's'}
              </span>
              <button
                type="button"
                className="btn btn-small stale-team-delete"
                aria-label={`Delete stale team ${t.name}`}
                disabled={!connected || pending !== undefined}
                onClick={() => void remove(t.name)}
              >
                {pending === t.name ? 'Deleting…' : 'Delete'}
              </button>
            </div>
            <p className="stale-team-reason">
              {t.description ? `${t.description} — ` : ''}stale: {t.reason}
            </p>
            {errors[t.name] ? (
              <p className="spawn-note error" role="alert" data-testid="stale-team-error">
                {errors[t.name]}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
