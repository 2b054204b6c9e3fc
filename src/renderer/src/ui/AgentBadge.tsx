import type { CSSProperties } from 'react'

/**
 * An agent's name on its colour, used on pane headers and permission cards. With `agentId`, the
 * badge carries it as `data-agent-id` and shows it on hover (a teammate's `name@team`).
 */
export function AgentBadge({ name, color, agentId }: { name: string; color: string; agentId?: string }) {
  return (
    <span
      className="agent-badge"
      style={{ '--agent-color': color } as CSSProperties}
      data-testid="agent-badge"
      data-agent-id={agentId}
      title={agentId !== undefined && agentId !== name ? agentId : undefined}
    >
      <span className="agent-dot" aria-hidden="true" />
      {name}
    </span>
  )
}
