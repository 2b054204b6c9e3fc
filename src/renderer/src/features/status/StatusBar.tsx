import { USER_PERMISSION_MODES, type PermissionMode } from '../../../../shared/permissions'
import { commands } from '../../store/commands'
import { actions, useAppStore } from '../../store/store'
import { formatTokens, formatUsd } from './format'

const CONNECTION_LABEL = {
  connecting: 'connecting…',
  open: 'connected',
  reconnecting: 'reconnecting…',
  closed: 'disconnected'
} as const

/**
 * The bottom bar: session tokens and cost, the permission mode, the model (with a "scripted model"
 * badge when the scripted server answers, SPEC §13: its costs are priced as the named model), and
 * the connection.
 */
export function StatusBar() {
  const usage = useAppStore((s) => s.workspace.usage)
  const cost = useAppStore((s) => s.workspace.costUsd)
  const mode = useAppStore((s) => s.workspace.mode)
  const model = useAppStore((s) => s.workspace.model)
  const scripted = useAppStore((s) => s.workspace.scripted)
  const status = useAppStore((s) => s.connection.status)
  const error = useAppStore((s) => s.connection.lastError)
  return (
    <footer className="status-bar">
      <span className="stat" title="input tokens">
        in <b>{formatTokens(usage.inputTokens)}</b>
      </span>
      <span className="stat" title="output tokens">
        out <b>{formatTokens(usage.outputTokens)}</b>
      </span>
      <span className="stat" title="prompt cache reads (tokens)">
        cache read <b>{formatTokens(usage.cacheReadInputTokens)}</b>
      </span>
      <span className="stat" title="prompt cache writes (tokens)">
        cache write <b>{formatTokens(usage.cacheCreationInputTokens)}</b>
      </span>
      <span className="stat" title={scripted ? `priced as ${model}` : 'session cost'}>
        cost <b>{formatUsd(cost)}</b>
        {scripted ? <span className="muted"> (priced as {model})</span> : null}
      </span>
      <label className="stat">
        mode{' '}
        <select
          className="mode-select"
          aria-label="Permission mode"
          value={mode}
          disabled={status !== 'open' || mode === 'bubble'}
          onChange={(e) => void commands.setMode(e.target.value as Exclude<PermissionMode, 'bubble'>)}
        >
          {mode === 'bubble' ? <option value="bubble">bubble</option> : null}
          {USER_PERMISSION_MODES.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      {model ? <span className="stat mono">{model}</span> : null}
      {scripted ? (
        <span className="scripted-badge" title="Answers come from the scripted model server (SPEC §13)">
          scripted model
        </span>
      ) : null}
      <span className="spacer" />
      {error ? (
        <button type="button" className="status-error" title="dismiss" onClick={() => actions.setError(undefined)}>
          {error}
        </button>
      ) : null}
      <span className={`conn conn-${status}`} role="status">
        <span className="conn-dot" aria-hidden="true" />
        {CONNECTION_LABEL[status]}
      </span>
    </footer>
  )
}
