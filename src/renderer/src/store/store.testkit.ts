import { type RuntimeEvent, type RuntimeEventInput, ZERO_USAGE } from '../../../shared/events'
import type { AgentView, PendingPermission, WorkspaceSnapshot } from '../../../shared/ipc'

/** Test data builders for the renderer's unit tests. */

let seq = 0
const BASE = { time: '2026-01-01T00:00:00.000Z' }

/** An event with the next seq (or the given one), at a fixed time unless given one. */
export function ev(e: RuntimeEventInput & { seq?: number; time?: string }): RuntimeEvent {
  return { ...BASE, ...e, seq: e.seq ?? ++seq } as RuntimeEvent
}

/** Resets the seq counter of {@link ev}. */
export function resetSeq(to = 0): void {
  seq = to
}

/** An agent view with defaults. */
export function agentView(over: Partial<AgentView> & { agentId: string }): AgentView {
  return {
    agentName: over.agentId,
    agentType: 'general-purpose',
    depth: 0,
    state: 'idle',
    color: '#d97757',
    usage: ZERO_USAGE,
    costUsd: 0,
    ...over
  }
}

/** A snapshot with the leader idle. */
export function snapshot(over: Partial<WorkspaceSnapshot> = {}): WorkspaceSnapshot {
  return {
    sessionId: 's-1',
    cwd: '/work/demo',
    model: 'claude-sonnet-4-5',
    mode: 'default',
    scripted: true,
    busy: false,
    agents: [agentView({ agentId: 'team-lead', agentType: 'leader' })],
    permissions: [],
    usage: ZERO_USAGE,
    costUsd: 0,
    lastSeq: 0,
    ...over
  }
}

/** A pending permission with defaults. */
export function permission(over: Partial<PendingPermission> & { requestId: string }): PendingPermission {
  return {
    agentId: 'team-lead',
    agentName: 'team-lead',
    tool: 'Bash',
    input: { command: 'npm test' },
    reason: 'Bash(npm test) is not allowed by any rule',
    suggestions: ['Bash(npm test:*)'],
    createdAt: BASE.time,
    ...over
  }
}
