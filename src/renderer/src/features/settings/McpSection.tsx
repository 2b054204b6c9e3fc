import { useCallback, useEffect, useState } from 'react'
import type { McpList, McpServerView } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'

const SOURCES: Record<McpServerView['source'], string> = {
  flag: '--mcp-config',
  local: 'local settings',
  project: 'project .mcp.json',
  user: 'user settings'
}

const STATES: Record<McpServerView['state'], string> = {
  connected: 'connected',
  failed: 'failed',
  'awaiting-approval': 'awaiting approval',
  disabled: 'disabled (disabledMcpjsonServers)'
}

/**
 * MCP servers (docs/tools.md#mcp-servers, docs/ui.md#the-workspace-ui): every server of every
 * source with its transport and state — connected with its tools, failed with why, awaiting
 * approval — as the session's connection has it, or as main checks one the session did not start (`mcp.list`); "Approve" approves a project server in the local
 * settings (`mcp.approve`), "Reconnect" checks one again (`mcp.reconnect`). The renderer writes no file.
 */
export function McpSection() {
  const [list, setList] = useState<McpList | undefined>(undefined)
  /** The server a request is under way for ('' for the whole list). */
  const [busy, setBusy] = useState<string | undefined>('')
  const [error, setError] = useState<string | undefined>(undefined)
  const run = useCallback(async (who: string, work: () => Promise<McpList>) => {
    setBusy(who)
    setError(undefined)
    try {
      setList(await work())
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(undefined)
    }
  }, [])
  useEffect(() => {
    void run('', () => connectedApi().request('mcp.list', {}))
  }, [run])
  return (
    <fieldset className="settings-group" data-testid="settings-mcp">
      <legend>MCP servers</legend>
      {error ? (
        <p className="settings-error" role="alert" data-testid="mcp-error">
          {error}
        </p>
      ) : null}
      {list?.problem ? <p className="settings-warning">{list.problem}</p> : null}
      {list === undefined ? (
        <p className="muted">{busy === '' ? 'Checking the MCP servers…' : 'The MCP servers could not be listed.'}</p>
      ) : list.servers.length === 0 && !list.problem ? (
        <p className="muted">
          No MCP servers are configured. Add one with <code>swarmdesk mcp add</code> or in the workspace&apos;s{' '}
          <code>.mcp.json</code>.
        </p>
      ) : (
        <ul className="settings-list mcp-list">
          {list.servers.map((s) => (
            <McpServerRow
              key={s.name}
              server={s}
              busy={busy !== undefined}
              checking={busy === s.name}
              onApprove={() => void run(s.name, () => connectedApi().request('mcp.approve', { name: s.name }))}
              onReconnect={() => void run(s.name, () => connectedApi().request('mcp.reconnect', { name: s.name }))}
            />
          ))}
        </ul>
      )}
      <p className="muted small">
        A server the session started shows the session&apos;s own connection, with the tools its agents have; Reconnect
        starts it again for them. Any other server is checked by starting it and listing its tools. Approving a project
        server writes its name to enabledMcpjsonServers in .swarmdesk/settings.local.json.
      </p>
    </fieldset>
  )
}

function McpServerRow(props: {
  server: McpServerView
  busy: boolean
  checking: boolean
  onApprove: () => void
  onReconnect: () => void
}) {
  const s = props.server
  return (
    <li data-testid="mcp-server" data-name={s.name} data-state={s.state} data-of={s.of}>
      <div className="mcp-head">
        <b className="mono">{s.name}</b> <span className="mcp-transport">{s.transport}</span>{' '}
        <span className={`mcp-state mcp-state-${s.state}`} data-testid="mcp-state">
          {props.checking ? 'checking…' : STATES[s.state]}
        </span>{' '}
        <span className="muted small">
          {SOURCES[s.source]} <span className="mono">{s.file}</span>
        </span>
        {s.state === 'awaiting-approval' ? (
          <button type="button" className="btn btn-small" disabled={props.busy} onClick={props.onApprove}>
            Approve
          </button>
        ) : s.state === 'connected' || s.state === 'failed' ? (
          <button type="button" className="btn btn-small" disabled={props.busy} onClick={props.onReconnect}>
            Reconnect
          </button>
        ) : null}
      </div>
      {s.of === 'check' ? (
        <p className="muted small" data-testid="mcp-checked">
          Checked on a connection of its own: the session did not start it; its agents get it from the next session on.
        </p>
      ) : null}
      {s.state === 'failed' && s.error ? (
        <pre className="mcp-why" data-testid="mcp-why">
          {s.error}
        </pre>
      ) : null}
      {s.tools ? (
        <p className="mcp-tools small" data-testid="mcp-tools">
          {s.tools.length === 0
            ? 'No tools.'
            : s.tools.map((t) => (
                <code key={t.name} title={t.description}>
                  {t.name}
                </code>
              ))}
        </p>
      ) : null}
    </li>
  )
}
