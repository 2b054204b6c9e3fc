import type { StateCreator } from 'zustand/vanilla'
import type { WorkspaceSnapshot } from '../../../shared/ipc'
import { DEFAULT_PANE_SCROLLBACK_LINES } from '../../../shared/paneScrollback'
import type { SavedPanes } from './paneMemory'
import type { AppState } from './store'
import { LEADER_AGENT_ID as LEADER } from './workspaceSlice'

/** A request a person made from an agent's pane (docs/agents.md#auto-background, docs/agents.md#stopping-an-agent). */
export type AgentRequestKind = 'stop' | 'background' | 'interrupt'

/** The pane's view of its last request: the one on its way, or the error the last one met. */
export interface AgentRequestState {
  pending?: AgentRequestKind
  /** The runtime's answer when the last request failed, shown in the pane header until dismissed. */
  error?: string
}

/**
 * How the pane grid is arranged (docs/ui.md#the-workspace-ui "Layouts: tiled, main-vertical, single"):
 * - `tiled`: every pane in a grid, the leader's spanning two columns and two rows;
 * - `main-vertical`: the leader's pane large on the left, the others stacked on the right;
 * - `single`: one pane fills the grid (the focused one; the toolbar picks it).
 */
export type PaneLayout = (typeof PANE_LAYOUTS)[number]

/** Every layout, in the toolbar's order. */
export const PANE_LAYOUTS = ['tiled', 'main-vertical', 'single'] as const

/**
 * What the person chose about the pane grid, the state of requests made from panes, and the
 * `paneScrollbackLines` setting every pane's terminal follows. The tree of panes itself is derived
 * (selectors.ts, paneTree.ts) from the agents' `parentId`s, never stored.
 */
export interface PanesSlice {
  panes: {
    /** Agents whose subagents' panes are hidden (docs/ui.md#the-workspace-ui: collapsible under their parent). */
    collapsed: Record<string, true>
    requests: Record<string, AgentRequestState>
    layout: PaneLayout
    /** Panes the person hid (docs/ui.md#the-workspace-ui hide/show); the leader's cannot be hidden. */
    hidden: Record<string, true>
    /** The pane shown alone until restored (double-click on its header), if any. */
    maximised?: string
    /**
     * Top-level tiles in the order the person dragged them into (ids; missing ones follow). It
     * keeps ids not shown now (hidden, or not started yet), so they come back where they were.
     */
    order: string[]
    /** The pane the `single` layout shows; the leader's when unset. */
    focused?: string
    /** The task board fills the pane grid's place (its full view) instead of the panes. */
    board: boolean
    /**
     * Lines of scrollback each pane's terminal keeps (the `paneScrollbackLines` setting, from the
     * snapshot and Settings saves); {@link DEFAULT_PANE_SCROLLBACK_LINES} until a snapshot says.
     */
    scrollbackLines: number
  }
  /** Hides or shows the panes of an agent's subagents (and theirs). */
  toggleCollapsed(agentId: string): void
  /** Records a request leaving (`pending`), succeeding (neither) or failing (`error`). */
  setAgentRequest(agentId: string, state: AgentRequestState): void
  setLayout(layout: PaneLayout): void
  /** Opens the task board in the pane grid's place, or goes back to the panes. */
  setBoardOpen(open: boolean): void
  /** Hides a pane (its terminal is disposed; its scrollback stays in main). Ignored for the leader's. */
  hidePane(agentId: string): void
  /** Shows a hidden pane again (restored from main's scrollback). */
  showPane(agentId: string): void
  /** Maximises a pane, or restores the grid when it is the maximised one. */
  toggleMaximised(agentId: string): void
  /**
   * Moves the top-level tile `activeId` to where `overId` is, in `current` (the tile heads as
   * shown now); ignored when either is not in `current`.
   */
  movePane(activeId: string, overId: string, current: readonly string[]): void
  /** Makes a pane the one `single` shows (and un-hides it). */
  focusPane(agentId: string): void
  /**
   * Applies a workspace's remembered choices (paneMemory.ts): layout, the pane `single` shows,
   * hidden panes (never the leader's), tile order, collapsed groups and the board's full view. No
   * pane is maximised after.
   */
  restorePanes(saved: SavedPanes): void
  /** Takes a snapshot's `paneScrollbackLines`, when it has one. */
  loadPaneSettings(snapshot: WorkspaceSnapshot): void
  /** Sets the lines of scrollback every pane's terminal keeps (open panes follow at once). */
  setPaneScrollback(lines: number): void
}

/** Creates the panes slice (zustand slices pattern). */
export const createPanesSlice: StateCreator<AppState, [], [], PanesSlice> = (set) => ({
  panes: {
    collapsed: {},
    requests: {},
    layout: 'main-vertical',
    hidden: {},
    order: [],
    board: false,
    scrollbackLines: DEFAULT_PANE_SCROLLBACK_LINES
  },
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
    }),
  setLayout: (layout) => set((s) => ({ panes: { ...s.panes, layout, maximised: undefined, board: false } })),
  setBoardOpen: (board) => set((s) => (s.panes.board === board ? s : { panes: { ...s.panes, board } })),
  hidePane: (agentId) =>
    set((s) => {
      if (agentId === LEADER || s.panes.hidden[agentId]) return s
      const maximised = s.panes.maximised === agentId ? undefined : s.panes.maximised
      const focused = s.panes.focused === agentId ? undefined : s.panes.focused
      return { panes: { ...s.panes, hidden: { ...s.panes.hidden, [agentId]: true }, maximised, focused } }
    }),
  showPane: (agentId) =>
    set((s) => {
      if (!s.panes.hidden[agentId]) return s
      const hidden = { ...s.panes.hidden }
      delete hidden[agentId]
      return { panes: { ...s.panes, hidden } }
    }),
  toggleMaximised: (agentId) =>
    set((s) => ({ panes: { ...s.panes, maximised: s.panes.maximised === agentId ? undefined : agentId } })),
  movePane: (activeId, overId, current) =>
    set((s) => {
      const from = current.indexOf(activeId)
      const to = current.indexOf(overId)
      if (from < 0 || to < 0 || from === to) return s
      const order = [...current]
      order.splice(to, 0, ...order.splice(from, 1))
      const shown = new Set(current)
      return { panes: { ...s.panes, order: [...order, ...s.panes.order.filter((id) => !shown.has(id))] } }
    }),
  focusPane: (agentId) =>
    set((s) => {
      const hidden = { ...s.panes.hidden }
      delete hidden[agentId]
      return { panes: { ...s.panes, focused: agentId, hidden } }
    }),
  restorePanes: (saved) =>
    set((s) => {
      const flags = (ids: readonly string[]): Record<string, true> =>
        Object.fromEntries(ids.filter((id) => id !== LEADER).map((id) => [id, true as const]))
      return {
        panes: {
          ...s.panes,
          layout: saved.layout,
          focused: saved.focused,
          hidden: flags(saved.hidden),
          collapsed: Object.fromEntries(saved.collapsed.map((id) => [id, true as const])),
          order: [...saved.order],
          board: saved.board ?? false,
          maximised: undefined
        }
      }
    }),
  loadPaneSettings: (snap) =>
    set((s) =>
      snap.paneScrollbackLines === undefined || snap.paneScrollbackLines === s.panes.scrollbackLines
        ? s
        : { panes: { ...s.panes, scrollbackLines: snap.paneScrollbackLines } }
    ),
  setPaneScrollback: (lines) =>
    set((s) => (lines === s.panes.scrollbackLines ? s : { panes: { ...s.panes, scrollbackLines: lines } }))
})
