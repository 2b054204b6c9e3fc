import { useAppStore } from '../../store/store'
import { isConnectionLost } from './connectionLost'

/** How each connection state reads on the dashboard. */
const STATE_TEXT = {
  connected: 'connected',
  disconnected: 'connection lost',
  reconnecting: 'connection lost · reconnecting',
  closed: 'closed'
} as const

/**
 * Where the team lives, under the dashboard's header (docs/ui.md#team-dashboard): `files` (this
 * machine's data directory), or `NATS` with its server URLs (never a credential) and the state of
 * the connection to it, which turns red while the connection is lost.
 */
export function TeamTransport() {
  const transport = useAppStore((s) => s.workspace.teamTransport)
  if (transport.kind === 'files')
    return (
      <div
        className="team-transport"
        data-testid="team-transport"
        data-kind="files"
        title="The team lives in this machine's data directory"
      >
        <span className="team-transport-kind">files</span>
        <span className="team-transport-servers">on this machine</span>
      </div>
    )
  const servers = transport.servers.join(', ')
  return (
    <div
      className={`team-transport${isConnectionLost(transport) ? ' lost' : ''}`}
      data-testid="team-transport"
      data-kind="nats"
      data-state={transport.state}
      role="status"
      title={`The team lives on the NATS JetStream server ${servers}; the connection is ${transport.state}`}
    >
      <span className="team-transport-dot" aria-hidden="true" />
      <span className="team-transport-kind">NATS</span>
      <span className="team-transport-servers mono">{servers}</span>
      <span className="team-transport-state" data-testid="team-transport-state">
        {STATE_TEXT[transport.state]}
      </span>
    </div>
  )
}
