import type { AgentView } from '../../../../shared/ipc'
import { teamColorHex } from '../../../../shared/agentColors'

/** An agent named in a message, as the inspector draws it: its pane's id (when it has one) and its colour. */
export interface NamedAgent {
  name: string
  /** The id of its pane (`section.pane[data-agent-id]`); undefined for a name no pane belongs to (`user`). */
  agentId: string | undefined
  /** CSS colour of its dot. */
  color: string
}

/**
 * Resolves the agent names messages use (`alice`, `team-lead`) against the workspace's agents: a
 * teammate's id is `name@team` (docs/teams.md#team-config) and the leader's `team-lead`; among several matches
 * (a name reused after a teammate left) the newest wins, and a teammate or the leader beats a
 * subagent that happens to share the name. The colour is the agent's own, else the team colour
 * the message carried, else a stable colour of the name (docs/teams.md#spawning-a-teammate palette).
 */
export function resolveAgent(
  agents: Readonly<Record<string, AgentView>>,
  name: string,
  messageColor?: string
): NamedAgent {
  let found: AgentView | undefined
  const rank = (a: AgentView): number => (a.backend || a.agentId === name ? 1 : 0)
  for (const a of Object.values(agents)) {
    if (a.agentId !== name && !a.agentId.startsWith(`${name}@`) && a.agentName !== name) continue
    if (!found || rank(a) > rank(found) || (rank(a) === rank(found) && (a.startedAt ?? '') >= (found.startedAt ?? '')))
      found = a
  }
  return { name, agentId: found?.agentId, color: found?.color ?? teamColorHex(messageColor, name) }
}

/**
 * Scrolls an agent's pane into view and flashes it (class `pane-highlight`, removed when its
 * animation ends), so a click on a name in the inspector shows whose pane it is. The panes own
 * their markup (`section.pane[data-agent-id]`); a pane that is not mounted (hidden, collapsed)
 * is left alone and `false` returned.
 */
export function focusAgentPane(agentId: string, root: ParentNode = document): boolean {
  const pane = root.querySelector<HTMLElement>(`section.pane[data-agent-id="${CSS.escape(agentId)}"]`)
  if (!pane) return false
  pane.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'smooth' })
  pane.classList.remove('pane-highlight')
  // restart the animation when the same pane is clicked twice in a row
  void pane.offsetWidth
  pane.classList.add('pane-highlight')
  pane.addEventListener('animationend', () => pane.classList.remove('pane-highlight'), { once: true })
  return true
}
