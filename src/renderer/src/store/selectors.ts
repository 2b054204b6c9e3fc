import type { AgentState } from '../../../shared/events'
import type { AgentView, PendingPermission } from '../../../shared/ipc'
import type { AppState } from './store'
import { LEADER_AGENT_ID } from './workspaceSlice'

/**
 * Leader states in which it is working on a prompt (the prompt box is then disabled). Not
 * `starting`: the leader session announces itself with `agent_started` at boot and stays in that
 * state until its first prompt sets `running`.
 */
const WORKING: ReadonlySet<AgentState> = new Set<AgentState>([
  'running',
  'awaiting_permission',
  'awaiting_plan_approval',
  'stopping'
])

/**
 * Whether the leader is busy, derived rather than stored: a prompt on its way, else the leader's
 * live state when known, else the snapshot's flag.
 */
export function selectBusy(s: AppState): boolean {
  if (s.workspace.promptInFlight) return true
  const leader = s.workspace.agents[LEADER_AGENT_ID]
  return leader ? WORKING.has(leader.state) : s.workspace.snapshotBusy
}

/** The leader's view, when known. */
export function selectLeader(s: AppState): AgentView | undefined {
  return s.workspace.agents[LEADER_AGENT_ID]
}

/** An agent's view by id. */
export function selectAgent(agentId: string): (s: AppState) => AgentView | undefined {
  return (s) => s.workspace.agents[agentId]
}

/** The pending request keyboard shortcuts act on: the focused one, else the oldest. */
export function selectActivePermission(s: AppState): PendingPermission | undefined {
  const { pending, focusedId } = s.permissions
  return pending.find((p) => p.requestId === focusedId) ?? pending[0]
}

/** Ids of agents other than the leader, in the order they appeared (pane tiles). */
export function selectTeammateIds(s: AppState): string[] {
  return s.workspace.agentOrder.filter((id) => id !== LEADER_AGENT_ID)
}
