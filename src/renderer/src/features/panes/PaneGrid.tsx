import { useShallow } from 'zustand/react/shallow'
import { selectTileIds } from '../../store/selectors'
import { useAppStore } from '../../store/store'
import { LEADER_AGENT_ID } from '../../store/workspaceSlice'
import { AgentPane } from './AgentPane'

/**
 * The leader's pane, large on the left, with the other agents' panes stacked beside it in tree
 * order (each subagent under its parent, indented). Collapsed subtrees are not mounted at all, so
 * hiding them also frees their terminals; their scrollback comes back from main when shown again.
 */
export function PaneGrid() {
  const tiles = useAppStore(useShallow(selectTileIds))
  return (
    <div className={`pane-grid${tiles.length > 0 ? ' has-tiles' : ''}`}>
      <AgentPane agentId={LEADER_AGENT_ID} variant="main" />
      {tiles.length > 0 ? (
        <div className="pane-tiles">
          {tiles.map((id) => (
            <AgentPane key={id} agentId={id} />
          ))}
        </div>
      ) : null}
    </div>
  )
}
