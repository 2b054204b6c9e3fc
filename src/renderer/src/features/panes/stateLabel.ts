import type { AgentState } from '../../../../shared/events'

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
