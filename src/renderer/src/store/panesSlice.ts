import type { StateCreator } from 'zustand/vanilla'
import type { AppState } from './store'

/** A request a person made from an agent's pane (SPEC §6.4, §6.7). */
export type AgentRequestKind = 'stop' | 'background'

/** The pane's view of its last request: the one on its way, or the error the last one met. */
export interface AgentRequestState {
  pending?: AgentRequestKind
  /** The runtime's answer when the last request failed, shown in the pane header until dismissed. */
  error?: string
}

/**
 * What the person chose about the pane grid, and the state of requests made from panes. The tree
 * of panes itself is derived (selectors.ts) from the agents' `parentId`s, never stored.
 */
export interface PanesSlice {
  panes: {
    /** Agents whose subagents' panes are hidden (SPEC §11: collapsible under their parent). */
    collapsed: Record<string, true>
    requests: Record<string, AgentRequestState>
  }
  /** Hides or shows the panes of an agent's subagents (and theirs). */
  toggleCollapsed(agentId: string): void
  /** Records a request leaving (`pending`), succeeding (neither) or failing (`error`). */
  setAgentRequest(agentId: string, state: AgentRequestState): void
}

/** Creates the panes slice (zustand slices pattern). */
export const createPanesSlice: StateCreator<AppState, [], [], PanesSlice> = (set) => ({
  panes: { collapsed: {}, requests: {} },
  toggleCollapsed: (agentId) =>
    set((s) => {
      const collapsed = { ...s.panes.collapsed }
      if (collapsed[agentId]) delete collapsed[agentId]
      else collapsed[agentId] = true
      return { panes: { ...s.panes, collapsed } }
    }),
  setAgentRequest: (agentId, state) =>
    set((s) => {
      const requests = { ...s.panes.requests }
      if (state.pending || state.error) requests[agentId] = state
      else delete requests[agentId]
      return { panes: { ...s.panes, requests } }
    })
})
