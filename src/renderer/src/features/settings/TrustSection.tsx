import type { ProjectTrust } from '../../../../shared/settings'
import { settingsCommands, useSettings } from './settingsStore'

/**
 * Project trust (docs/permissions.md#permissions): until the workspace is trusted, the dangerous keys of its own settings
 * files are listed as ignored, and its hooks as not running; "Trust this workspace" records trust
 * in `<home>/trusted.json` and main reloads the settings, so the hooks run from then on.
 */
export function TrustSection({ project }: { project: ProjectTrust }) {
  const busy = useSettings((s) => s.busy)
  return (
    <fieldset className="settings-group" data-testid="settings-trust">
      <legend>Project trust</legend>
      <p>
        <span className="mono">{project.workspace}</span> is{' '}
        <b data-testid="trust-state">
          {project.trusted
            ? project.via === 'flag'
              ? 'trusted for this run (--trust-project)'
              : 'trusted'
            : 'not trusted'}
        </b>
        .
      </p>
      {project.problem ? <p className="settings-warning">{project.problem}</p> : null}
      {project.ignored.length ? (
        <>
          <p>
            Ignored until you trust this workspace (a cloned repository could use them to run commands or redirect the
            model):
          </p>
          <ul className="settings-list" data-testid="ignored-keys">
            {project.ignored.map((k) => (
              <li key={`${k.file}:${k.key}`}>
                <code>{k.key}</code> <span className="muted mono">in {k.file}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p>Hooks:</p>
      {project.hooks.length ? (
        <ul className="settings-list" data-testid="hook-list">
          {project.hooks.map((h) => (
            <li key={`${h.file}:${h.event}`} data-testid="hook-entry" data-active={h.active}>
              <code>{h.event}</code> — {h.commands} command{h.commands === 1 ? '' : 's'}, {h.scope}{' '}
              <span className="muted mono">{h.file}</span>{' '}
              <span className={h.active ? 'hook-active' : 'hook-ignored'}>{h.active ? 'active' : 'ignored'}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No hooks are configured.</p>
      )}
      {project.via === 'none' ? (
        <button
          type="button"
          className="btn btn-small"
          disabled={busy}
          onClick={() => void settingsCommands.trust(true)}
        >
          Trust this workspace
        </button>
      ) : project.via === 'file' ? (
        <button
          type="button"
          className="btn btn-small"
          disabled={busy}
          onClick={() => void settingsCommands.trust(false)}
        >
          Revoke trust
        </button>
      ) : null}
      <p className="muted small">
        Hooks start or stop at once; a trusted project's env, base URL and bypassPermissions mode apply from the next
        start.
      </p>
    </fieldset>
  )
}
