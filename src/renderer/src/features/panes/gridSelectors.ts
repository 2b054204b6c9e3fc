import type { AppState } from '../../store/store'
import { arrangedTileIds, paneParentId } from '../../store/paneTree'
import { LEADER_AGENT_ID } from '../../store/workspaceSlice'

/**
 * What the pane grid shows, derived from the workspace and the person's choices in the panes
 * slice (docs/ui.md#the-workspace-ui: layouts, hide/show, maximise, reorder). Pure selectors; arrays are new on every
 * call, so components read them with `useShallow`.
 */

/** Tiles beside the leader's pane, in the person's order, collapsed subtrees and hidden panes left out. */
export function selectArrangedTiles(s: AppState): string[] {
  const { collapsed, hidden, order } = s.panes
  return arrangedTileIds(s.workspace.agentOrder, s.workspace.agents, collapsed, hidden, order)
}

/** The top-level tiles (what can be dragged), in the order shown. */
export function selectTileHeads(s: AppState): string[] {
  const agents = s.workspace.agents
  return selectArrangedTiles(s).filter((id) => {
    const parent = paneParentId(id, agents)
    return parent === undefined || parent === LEADER_AGENT_ID
  })
}

/** Hidden panes of agents the workspace knows, in the order the agents appeared (the toolbar's "Hidden" list). */
export function selectHiddenPanes(s: AppState): string[] {
  return s.workspace.agentOrder.filter((id) => s.panes.hidden[id] && s.workspace.agents[id])
}

/**
 * The one pane shown alone, if any: the maximised pane while it exists and is not hidden, else in
 * the `single` layout the focused pane (the leader's when none or gone).
 */
export function selectSolePane(s: AppState): string | undefined {
  const { maximised, layout, focused, hidden } = s.panes
  const known = (id: string | undefined): id is string =>
    id !== undefined && (id === LEADER_AGENT_ID || s.workspace.agents[id] !== undefined) && !hidden[id]
  if (known(maximised)) return maximised
  if (layout !== 'single') return undefined
  return known(focused) ? focused : LEADER_AGENT_ID
}

/** Every pane the `single` layout can show: the leader's, then the tiles (hidden ones too, which showing un-hides). */
export function selectSelectablePanes(s: AppState): string[] {
  return [LEADER_AGENT_ID, ...s.workspace.agentOrder.filter((id) => id !== LEADER_AGENT_ID)]
}
