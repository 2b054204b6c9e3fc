import type { AgentState } from '../../../../shared/events'
import type { AgentEndStatus } from '../../store/workspaceSlice'

const LABELS: Record<AgentState, string> = {
  starting: 'starting',
  running: 'running',
  idle: 'idle',
  awaiting_permission: 'needs permission',
  awaiting_plan_approval: 'plan approval',
  stopping: 'stopping',
  exited: 'exited',
  crashed: 'crashed'
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
