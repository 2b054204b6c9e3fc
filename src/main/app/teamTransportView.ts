import type { TeamTransportView } from '../../shared/teamConnection'
import type { TeamStorePort, TeamTransport } from '../runtime/teamStore'

/**
 * The workspace's team transport as the UI shows it (docs/ui.md#team-dashboard): `files` when it
 * has no server (`teamStore` undefined), else the server URLs — which never hold a credential
 * (`parseTeamTransport` moves those into `auth`, which is not sent) — and the connection's state now.
 */
export function teamTransportViewOf(
  teamStore: { store: Pick<TeamStorePort, 'connection'>; transport: TeamTransport } | undefined
): TeamTransportView {
  if (!teamStore || teamStore.transport.kind === 'files') return { kind: 'files' }
  return { kind: 'nats', servers: [...teamStore.transport.servers], state: teamStore.store.connection.state() }
}

/**
 * The notice the leader's pane shows when the connection to the team's server changes: once when it
 * is lost (`wasLost` false, any state but `connected` now), once when it is back (`wasLost` true,
 * `connected` now); undefined otherwise (another attempt to reconnect, the store closing with the workspace).
 */
export function connectionNotice(
  view: TeamTransportView,
  wasLost: boolean
): { level: 'warning' | 'info'; message: string } | undefined {
  if (view.kind !== 'nats') return undefined
  const where = view.servers.join(',')
  if (!wasLost && view.state !== 'connected' && view.state !== 'closed')
    return {
      level: 'warning',
      message: `Lost the connection to the team's server ${where}: the team's messages, tasks and liveness wait until it is back.`
    }
  if (wasLost && view.state === 'connected')
    return { level: 'info', message: `Connected to the team's server ${where} again.` }
  return undefined
}
