import type { AgentState } from '../../../shared/events'
import type { AgentView, PendingPermission } from '../../../shared/ipc'
import type { AppState } from './store'
import { descendantCount, nestLevel, paneParentId, visibleTileIds } from './paneTree'
import { currentTaskOf, isTeammate, type CurrentTask } from './teammates'
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

/** Ids of the agents whose panes are tiled beside the leader's, in tree order, collapsed subtrees left out. */
export function selectTileIds(s: AppState): string[] {
  return visibleTileIds(s.workspace.agentOrder, s.workspace.agents, s.panes.collapsed)
}

/** How far an agent's tile is indented under its parent's (see {@link nestLevel}). */
export function selectNestLevel(agentId: string): (s: AppState) => number {
  return (s) => nestLevel(agentId, s.workspace.agents)
}

/** The agent whose pane this agent's pane nests under (its parent, unless it is a teammate or a root). */
export function selectPaneParentId(agentId: string): (s: AppState) => string | undefined {
  return (s) => paneParentId(agentId, s.workspace.agents)
}

/** Whether an agent is a teammate (docs/teams.md#agent-teams): see {@link isTeammate}. */
export function selectIsTeammate(agentId: string): (s: AppState) => boolean {
  return (s) => isTeammate(s.workspace.agents[agentId])
}

/**
 * The task an agent works on now (the in-progress task it owns, docs/teams.md#shared-task-list): from the
 * `task_updated` events seen since the snapshot, else the snapshot's `currentTask`. The object is
 * the store's own, so the selector is stable between renders.
 */
export function selectCurrentTask(agentId: string): (s: AppState) => CurrentTask | undefined {
  return (s) => currentTaskOf(s.workspace.agents[agentId], s.workspace.tasks)
}

/** How many agents collapsing this agent's pane would hide. */
export function selectDescendantCount(agentId: string): (s: AppState) => number {
  return (s) => descendantCount(agentId, s.workspace.agentOrder, s.workspace.agents)
}

/** States in which a subagent can no longer be stopped or backgrounded. */
const OVER: ReadonlySet<AgentState> = new Set<AgentState>(['stopping', 'exited', 'crashed', 'interrupted'])

/**
 * Whether an agent is a subagent still running, so its pane offers Background and Stop: it has a
 * parent, is not a teammate (whose `parentId` names the leader, but which neither channel ends:
 * teammates are shut down through the team), is not a teammate's own subagent (it runs in the
 * teammate's worker or process, which the leader's runtime cannot stop or background), has not
 * stopped, and is not on its way out.
 */
export function selectIsRunningSubagent(agentId: string): (s: AppState) => boolean {
  return (s) => {
    const agent = s.workspace.agents[agentId]
    if (!agent || agent.parentId === undefined || agentId === LEADER_AGENT_ID || isTeammate(agent)) return false
    if (ownedByTeammate(agent.parentId, s.workspace.agents)) return false
    return s.workspace.lifetimes[agentId]?.endedAt === undefined && !OVER.has(agent.state)
  }
}

/** True when `parentId` or one of its ancestors is a teammate (subagents nest a few levels at most; a cycle stops the walk). */
function ownedByTeammate(parentId: string | undefined, agents: AppState['workspace']['agents']): boolean {
  const seen = new Set<string>()
  for (let id = parentId; id !== undefined && !seen.has(id); id = agents[id]?.parentId) {
    seen.add(id)
    if (isTeammate(agents[id] ?? { agentId: id })) return true
  }
  return false
}
