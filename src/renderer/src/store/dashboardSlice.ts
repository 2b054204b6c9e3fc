import type { StateCreator } from 'zustand/vanilla'
import type { RuntimeEvent } from '../../../shared/events'
import type { SpawnOptions, WorkspaceSnapshot } from '../../../shared/ipc'
import { noteActivity, type MemberActivity } from '../../../shared/memberActivity'
import { sanitizeName } from '../../../shared/teams'
import type { AppState } from './store'

/** Default of the `stuckAfterMinutes` setting until a snapshot says otherwise (docs/ui.md#the-workspace-ui). */
export const DEFAULT_STUCK_AFTER_MINUTES = 5

/** A dashboard action on one member, on its way or failed. */
export type MemberActionKind = 'message' | 'shutdown' | 'kill'

/** A member row's last action: the one on its way, or the error it met (shown on the row until the next). */
export interface MemberActionState {
  pending?: MemberActionKind
  error?: string
  /** What the last successful action did, in words ("message sent"). */
  done?: string
}

/** The spawn form's request state. */
export interface SpawnFormState {
  open: boolean
  pending: boolean
  error?: string
  /** Something the person should know about what was made (a team name changed to fit the rules). */
  notice?: string
}

/**
 * The team dashboard's state (docs/ui.md#the-workspace-ui): per agent, its activity (last event, last message,
 * context used — the same reducer as main's, src/shared/memberActivity.ts); the session's team,
 * from the snapshot and then from the leader's TeamCreate/TeamDelete results; the setting that
 * marks an agent stuck; and the state of the person's requests made from the dashboard.
 * Member rows themselves are derived from the workspace slice's agents (selectors), not stored.
 */
export interface DashboardSlice {
  dashboard: {
    activity: Record<string, MemberActivity>
    /** The session's team; undefined when it leads none. */
    team: string | undefined
    /** `seq` of the event that last changed {@link team} (0 = the snapshot's). */
    teamSeq: number
    /** The leader's TeamCreate/TeamDelete calls waiting for their results, by tool use id. */
    teamCalls: Record<string, { tool: 'TeamCreate' | 'TeamDelete'; name?: string }>
    stuckAfterMinutes: number
    /**
     * The person's latest request to see an agent's pane (the dashboard's "focus pane"); `nonce`
     * grows with each request so asking twice for the same pane is a new request. The pane grid
     * may follow it (maximise); the dashboard also scrolls the pane into view itself.
     */
    focusRequest: { agentId: string; nonce: number } | undefined
    actions: Record<string, MemberActionState>
    spawn: SpawnFormState
    spawnOptions: SpawnOptions | undefined
    stopAllPending: boolean
  }
  /** Applies one runtime event to the activity and the team (any time, synced or not: the newer `seq` wins). */
  noteDashboardEvent(event: RuntimeEvent): void
  /** Takes a snapshot's team, activity and setting, keeping what newer events already said. */
  loadDashboard(snapshot: WorkspaceSnapshot): void
  setTeam(team: string | undefined): void
  requestFocus(agentId: string): void
  setMemberAction(agentId: string, state: MemberActionState): void
  setSpawnForm(state: Partial<SpawnFormState>): void
  setSpawnOptions(options: SpawnOptions): void
  /**
   * The `teammateHosts` setting's names as a settings reload left them (docs/hosts.md#in-the-ui):
   * the spawn form's loaded options offer these from now on (none: no Host choice). Nothing before
   * the form loaded its options (it loads them as it opens).
   */
  setSpawnHosts(hosts: readonly string[]): void
  setStopAllPending(pending: boolean): void
}

type Dashboard = DashboardSlice['dashboard']

/** The dashboard before any snapshot. */
export function initialDashboard(): Dashboard {
  return {
    activity: {},
    team: undefined,
    teamSeq: 0,
    teamCalls: {},
    stuckAfterMinutes: DEFAULT_STUCK_AFTER_MINUTES,
    focusRequest: undefined,
    actions: {},
    spawn: { open: false, pending: false },
    spawnOptions: undefined,
    stopAllPending: false
  }
}

/** Whether the agent's calls act on the session's team: not a teammate (`name@team` has its own context). */
function leadsTeam(agentId: string): boolean {
  return !agentId.includes('@')
}

/** The team after a TeamCreate/TeamDelete call or result, or the same dashboard. */
function reduceTeam(d: Dashboard, e: RuntimeEvent): Dashboard {
  if (e.type === 'tool_call' && (e.name === 'TeamCreate' || e.name === 'TeamDelete') && leadsTeam(e.agentId)) {
    const raw = (e.input as { team_name?: unknown } | null)?.team_name
    const name = typeof raw === 'string' ? sanitizeName(raw) : undefined
    return { ...d, teamCalls: { ...d.teamCalls, [e.toolUseId]: { tool: e.name, ...(name ? { name } : {}) } } }
  }
  if (e.type === 'tool_result' && Object.hasOwn(d.teamCalls, e.toolUseId)) {
    const { [e.toolUseId]: call, ...rest } = d.teamCalls
    if (e.isError || !call) return { ...d, teamCalls: rest }
    return { ...d, teamCalls: rest, team: call.tool === 'TeamCreate' ? call.name : undefined, teamSeq: e.seq }
  }
  return d
}

/** Creates the dashboard slice (zustand slices pattern). */
export const createDashboardSlice: StateCreator<AppState, [], [], DashboardSlice> = (set) => ({
  dashboard: initialDashboard(),
  noteDashboardEvent: (e) =>
    set((s) => {
      const d = s.dashboard
      const prev = d.activity[e.agentId]
      const activity = noteActivity(prev, e)
      let next = activity === prev ? d : { ...d, activity: { ...d.activity, [e.agentId]: activity! } }
      next = reduceTeam(next, e)
      return next === d ? s : { dashboard: next }
    }),
  loadDashboard: (snap) =>
    set((s) => {
      const d = s.dashboard
      const activity = { ...d.activity }
      for (const [id, a] of Object.entries(snap.activity ?? {})) {
        const known = activity[id]
        if (!known || known.seq < a.seq) activity[id] = a
      }
      // a TeamCreate/TeamDelete this UI saw after the snapshot was taken is newer than it
      const keepTeam = d.teamSeq > snap.lastSeq
      return {
        dashboard: {
          ...d,
          activity,
          team: keepTeam ? d.team : snap.team,
          teamSeq: keepTeam ? d.teamSeq : 0,
          stuckAfterMinutes: snap.stuckAfterMinutes ?? d.stuckAfterMinutes
        }
      }
    }),
  setTeam: (team) => set((s) => ({ dashboard: { ...s.dashboard, team } })),
  requestFocus: (agentId) =>
    set((s) => ({
      dashboard: { ...s.dashboard, focusRequest: { agentId, nonce: (s.dashboard.focusRequest?.nonce ?? 0) + 1 } }
    })),
  setMemberAction: (agentId, state) =>
    set((s) => {
      const actions = { ...s.dashboard.actions }
      if (state.pending || state.error || state.done) actions[agentId] = state
      else delete actions[agentId]
      return { dashboard: { ...s.dashboard, actions } }
    }),
  setSpawnForm: (state) => set((s) => ({ dashboard: { ...s.dashboard, spawn: { ...s.dashboard.spawn, ...state } } })),
  setSpawnOptions: (spawnOptions) =>
    set((s) => ({
      dashboard: {
        ...s.dashboard,
        spawnOptions,
        ...(spawnOptions.team !== undefined ? { team: spawnOptions.team } : {})
      }
    })),
  setSpawnHosts: (hosts) =>
    set((s) => {
      const options = s.dashboard.spawnOptions
      if (!options) return {}
      const { hosts: _before, ...rest } = options
      const spawnOptions = hosts.length ? { ...rest, hosts: [...hosts] } : rest
      return { dashboard: { ...s.dashboard, spawnOptions } }
    }),
  setStopAllPending: (stopAllPending) => set((s) => ({ dashboard: { ...s.dashboard, stopAllPending } }))
})
