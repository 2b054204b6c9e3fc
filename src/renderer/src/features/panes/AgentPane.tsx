import { useEffect, useRef, type CSSProperties } from 'react'
import { agentColor } from '../../store/colors'
import { selectAgent } from '../../store/selectors'
import { useAppStore } from '../../store/store'
import { PinnedPermissions } from '../permissions/PermissionQueue'
import { PaneOwner } from './PaneOwner'
import { paneRouter } from './paneRouter'
import { stateLabel } from './stateLabel'

/**
 * One agent's pane: a header (colour, name, state, model) over a terminal owned by a
 * {@link PaneOwner}, created when the element mounts and disposed on unmount, with the agent's
 * permission requests pinned over its bottom edge.
 */
export function AgentPane({ agentId, variant = 'tile' }: { agentId: string; variant?: 'main' | 'tile' }) {
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!host.current) return
    const owner = new PaneOwner(host.current, agentId, { source: paneRouter })
    return () => owner.dispose()
  }, [agentId])
  const agent = useAppStore(selectAgent(agentId))
  const color = agent?.color ?? agentColor(agentId)
  const state = agent?.state
  return (
    <section
      className={`pane pane-${variant}`}
      style={{ '--agent-color': color } as CSSProperties}
      data-agent-id={agentId}
      aria-label={`${agent?.agentName ?? agentId} pane`}
    >
      <header className="pane-head">
        <span className="agent-dot" aria-hidden="true" />
        <span className="pane-name">{agent?.agentName ?? agentId}</span>
        {agent && agent.agentType !== agent.agentName ? <span className="pane-type">{agent.agentType}</span> : null}
        <span className={`pane-state state-${state ?? 'unknown'}`}>{state ? stateLabel(state) : '…'}</span>
        <span className="spacer" />
        {agent?.model ? <span className="model-badge mono">{agent.model}</span> : null}
      </header>
      <div className="pane-body">
        <div className="pane-term" ref={host} />
        <PinnedPermissions agentId={agentId} />
      </div>
    </section>
  )
}
