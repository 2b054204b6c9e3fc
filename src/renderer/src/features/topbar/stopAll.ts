import type { AgentState } from '../../../../shared/events'
import type { AgentView } from '../../../../shared/ipc'
import { LEADER_AGENT_ID } from '../../store/workspaceSlice'

/** States in which an agent has a turn in progress (what Stop all stops). */
const WORKING: ReadonlySet<AgentState> = new Set<AgentState>([
  'starting',
  'running',
  'awaiting_permission',
  'awaiting_plan_approval',
  'stopping'
])
/** States of an agent that is gone (nothing to stop or kill). */
const GONE: ReadonlySet<AgentState> = new Set<AgentState>(['exited', 'crashed', 'interrupted'])

/** What Stop all would stop right now: the leader's turn, the working subagents, the live teammates (by name). */
export interface StopAllTargets {
  leaderWorking: boolean
  subagents: string[]
  teammates: string[]
}

/**
 * What `workspace.stopAll` acts on (docs/ui.md#the-workspace-ui top bar: the leader's turn, every subagent, every
 * teammate killed), read from the agents' views: the leader when its turn is in progress, each
 * subagent or fork with a turn in progress, and each teammate (`backend` set) that has not ended —
 * an idle teammate is killed too.
 */
export function stopAllTargets(agents: Record<string, AgentView>, order: readonly string[]): StopAllTargets {
  const targets: StopAllTargets = { leaderWorking: false, subagents: [], teammates: [] }
  for (const id of order) {
    const a = agents[id]
    if (!a) continue
    if (id === LEADER_AGENT_ID) targets.leaderWorking = WORKING.has(a.state)
    else if (a.backend) {
      if (!GONE.has(a.state)) targets.teammates.push(a.agentName)
    } else if (WORKING.has(a.state)) targets.subagents.push(a.agentName)
  }
  return targets
}

/** `a`, `a and b`, `a, b and c`. */
function list(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/**
 * The confirmation's sentences, one per kind of target, e.g. "the leader's current turn",
 * "2 subagents (explore-api and count-lines)", "kills 1 teammate: alice"; `[]` when nothing runs.
 */
export function stopAllLines(t: StopAllTargets): string[] {
  const lines: string[] = []
  if (t.leaderWorking) lines.push("Stops the leader's current turn.")
  if (t.subagents.length > 0)
    lines.push(
      `Stops ${t.subagents.length === 1 ? '1 subagent' : `${t.subagents.length} subagents`}: ${list(t.subagents)}.`
    )
  if (t.teammates.length > 0)
    lines.push(
      `Kills ${t.teammates.length === 1 ? '1 teammate' : `${t.teammates.length} teammates`} at once, without asking: ${list(t.teammates)}.`
    )
  return lines
}
