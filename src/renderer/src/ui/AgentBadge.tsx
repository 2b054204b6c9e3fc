import type { CSSProperties } from 'react'

/** An agent's name on its colour, used on pane headers and permission cards. */
export function AgentBadge({ name, color }: { name: string; color: string }) {
  return (
    <span className="agent-badge" style={{ '--agent-color': color } as CSSProperties}>
      <span className="agent-dot" aria-hidden="true" />
      {name}
    </span>
  )
}
