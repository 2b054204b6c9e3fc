import type { AgentState } from '../../../../shared/events'
import { CLAUDE_CODE_AGENT_TYPE } from '../../../../shared/ipc'
import type { AppState } from '../../store/store'
import { isTeammate } from '../../store/teammates'
import { LEADER_AGENT_ID } from '../../store/workspaceSlice'

/**
 * Ids of the team's members as the dashboard lists them (docs/ui.md#the-workspace-ui): the leader first, then every
 * teammate of the session's current team in the order it appeared. Subagents and forks are not
 * members: they live in panes only. Teammates of a team the leader deleted (or of an earlier team
 * of this session) are not members either: their panes stay in the grid, their rows go. The
 * person's Claude Code sessions follow the team.
 */
export function selectMemberIds(s: AppState): string[] {
  const team = s.dashboard.team
  const ids = s.workspace.agentOrder.filter(
    (id) =>
      id !== LEADER_AGENT_ID && isTeammate(s.workspace.agents[id]) && team !== undefined && id.endsWith(`@${team}`)
  )
  // the person's own Claude Code sessions (docs/claude-code.md#state-on-the-dashboard) come after the team
  const claude = s.workspace.agentOrder.filter((id) => s.workspace.agents[id]?.agentType === CLAUDE_CODE_AGENT_TYPE)
  return s.workspace.agents[LEADER_AGENT_ID] ? [LEADER_AGENT_ID, ...ids, ...claude] : [...ids, ...claude]
}

/** States in which an agent is expected to produce events; a long silence in them is "stuck". */
const WORKING: ReadonlySet<AgentState> = new Set<AgentState>(['starting', 'running'])

/**
 * Whether an agent is stuck (docs/ui.md#the-workspace-ui): working (`starting`/`running`, not waiting on a person)
 * yet silent — no event at all — for at least `minutes`.
 * @param lastEventAt ISO time of its newest event; unknown means not stuck (nothing to measure from)
 * @param now ms since the epoch
 */
export function isStuck(
  state: AgentState | undefined,
  lastEventAt: string | undefined,
  minutes: number,
  now: number
): boolean {
  if (!state || !WORKING.has(state) || !lastEventAt) return false
  const last = Date.parse(lastEventAt)
  return !Number.isNaN(last) && now - last >= minutes * 60_000
}

/**
 * Whether a member can still be messaged, shut down or killed: it has neither stopped nor ended,
 * nor is it `interrupted` (its run ended with the workspace's last process: Resume first).
 */
export function isAlive(s: AppState, agentId: string): boolean {
  const agent = s.workspace.agents[agentId]
  if (!agent || agent.state === 'exited' || agent.state === 'crashed' || agent.state === 'interrupted') return false
  return s.workspace.lifetimes[agentId]?.endedAt === undefined
}
