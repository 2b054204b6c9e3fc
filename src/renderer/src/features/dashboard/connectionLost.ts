import type { AgentState } from '../../../../shared/events'
import type { TeamTransportView } from '../../../../shared/teamConnection'
import type { AppState } from '../../store/store'
import { isTeammate } from '../../store/teammates'
import { LEADER_AGENT_ID, type AgentEndStatus } from '../../store/workspaceSlice'
import { paneStateLabel, stateClassName } from '../panes/stateLabel'
import { isAlive } from './selectors'

/** Whether the team's server is out of reach (docs/ui.md#team-dashboard): a team on NATS whose connection is not `connected`. */
export function isConnectionLost(transport: TeamTransportView): boolean {
  return transport.kind === 'nats' && transport.state !== 'connected'
}

/**
 * Whether `agentId` shows `connection lost` instead of its state (docs/ui.md#team-dashboard): the
 * connection to the team's server is lost, the session leads a team, and the agent is a member of it
 * — the leader or a teammate of that team — that has not ended. A member that ended (exited,
 * crashed, interrupted) keeps its end; subagents and Claude Code sessions are not members.
 */
export function showsConnectionLost(s: AppState, agentId: string): boolean {
  if (!isConnectionLost(s.workspace.teamTransport) || s.dashboard.team === undefined) return false
  const agent = s.workspace.agents[agentId]
  if (!agent) return false
  const member = agentId === LEADER_AGENT_ID || (isTeammate(agent) && agentId.endsWith(`@${s.dashboard.team}`))
  return member && isAlive(s, agentId)
}

/** The state label as a member row or pane header shows it: its text, classes, `data-state` and title. */
export interface ShownState {
  label: string
  className: string
  /** The agent's state, or `connection_lost` while the connection hides it. */
  dataState: string | undefined
  title: string | undefined
}

/**
 * The state label of an agent: `connection lost` while {@link showsConnectionLost} holds (its own
 * class, `state-connection_lost`, and a title naming the server and the last state known), else
 * its own state as {@link paneStateLabel} and {@link stateClassName} give it.
 */
export function shownState(
  state: AgentState | undefined,
  endStatus: AgentEndStatus | undefined,
  lost: TeamTransportView | undefined
): ShownState {
  if (lost?.kind === 'nats')
    return {
      label: 'connection lost',
      className: 'pane-state state-connection_lost end-none',
      dataState: 'connection_lost',
      title: `The connection to the team's server ${lost.servers.join(',')} is lost (${lost.state}); the last state known was ${state ?? 'none'}. It shows again once the server is back.`
    }
  return {
    label: state ? paneStateLabel(state, endStatus) : '…',
    className: stateClassName(state, endStatus),
    dataState: state,
    title: undefined
  }
}

/** The team transport when `agentId` shows `connection lost`, else undefined: the third argument of {@link shownState}. */
export function selectLostTransport(agentId: string): (s: AppState) => TeamTransportView | undefined {
  return (s) => (showsConnectionLost(s, agentId) ? s.workspace.teamTransport : undefined)
}
