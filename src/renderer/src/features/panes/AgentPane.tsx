import { useEffect, useRef, type CSSProperties } from 'react'
import { agentColor } from '../../store/colors'
import { selectAgent, selectIsTeammate, selectNestLevel, selectPaneParentId } from '../../store/selectors'
import { useAppStore } from '../../store/store'
import { PinnedPermissions } from '../permissions/PermissionQueue'
import { PaneHeader } from './PaneHeader'
import { PaneOwner } from './PaneOwner'
import { paneRouter } from './paneRouter'
import { needsAttention } from './stateLabel'

/**
 * One agent's pane: a {@link PaneHeader} over a terminal owned by a {@link PaneOwner}, created
 * when the element mounts and disposed on unmount, with the agent's permission requests pinned
 * over its bottom edge. A subagent's tile is indented under its parent's, edged in the parent's
 * colour; a teammate's is a top-level tile (`pane-teammate`). The section carries `data-agent-id`,
 * `data-parent-id` (its `parentId`, even for a teammate), `data-state`, and for a teammate
 * `data-backend`; it is marked `attention` while the agent waits for a permission or a plan
 * approval.
 */
export function AgentPane({ agentId, variant = 'tile' }: { agentId: string; variant?: 'main' | 'tile' }) {
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!host.current) return
    const owner = new PaneOwner(host.current, agentId, { source: paneRouter })
    return () => owner.dispose()
  }, [agentId])
  const agent = useAppStore(selectAgent(agentId))
  const nestedUnder = useAppStore(selectPaneParentId(agentId))
  const teammate = useAppStore(selectIsTeammate(agentId))
  const parentColor = useAppStore((s) => (nestedUnder ? s.workspace.agents[nestedUnder]?.color : undefined))
  const level = useAppStore(selectNestLevel(agentId))
  const color = agent?.color ?? agentColor(agentId)
  const style = { '--agent-color': color, '--parent-color': parentColor ?? 'transparent', '--nest': level } as CSSProperties
  return (
    <section
      className={`pane pane-${variant}${nestedUnder ? ' pane-sub' : ''}${teammate ? ' pane-teammate' : ''}${needsAttention(agent?.state) ? ' attention' : ''}`}
      style={style}
      data-agent-id={agentId}
      data-parent-id={agent?.parentId}
      data-state={agent?.state}
      data-backend={agent?.backend}
      aria-label={`${agent?.agentName ?? agentId} pane`}
    >
      <PaneHeader agentId={agentId} />
      <div className="pane-body">
        <div className="pane-term" ref={host} />
        <PinnedPermissions agentId={agentId} />
      </div>
    </section>
  )
}
