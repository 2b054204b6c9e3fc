import type { AgentState, RuntimeEvent } from '../../../shared/events'
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
  /**
   * A `process` teammate on a server store: it reports its own states (its bus is relayed,
   * docs/nats.md#a-teammates-events), so the leader infers none for it.
   */
  relayed?: boolean
  /** What a {@link relayed} teammate last reported of itself, shown or not. */
  reported?: AgentState
}

/** A teammate about to start: alive, `starting`, no handle yet, no open questions. */
export function newTrackedTeammate(name: string, agentId: string, backend: TeammateBackend): TrackedTeammate {
  return {
    name,
    agentId,
    backend,
    handle: undefined,
    alive: true,
    state: 'starting',
    questions: new Map(),
    shutdownTimer: undefined
  }
}

/** Whether a process teammate's transcript shows a turn that started at or after `timestamp` (both ISO, its own clock). */
export function startedSince(tracked: TrackedTeammate, timestamp: string): boolean {
  if (tracked.turnStartedAt === undefined) return false
  const started = Date.parse(tracked.turnStartedAt)
  const sent = Date.parse(timestamp)
  return !Number.isNaN(started) && !Number.isNaN(sent) && started >= sent
}

/**
 * Whether Esc can interrupt the teammate's turn: it runs, is alive and is neither idle, stopping
 * nor starting (a process teammate has no SIGUSR2 handler before its loop runs).
 */
export function interruptible(tracked: TrackedTeammate): boolean {
  if (!tracked.handle || !tracked.alive) return false
  return tracked.state !== 'idle' && tracked.state !== 'stopping' && tracked.state !== 'starting'
}

/**
 * Whether `event` (of a `process` teammate's transcript) shows it working again while the leader
 * still has it idle, starting or in error: a tool call or text of a live process teammate (one
 * that is not {@link TrackedTeammate.relayed}: that one says so itself).
 */
export function showsWorkAgain(tracked: TrackedTeammate, event: RuntimeEvent): boolean {
  return (
    tracked.backend === 'process' &&
    !tracked.relayed &&
    tracked.alive &&
    (tracked.state === 'idle' || tracked.state === 'starting' || tracked.state === 'error') &&
    (event.type === 'tool_call' || event.type === 'assistant_text')
  )
}

/**
 * What the leader's stream shows when the leader's inbox sets `state` for a teammate
 * (docs/teams.md#teammate-life-cycle), undefined for nothing. Of a {@link TrackedTeammate.relayed}
 * teammate only `stopping` (a shutdown request sent) is the leader's word: the others are
 * inferred for a process that cannot report its own, and this one does ({@link showsOwnState});
 * after it rejected a shutdown request it shows what it last reported.
 */
export function leaderStateToShow(tracked: TrackedTeammate, state: AgentState): AgentState | undefined {
  if (!tracked.relayed || state === 'stopping') return state
  if (tracked.state === 'stopping' && tracked.shutdownTimer === undefined && tracked.alive)
    return tracked.reported ?? state
  return undefined
}

/**
 * Records a state a relayed teammate reported of itself (docs/nats.md#a-teammates-events) and
 * says whether the stream shows it: not once the teammate has exited, nor the `running`/`idle` of
 * the turn answering the leader's shutdown request (`stopping` stands until it exits or rejects).
 * A state the stream shows already is dropped later, by the supervisor's emit.
 */
export function showsOwnState(tracked: TrackedTeammate, state: AgentState): boolean {
  tracked.reported = state
  if (!tracked.alive) return false
  return !(tracked.state === 'stopping' && (state === 'running' || state === 'idle'))
}
