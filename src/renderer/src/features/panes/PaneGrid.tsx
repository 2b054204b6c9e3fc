import { useShallow } from 'zustand/react/shallow'
import { selectTeammateIds } from '../../store/selectors'
import { useAppStore } from '../../store/store'
import { LEADER_AGENT_ID } from '../../store/workspaceSlice'
import { AgentPane } from './AgentPane'

/** The leader's pane, large, with the other agents' panes tiled beside it when there are any. */
export function PaneGrid() {
  const others = useAppStore(useShallow(selectTeammateIds))
  return (
    <div className={`pane-grid${others.length > 0 ? ' has-tiles' : ''}`}>
      <AgentPane agentId={LEADER_AGENT_ID} variant="main" />
      {others.length > 0 ? (
        <div className="pane-tiles">
          {others.map((id) => (
            <AgentPane key={id} agentId={id} />
          ))}
        </div>
      ) : null}
    </div>
  )
}
