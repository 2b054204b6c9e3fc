import type { StateCreator } from 'zustand/vanilla'
import { addUsage, ZERO_USAGE, type RuntimeEvent, type Usage } from '../../../shared/events'
import type { AgentView, ModelAccess, Orchestration, TeamAllowedPaths, WorkspaceSnapshot } from '../../../shared/ipc'
import type { PermissionMode } from '../../../shared/permissions'
import type { SandboxStatus } from '../../../shared/settings'
import type { TeamTransportView } from '../../../shared/teamConnection'
import { agentColor, teamColorHex } from './colors'
import type { AppState } from './store'
import { taskFromEvent, type TaskBrief } from './teammates'

/** The leader's agent id (docs/design.md#vocabulary: the team lead is named `team-lead`). */
export const LEADER_AGENT_ID = 'team-lead'

/** How an agent's run ended, from its `agent_stopped` event. */
export type AgentEndStatus = 'completed' | 'failed' | 'killed' | 'crashed' | 'exited'

/**
 * When an agent started and ended (ms since the epoch), from the event times or, after a reload,
 * from the snapshot.
 */
export interface AgentLifetime {
  startedAt: number
  endedAt?: number
  endStatus?: AgentEndStatus
}

/** Most events kept while waiting for a snapshot; older ones are dropped (the snapshot covers them). */
const MAX_BUFFERED = 5_000

/**
 * The workspace as the snapshot describes it, kept current by runtime events. Events that arrive
 * before the snapshot (or during a resync after a reconnect) are buffered and replayed on top of
 * it, skipping those the snapshot already includes (`seq ≤ lastSeq`).
 */
export interface WorkspaceSlice {
  workspace: {
    /** False until the first snapshot, and again while resyncing after a reconnect. */
    synced: boolean
    sessionId: string
    cwd: string
    model: string
    mode: PermissionMode
    scripted: boolean
    /** The snapshot's `busy`; {@link selectBusy} prefers the leader's live state. */
    snapshotBusy: boolean
    /** A `leader.prompt` request is on its way. */
    promptInFlight: boolean
    usage: Usage
    costUsd: number
    /**
     * Fork and coordinator mode (docs/agents.md#forks, docs/agents.md#coordinator-mode); undefined when subagents are off. `switchable`
     * turns false at the first prompt, as it does in main.
     */
    orchestration?: Orchestration
    /** Whether the model can be reached: `noApiKey` while no API key is set (from the snapshot, then `model.access`). */
    modelAccess: ModelAccess
    /** Where the team lives and the state of the connection to its server (the snapshot's, then `team.transport`). */
    teamTransport: TeamTransportView
    /** The session's team's allowed paths (the snapshot's, then `team.allowedPaths`; docs/teams.md#allowed-paths). */
    allowedPaths: TeamAllowedPaths
    /** The scripted scenario's suggested prompt, which the first screen offers as a button (from the snapshot). */
    suggestedPrompt?: string
    /** The Bash sandbox as it applies now (the snapshot's, then Settings' `effective`): panes mark sandboxed Bash. */
    sandbox?: SandboxStatus
    /**
     * The leader's conversation has begun (the snapshot's `leaderStarted`, then a prompt sent, the
     * person's prompt shown or the leader running): the first screen gives way to the pane.
     */
    leaderStarted: boolean
    /** Agents by id; `agentOrder` is the order they appeared in. */
    agents: Record<string, AgentView>
    agentOrder: string[]
    /** Start and end of the agents whose `agent_started` this UI saw, by id. */
    lifetimes: Record<string, AgentLifetime>
    /**
     * Tasks of the shared task list whose `task_updated` this UI saw since the last snapshot, by id
     * (as text). With each agent's snapshot `currentTask` they give its current task
     * (`selectCurrentTask`); cleared by a snapshot, which already reflects them.
     */
    tasks: Record<string, TaskBrief>
    lastSeq: number
    buffered: RuntimeEvent[]
  }
  /** Replaces the workspace with a snapshot, then replays buffered newer events. */
  loadSnapshot(snapshot: WorkspaceSnapshot): void
  /** Applies one runtime event (buffered while not synced; ignored when already reflected or unknown). */
  applyEvent(event: RuntimeEvent): void
  /** Marks the workspace stale until the next snapshot (after a reconnect). */
  beginResync(): void
  setMode(mode: PermissionMode): void
  setPromptInFlight(inFlight: boolean): void
  /** The session's fork/coordinator mode as main answered a switch. */
  setOrchestration(orchestration: Orchestration): void
  /** Applies a `model.access` push (an API key set or removed). */
  setModelAccess(access: ModelAccess): void
  /** Applies a `team.transport` push (the connection to the team's server changed state). */
  setTeamTransport(teamTransport: TeamTransportView): void
  /** Applies a `team.allowedPaths` push, or an edit's answer (the paths after it). */
  setAllowedPaths(allowedPaths: TeamAllowedPaths): void
  /** The sandbox as Settings' answer says it applies now. */
  setSandbox(sandbox: SandboxStatus): void
}

/** The state before any snapshot. */
export function initialWorkspace(): WorkspaceSlice['workspace'] {
  return {
    synced: false,
    sessionId: '',
    cwd: '',
    model: '',
    mode: 'default',
    scripted: false,
    snapshotBusy: false,
    promptInFlight: false,
    usage: ZERO_USAGE,
    costUsd: 0,
    agents: {},
    agentOrder: [],
    lifetimes: {},
    tasks: {},
    modelAccess: {},
    teamTransport: { kind: 'files' },
    allowedPaths: { paths: [] },
    leaderStarted: false,
    lastSeq: 0,
    buffered: []
  }
}

type Workspace = WorkspaceSlice['workspace']

function minimalAgent(agentId: string, agentName: string, state: AgentView['state']): AgentView {
  const leader = agentId === LEADER_AGENT_ID
  return {
    agentId,
    agentName,
    agentType: leader ? 'main' : 'unknown',
    depth: leader ? 0 : 1,
    state,
    color: agentColor(agentId),
    usage: ZERO_USAGE,
    costUsd: 0
  }
}

/** An event's time in ms since the epoch; the receiving clock when the stamp is unreadable. */
function eventTime(e: RuntimeEvent): number {
  const t = Date.parse(e.time)
  return Number.isNaN(t) ? Date.now() : t
}

/** Applies one event to a synced workspace; returns the same object when nothing changed. */
export function reduceEvent(ws: Workspace, e: RuntimeEvent): Workspace {
  if (e.seq <= ws.lastSeq) return ws
  const next = { ...ws, lastSeq: e.seq }
  const agent = ws.agents[e.agentId]
  switch (e.type) {
    case 'agent_started': {
      const backend = e.backend ?? agent?.backend
      const host = e.backend ? e.host : agent?.host
      const view: AgentView = {
        agentId: e.agentId,
        agentName: e.agentName,
        agentType: e.agentType,
        parentId: e.parentId,
        depth: e.depth,
        state: 'starting',
        model: e.model ?? agent?.model,
        // A teammate's team colour (docs/teams.md#spawning-a-teammate) is the one the rest of the team sees it in.
        color: e.color !== undefined ? teamColorHex(e.color, e.agentId) : (agent?.color ?? agentColor(e.agentId)),
        usage: agent?.usage ?? ZERO_USAGE,
        costUsd: agent?.costUsd ?? 0,
        ...(backend ? { backend } : {}),
        ...(host ? { host } : {}),
        ...(agent?.currentTask ? { currentTask: agent.currentTask } : {}),
        ...(agent?.todos ? { todos: agent.todos } : {})
      }
      next.agents = { ...ws.agents, [e.agentId]: view }
      if (!agent) next.agentOrder = [...ws.agentOrder, e.agentId]
      next.lifetimes = { ...ws.lifetimes, [e.agentId]: { startedAt: eventTime(e) } }
      return next
    }
    case 'agent_state':
      if (e.agentId === LEADER_AGENT_ID && e.state === 'running') next.leaderStarted = true
      if (agent) {
        const { error: _previous, ...rest } = agent
        next.agents = {
          ...ws.agents,
          [e.agentId]: { ...rest, state: e.state, ...(e.state === 'error' && e.reason ? { error: e.reason } : {}) }
        }
      } else {
        // An agent whose start we did not see (it began before a snapshot that omitted it): show it anyway.
        next.agents = { ...ws.agents, [e.agentId]: minimalAgent(e.agentId, e.agentName, e.state) }
        next.agentOrder = [...ws.agentOrder, e.agentId]
      }
      return next
    case 'agent_stopped':
      if (agent) {
        // one that stopped on a failed model call stays shown in `error`, with its reason (as main keeps it)
        const state =
          agent.state === 'error' ? 'error' : e.status === 'crashed' || e.status === 'failed' ? 'crashed' : 'exited'
        next.agents = { ...ws.agents, [e.agentId]: { ...agent, state } }
      }
      {
        const life = ws.lifetimes[e.agentId]
        if (life)
          next.lifetimes = { ...ws.lifetimes, [e.agentId]: { ...life, endedAt: eventTime(e), endStatus: e.status } }
      }
      return next
    case 'usage': {
      const delta: Usage = {
        inputTokens: e.inputTokens,
        outputTokens: e.outputTokens,
        cacheCreationInputTokens: e.cacheCreationInputTokens,
        cacheReadInputTokens: e.cacheReadInputTokens
      }
      const cost = e.costUsd ?? 0
      next.usage = addUsage(ws.usage, delta)
      next.costUsd = ws.costUsd + cost
      if (agent) {
        next.agents = {
          ...ws.agents,
          [e.agentId]: {
            ...agent,
            usage: addUsage(agent.usage, delta),
            costUsd: agent.costUsd + cost,
            model: agent.model ?? e.model
          }
        }
      }
      return next
    }
    case 'todos_updated':
      // the whole list replaces the one before (docs/tools.md#todowrite)
      if (agent) next.agents = { ...ws.agents, [e.agentId]: { ...agent, todos: e.todos } }
      return next
    case 'user_prompt':
      if (e.agentId === LEADER_AGENT_ID) next.leaderStarted = true
      return next
    case 'task_updated': {
      const task = taskFromEvent(e.task, e.seq)
      if (task) next.tasks = { ...ws.tasks, [task.id]: task }
      return next
    }
    default:
      return next
  }
}

/** Creates the workspace slice (zustand slices pattern). */
export const createWorkspaceSlice: StateCreator<AppState, [], [], WorkspaceSlice> = (set) => ({
  workspace: initialWorkspace(),
  loadSnapshot: (snap) =>
    set((s) => {
      let ws: Workspace = {
        synced: true,
        sessionId: snap.sessionId,
        cwd: snap.cwd,
        model: snap.model,
        mode: snap.mode,
        scripted: snap.scripted,
        snapshotBusy: snap.busy,
        promptInFlight: s.workspace.promptInFlight,
        usage: snap.usage,
        costUsd: snap.costUsd,
        ...(snap.orchestration ? { orchestration: snap.orchestration } : {}),
        modelAccess: snap.modelAccess ?? {},
        teamTransport: snap.teamTransport ?? { kind: 'files' },
        allowedPaths: snap.allowedPaths ?? { paths: [] },
        ...(snap.suggestedPrompt ? { suggestedPrompt: snap.suggestedPrompt } : {}),
        ...(snap.sandbox ? { sandbox: snap.sandbox } : {}),
        leaderStarted: snap.leaderStarted === true || snap.busy,
        agents: Object.fromEntries(snap.agents.map((a) => [a.agentId, a])),
        agentOrder: snap.agents.map((a) => a.agentId),
        // A resync keeps what this UI already learnt about agents the snapshot still lists.
        lifetimes: Object.fromEntries(
          snap.agents.flatMap((a) => {
            const known = s.workspace.lifetimes[a.agentId]
            if (known) return [[a.agentId, known]]
            if (!a.startedAt) return []
            const life: AgentLifetime = {
              startedAt: Date.parse(a.startedAt),
              ...(a.endedAt ? { endedAt: Date.parse(a.endedAt) } : {}),
              ...(a.endStatus ? { endStatus: a.endStatus } : {})
            }
            return [[a.agentId, life]]
          })
        ),
        tasks: {},
        lastSeq: snap.lastSeq,
        buffered: []
      }
      for (const e of s.workspace.buffered) ws = reduceEvent(ws, e)
      return { workspace: ws }
    }),
  applyEvent: (e) =>
    set((s) => {
      const ws = s.workspace
      if (!ws.synced) {
        const buffered = ws.buffered.length >= MAX_BUFFERED ? ws.buffered.slice(1) : ws.buffered.slice()
        buffered.push(e)
        return { workspace: { ...ws, buffered } }
      }
      const next = reduceEvent(ws, e)
      return next === ws ? s : { workspace: next }
    }),
  beginResync: () => set((s) => ({ workspace: { ...s.workspace, synced: false, buffered: [] } })),
  setMode: (mode) => set((s) => ({ workspace: { ...s.workspace, mode } })),
  setPromptInFlight: (promptInFlight) =>
    set((s) => {
      const o = s.workspace.orchestration
      // the first prompt fixes the session's mode: main refuses a switch from now on
      return {
        workspace: {
          ...s.workspace,
          promptInFlight,
          ...(promptInFlight ? { leaderStarted: true } : {}),
          ...(promptInFlight && o ? { orchestration: { ...o, switchable: false } } : {})
        }
      }
    }),
  setOrchestration: (orchestration) => set((s) => ({ workspace: { ...s.workspace, orchestration } })),
  setModelAccess: (modelAccess) => set((s) => ({ workspace: { ...s.workspace, modelAccess } })),
  setTeamTransport: (teamTransport) => set((s) => ({ workspace: { ...s.workspace, teamTransport } })),
  setAllowedPaths: (allowedPaths) => set((s) => ({ workspace: { ...s.workspace, allowedPaths } })),
  setSandbox: (sandbox) => set((s) => ({ workspace: { ...s.workspace, sandbox } }))
})
