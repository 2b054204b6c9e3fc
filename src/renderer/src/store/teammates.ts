import type { AgentView } from '../../../shared/ipc'

/**
 * What the workspace knows about teammates (docs/teams.md#agent-teams) beyond an agent's view: how to tell a
 * teammate from a subagent, and its current task from the shared task list's `task_updated`
 * events. Pure functions; the workspace slice stores the tasks, selectors derive the rest.
 */

/** A teammate's id is `name@team` (docs/teams.md#team-config); subagent ids (`a1f…`) never contain `@`. */
const TEAMMATE_ID = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/

/** The leader's id inside a team (`team-lead@team`); the UI itself calls the leader `team-lead`. */
const LEADER_IN_TEAM = 'team-lead@'

/**
 * Whether an agent is a teammate: its view names a backend (from its `agent_started` or the
 * snapshot), or, for an agent whose start this UI missed, its id has the `name@team` shape. The
 * leader is never one, even as `team-lead@team`.
 */
export function isTeammate(agent: Pick<AgentView, 'agentId' | 'backend'> | undefined): boolean {
  if (!agent) return false
  if (agent.backend !== undefined) return true
  return TEAMMATE_ID.test(agent.agentId) && !agent.agentId.startsWith(LEADER_IN_TEAM)
}

/**
 * A task of the shared task list as the UI keeps it: what a pane header needs. A deleted task is
 * kept as `deleted`, so it still overrides an older snapshot's `currentTask`.
 */
export interface TaskBrief {
  /** The task id as text (`"3"`): ids are integers on disk (docs/teams.md#shared-task-list), strings in AgentView. */
  id: string
  subject: string
  /** An agent NAME (`alice`, `team-lead`), not an id. */
  owner?: string
  status: 'pending' | 'in_progress' | 'completed' | 'deleted'
  /** `seq` of the event that last changed it: the newest in-progress task wins a tie. */
  seq: number
}

const STATUSES: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed', 'deleted'])

/**
 * Reads the task of a `task_updated` event (a loose record on the wire, docs/events.md#event-stream-and-command-line; TaskUpdate emits
 * a deleted task once more with `status: "deleted"`).
 * @param seq the event's `seq`
 * @returns undefined for a record without a usable id or status (ignored, like an unknown event).
 */
export function taskFromEvent(task: Record<string, unknown>, seq: number): TaskBrief | undefined {
  const rawId = task.id
  const id =
    typeof rawId === 'number' && Number.isFinite(rawId)
      ? String(rawId)
      : typeof rawId === 'string' && rawId !== ''
        ? rawId
        : undefined
  if (id === undefined || typeof task.status !== 'string' || !STATUSES.has(task.status)) return undefined
  const owner = typeof task.owner === 'string' && task.owner !== '' ? task.owner : undefined
  const subject = typeof task.subject === 'string' ? task.subject : ''
  return { id, subject, status: task.status as TaskBrief['status'], seq, ...(owner ? { owner } : {}) }
}

/** An agent's current task: the id and subject a pane header shows as `#3 subject`. */
export type CurrentTask = NonNullable<AgentView['currentTask']>

/**
 * An agent's current task: of the tasks this UI has seen change since the snapshot, the one it owns
 * (by name, or by id) with status `in_progress` — the newest if several; else the snapshot's
 * `currentTask`, unless a seen change says that task is no longer its own (done, reassigned,
 * deleted). Only team members have one: teammates and the leader. Returns an object already in
 * the store, so a React selector over it stays stable.
 */
export function currentTaskOf(
  agent: AgentView | undefined,
  tasks: Readonly<Record<string, TaskBrief>>
): CurrentTask | undefined {
  // Only team members own tasks: teammates and the leader (depth 0), never a subagent that
  // happens to share a member's name.
  if (!agent || (agent.depth !== 0 && !isTeammate(agent))) return undefined
  let best: TaskBrief | undefined
  for (const t of Object.values(tasks)) {
    if (t.status !== 'in_progress' || (t.owner !== agent.agentName && t.owner !== agent.agentId)) continue
    if (!best || t.seq > best.seq) best = t
  }
  if (best) return best
  const fromSnapshot = agent.currentTask
  return fromSnapshot && !Object.hasOwn(tasks, fromSnapshot.id) ? fromSnapshot : undefined
}
