import type { AgentState } from '../../../shared/events'
import type { TeammateBackend, TeammateHandle } from './executor'

/** One teammate this session started, as the leader's side tracks it (docs/teams.md#teammate-life-cycle). */
export interface TrackedTeammate {
  name: string
  /** `name@team`. */
  agentId: string
  backend: TeammateBackend
  /** Undefined until its backend started it. */
  handle: TeammateHandle | undefined
  alive: boolean
  state: AgentState
  /** Open permission questions and plan approvals of this teammate, cancelled when it stops. */
  questions: Map<string, AbortController>
  shutdownTimer: NodeJS.Timeout | undefined
  /** Process backend: time (ISO, the teammate's clock) of the newest turn its transcript showed starting. */
  turnStartedAt?: string
  /** Its plan approval request the leader has not answered yet (docs/teams.md#plan-approval). */
  planRequestId?: string
}

/** Whether a process teammate's transcript shows a turn that started at or after `timestamp` (both ISO, its own clock). */
export function startedSince(tracked: TrackedTeammate, timestamp: string): boolean {
  if (tracked.turnStartedAt === undefined) return false
  const started = Date.parse(tracked.turnStartedAt)
  const sent = Date.parse(timestamp)
  return !Number.isNaN(started) && !Number.isNaN(sent) && started >= sent
}
