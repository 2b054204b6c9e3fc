import { useState, type FormEvent } from 'react'
import { useAppStore } from '../../store/store'
import { editAllowedPath, shownAllowedPaths } from './allowedPathsEdit'

/**
 * The dashboard's "Allowed paths" of the session's team (docs/teams.md#allowed-paths,
 * docs/ui.md#team-dashboard): the directories outside the workspace where every teammate reads and
 * edits without asking, each with a × that takes it off, and a field + Add (a relative path is
 * resolved against the workspace folder). A refusal (a path that cannot be allowed, an unknown
 * team) shows in full where it was asked: under the field, or on the path's row. Hidden without a team.
 */
export function AllowedPaths() {
  const team = useAppStore((s) => s.dashboard.team)
  const view = useAppStore((s) => s.workspace.allowedPaths)
  const connected = useAppStore((s) => s.connection.status === 'open')
  const [text, setText] = useState('')
  const [pending, setPending] = useState<string | undefined>()
  /** The last refusal, and where it belongs: `add` (the field) or the path whose × was pressed. */
  const [refusal, setRefusal] = useState<{ at: string; message: string } | undefined>()
  const paths = shownAllowedPaths(view, team)
  if (paths === undefined) return null

  const run = async (action: 'add' | 'remove', path: string, at: string): Promise<void> => {
    setPending(at)
    setRefusal(undefined)
    const message = await editAllowedPath(action, path)
    setPending(undefined)
    if (message !== undefined) setRefusal({ at, message })
    else if (action === 'add') setText('')
  }
  const add = (e: FormEvent): void => {
    e.preventDefault()
    void run('add', text.trim(), 'add')
  }

  return (
    <section className="allowed-paths" aria-label="Allowed paths" data-testid="allowed-paths">
      <h3 className="side-title">Allowed paths</h3>
      <p className="spawn-note">
        Every teammate reads and edits in these folders without asking. A relative path is the workspace&apos;s.
      </p>
      {paths.length === 0 ? <p className="allowed-paths-none">None yet.</p> : null}
      <ul className="allowed-path-list">
        {paths.map((p) => (
          <li key={p} className="allowed-path" data-testid="allowed-path" data-path={p}>
            <div className="allowed-path-line">
              <span className="allowed-path-dir mono" title={p}>
                {p}
              </span>
              <button
                type="button"
                className="btn btn-small allowed-path-remove"
                aria-label={`Remove allowed path ${p}`}
                title="Take it off the team's allowed paths"
                disabled={!connected || pending !== undefined}
                onClick={() => void run('remove', p, p)}
              >
                ×
              </button>
            </div>
            {refusal?.at === p ? (
              <p className="spawn-note error" role="alert" data-testid="allowed-path-error">
                {refusal.message}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <form className="allowed-path-add" onSubmit={add}>
        <input
          type="text"
          value={text}
          placeholder="Folder to allow"
          aria-label="Directory to allow"
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="btn btn-small" disabled={!connected || pending !== undefined || !text.trim()}>
          {pending === 'add' ? 'Adding…' : 'Add'}
        </button>
      </form>
      {refusal?.at === 'add' ? (
        <p className="spawn-note error" role="alert" data-testid="allowed-path-error">
          {refusal.message}
        </p>
      ) : null}
    </section>
  )
}
