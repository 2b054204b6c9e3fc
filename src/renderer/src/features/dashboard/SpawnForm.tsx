import { useState, type FormEvent } from 'react'
import { useAppStore } from '../../store/store'
import { dashboardCommands } from './commands'

/** Permission modes a teammate may start in; `plan` is the "plan approval required" box instead (docs/teams.md#spawning-a-teammate). */
const MODES = ['default', 'acceptEdits', 'dontAsk', 'bypassPermissions'] as const
type StartMode = (typeof MODES)[number]

/** Offers to create the session's team first: spawning a teammate needs one (docs/teams.md#spawning-a-teammate). */
function CreateTeam({ pending }: { pending: boolean }) {
  const [name, setName] = useState('')
  return (
    <form
      className="spawn-form"
      aria-label="Create a team"
      onSubmit={(e) => {
        e.preventDefault()
        if (name.trim()) void dashboardCommands.createTeam(name.trim())
      }}
    >
      <p className="spawn-note">
        This session leads no team yet. Teammates join a team: create one (as TeamCreate would), then spawn.
      </p>
      <label className="field">
        <span>Team name</span>
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="docs"
          aria-label="Team name"
          autoFocus
        />
      </label>
      <div className="spawn-buttons">
        <button type="submit" className="btn btn-small btn-send" disabled={pending || !name.trim()}>
          Create team
        </button>
        <button type="button" className="btn btn-small" onClick={() => dashboardCommands.closeSpawnForm()}>
          Cancel
        </button>
      </div>
    </form>
  )
}

/**
 * The dashboard's "Spawn teammate" form (docs/ui.md#the-workspace-ui): name, agent type (from the loaded
 * definitions), backend, permission mode, plan approval required, and the first prompt. It spawns
 * through the same path as the leader's Agent tool; with no team, it offers to create one.
 */
export function SpawnForm() {
  const options = useAppStore((s) => s.dashboard.spawnOptions)
  const team = useAppStore((s) => s.dashboard.team)
  const { pending, error, notice } = useAppStore((s) => s.dashboard.spawn)
  const [name, setName] = useState('')
  const [agentType, setAgentType] = useState('general-purpose')
  const [backend, setBackend] = useState<'' | 'worker' | 'process'>('')
  const [host, setHost] = useState('')
  const [mode, setMode] = useState<StartMode>('default')
  const [planRequired, setPlanRequired] = useState(false)
  const [prompt, setPrompt] = useState('')

  if (!options) return <p className="spawn-note">{error ?? 'Loading…'}</p>
  if (options.unavailable) return <p className="spawn-note error">{options.unavailable}</p>

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    void dashboardCommands.spawn({
      name: name.trim(),
      prompt: prompt.trim(),
      agentType,
      ...(backend ? { backend } : {}),
      ...(host ? { host } : {}),
      mode,
      planRequired
    })
  }

  const body = !team ? (
    <CreateTeam pending={pending} />
  ) : (
    <form className="spawn-form" aria-label="Spawn a teammate" onSubmit={submit}>
      <label className="field">
        <span>Name</span>
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="alice"
          aria-label="Teammate name"
          autoFocus
        />
      </label>
      <label className="field">
        <span>Agent type</span>
        <select value={agentType} onChange={(e) => setAgentType(e.target.value)} aria-label="Agent type">
          {options.agentTypes.map((t) => (
            <option key={t.name} value={t.name} title={t.description}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <div className="field-row">
        <label className="field">
          <span>Backend</span>
          <select
            value={host ? 'process' : backend}
            onChange={(e) => setBackend(e.target.value as typeof backend)}
            aria-label="Backend"
            disabled={host !== ''}
          >
            <option value="">default ({options.defaultBackend})</option>
            <option value="worker">worker (thread)</option>
            <option value="process">process (own terminal)</option>
          </select>
        </label>
        {options.hosts?.length ? (
          <label className="field">
            <span>Host</span>
            <select value={host} onChange={(e) => setHost(e.target.value)} aria-label="Host">
              <option value="">here</option>
              {options.hosts.map((h) => (
                <option key={h} value={h}>
                  {h} (over SSH)
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="field">
          <span>Mode</span>
          <select
            value={mode}
            onChange={(e) => setMode(e.target.value as StartMode)}
            aria-label="Permission mode of the teammate"
            disabled={planRequired}
          >
            {MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="field-check">
        <input type="checkbox" checked={planRequired} onChange={(e) => setPlanRequired(e.target.checked)} />
        <span>Plan approval required (works read-only until its plan is approved)</span>
      </label>
      <label className="field">
        <span>Prompt</span>
        <textarea
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          rows={4}
          placeholder="What should it work on?"
          aria-label="Teammate prompt"
        />
      </label>
      <div className="spawn-buttons">
        <button type="submit" className="btn btn-small btn-send" disabled={pending || !name.trim() || !prompt.trim()}>
          {pending ? 'Spawning…' : `Spawn into ${team}`}
        </button>
        <button type="button" className="btn btn-small" onClick={() => dashboardCommands.closeSpawnForm()}>
          Cancel
        </button>
      </div>
    </form>
  )
  return (
    <div className="spawn-panel">
      {body}
      {error ? (
        <p className="spawn-note error" role="alert">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p className="spawn-note" role="status" data-testid="spawn-notice">
          {notice}
        </p>
      ) : null}
    </div>
  )
}
