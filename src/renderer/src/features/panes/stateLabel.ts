import type { AgentState } from '../../../../shared/events'
import type { AgentEndStatus } from '../../store/workspaceSlice'

const LABELS: Record<AgentState, string> = {
  starting: 'starting',
  running: 'running',
  idle: 'idle',
  awaiting_permission: 'needs permission',
  awaiting_plan_approval: 'needs plan approval',
  stopping: 'stopping',
  exited: 'exited',
  crashed: 'crashed',
  error: 'error',
  interrupted: 'interrupted'
}

/** A short label for an agent state, as pane headers show it. */
export function stateLabel(state: AgentState): string {
  return LABELS[state]
}

/**
 * The label a pane header shows: how the run ended once it has (`completed`, `killed`, `failed`),
 * which says more than `exited`; the live state before that.
 */
export function paneStateLabel(state: AgentState, endStatus: AgentEndStatus | undefined): string {
  if (endStatus && (state === 'exited' || state === 'crashed')) return endStatus
  return LABELS[state]
}

/**
 * States that wait for a person (or the leader): the header and the pane are marked so they stand
 * out from an agent that is merely `idle`.
 */
const NEEDS_ATTENTION: ReadonlySet<AgentState> = new Set<AgentState>(['awaiting_permission', 'awaiting_plan_approval'])

/** Whether an agent in `state` is waiting for an answer (a permission or a plan approval). */
export function needsAttention(state: AgentState | undefined): boolean {
  return state !== undefined && NEEDS_ATTENTION.has(state)
}

/**
 * The classes of a pane header's state label: `pane-state`, `state-<state>` (`state-unknown`
 * before any), `end-<endStatus>` (`end-none` while it runs), and `attention` while it waits for an
 * answer. styles/app.css draws `awaiting_permission` amber and pulsing, `awaiting_plan_approval`
 * violet and pulsing, `idle` dim, `crashed` red, `error` red-outlined (its reason beside it); e2e tests may select on these classes.
 */
export function stateClassName(state: AgentState | undefined, endStatus: AgentEndStatus | undefined): string {
  return `pane-state state-${state ?? 'unknown'} end-${endStatus ?? 'none'}${needsAttention(state) ? ' attention' : ''}`
}
