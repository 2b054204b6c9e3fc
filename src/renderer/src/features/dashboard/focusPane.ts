import { actions } from '../../store/store'

/**
 * Shows an agent's pane (the dashboard's "focus pane", docs/ui.md#the-workspace-ui): the pane grid's own `focusPane`
 * (un-hides it; the `single` layout shows it), a `dashboard.focusRequest` for anything else that
 * follows it, then — once React has drawn the change — scrolls the pane
 * (`section.pane[data-agent-id=…]`) into view and flashes its outline so the eye finds it.
 */
export function focusPane(agentId: string): void {
  actions.focusPane(agentId)
  actions.requestFocus(agentId)
  requestAnimationFrame(() => {
    const pane = document.querySelector<HTMLElement>(`section.pane[data-agent-id="${CSS.escape(agentId)}"]`)
    if (!pane) return
    pane.scrollIntoView({ block: 'nearest', inline: 'nearest' })
    pane.animate(
      [{ boxShadow: '0 0 0 2px var(--agent-color, var(--accent))' }, { boxShadow: '0 0 0 2px transparent' }],
      { duration: 1200, easing: 'ease-out' }
    )
  })
}
