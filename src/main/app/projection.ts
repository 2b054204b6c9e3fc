import { addUsage, ZERO_USAGE, type RuntimeEvent, type Usage } from '../../shared/events'
import type { AgentView } from '../../shared/ipc'
import { agentColor, teamColorHex } from '../../shared/agentColors'
import { noteActivity, type MemberActivity } from '../../shared/memberActivity'

/**
 * The workspace's agents as the UI shows them, projected from the event stream (docs/ui.md): each
 * agent's view (state, usage, cost, times, current task), each one's activity for the team
 * dashboard, each one's working directory (for permission cards) and the last event's `seq`.
 * The restore controller reads and writes {@link agents} too (agents shown `interrupted`).
 */
export class WorkspaceProjection {
  /** The agents by id, in the order they started. */
  readonly agents = new Map<string, AgentView>()
  /** Per agent id: last event, last message, context used (the team dashboard, docs/ui.md#the-workspace-ui). */
  readonly activity = new Map<string, MemberActivity>()
  /** Each agent's working directory from its `agent_started` (a worktree when isolated). */
  private readonly cwds = new Map<string, string>()
  private seq = 0

  /** Highest event `seq` applied so far. */
  get lastSeq(): number {
    return this.seq
  }

  /** The working directory an agent started in, when it said. */
  cwdOf(agentId: string): string | undefined {
    return this.cwds.get(agentId)
  }

  /** Copies of every agent's view, for a snapshot. */
  views(): AgentView[] {
    return [...this.agents.values()].map((a) => ({ ...a, usage: { ...a.usage } }))
  }

  /** Every agent's spending added up, as the UI adds it up from usage events. */
  totals(): { usage: Usage; costUsd: number } {
    const all = [...this.agents.values()]
    return {
      usage: all.reduce((sum, a) => addUsage(sum, a.usage), { ...ZERO_USAGE }),
      costUsd: all.reduce((sum, a) => sum + a.costUsd, 0)
    }
  }

  /** Forgets every agent (a new session starts). */
  clear(): void {
    this.agents.clear()
    this.activity.clear()
    this.cwds.clear()
  }

  /** Applies one event of the service's bus. */
  apply(event: RuntimeEvent): void {
    this.seq = event.seq
    this.track(event)
    const activity = noteActivity(this.activity.get(event.agentId), event)
    if (activity) this.activity.set(event.agentId, activity)
  }

  private track(event: RuntimeEvent): void {
    if (event.type === 'agent_started') {
      if (event.cwd) this.cwds.set(event.agentId, event.cwd)
      // an agent started again (resumed) keeps its todo list: it is still in its transcript (docs/tools.md#todowrite)
      const todos = this.agents.get(event.agentId)?.todos
      this.agents.set(event.agentId, {
        agentId: event.agentId,
        agentName: event.agentName,
        agentType: event.agentType,
        ...(event.parentId ? { parentId: event.parentId } : {}),
        depth: event.depth,
        state: 'starting',
        ...(event.model ? { model: event.model } : {}),
        color: event.color ? teamColorHex(event.color, event.agentId) : agentColor(event.agentId),
        ...(event.backend ? { backend: event.backend } : {}),
        ...(event.host ? { host: event.host } : {}),
        usage: { ...ZERO_USAGE },
        costUsd: 0,
        startedAt: event.time,
        ...(todos ? { todos } : {})
      })
      return
    }
    if (event.type === 'task_updated') {
      // a teammate's current task: the one it owns that is in progress (docs/ui.md#the-workspace-ui pane header)
      const { id, subject, owner, status } = event.task as {
        id?: unknown
        subject?: unknown
        owner?: unknown
        status?: unknown
      }
      for (const a of this.agents.values()) {
        if (a.currentTask?.id === String(id)) delete a.currentTask
        if (a.agentName === owner && a.backend && status === 'in_progress')
          a.currentTask = { id: String(id), subject: String(subject) }
      }
      return
    }
    const agent = this.agents.get(event.agentId)
    if (!agent) return
    if (event.type === 'agent_state') {
      agent.state = event.state
      if (event.state === 'error' && event.reason) agent.error = event.reason
      else delete agent.error
    } else if (event.type === 'agent_stopped') {
      // an agent that stopped on a failed model call stays shown in `error`, with its reason
      if (agent.state !== 'error') agent.state = event.status === 'crashed' ? 'crashed' : 'exited'
      agent.endedAt = event.time
      agent.endStatus = event.status
    } else if (event.type === 'todos_updated') {
      agent.todos = event.todos
    } else if (event.type === 'usage') {
      agent.usage = addUsage(agent.usage, event)
      agent.costUsd += event.costUsd ?? 0
    }
  }
}
