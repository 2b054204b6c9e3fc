import { actions, useAppStore } from '../../store/store'
import { formatTokens } from './format'

const CONNECTION_LABEL = {
  connecting: 'connecting…',
  open: 'connected',
  reconnecting: 'reconnecting…',
  closed: 'disconnected'
} as const

/**
 * The bottom bar: the session's tokens by kind, the last error, and the connection. The
 * permission mode, model, scripted-model badge, total and cost live in the top bar
 * (features/topbar).
 */
export function StatusBar() {
  const usage = useAppStore((s) => s.workspace.usage)
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
