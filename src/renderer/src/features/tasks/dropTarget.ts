import type { AgentView } from '../../../../shared/ipc'
import { useAppStore } from '../../store/store'

/**
 * Teammates as drop targets of the task board (docs/ui.md#the-workspace-ui: drag a card onto a teammate's dashboard
 * row or pane header to assign it). The board's drag runs in its own dnd-kit context, and pane
 * headers sit inside the pane grid's (tile reordering), where the board's droppables could not
 * register; so a target is marked in the DOM with `data-task-drop="<agent name>"` and found under
 * the dragged card by {@link teammateAt}. Only teammates are targets: tasks go to them through
 * their inboxes.
 */

/** The attribute naming a drop target's teammate. */
export const TASK_DROP_ATTRIBUTE = 'data-task-drop'

/** Props that make an element a drop target for `agent` (nothing for an agent that is not a teammate), lit while a card is over it. */
export function useTaskDropTarget(agent: AgentView | undefined): Record<string, string> {
  const name = agent?.backend ? agent.agentName : undefined
  const over = useAppStore((s) => name !== undefined && s.tasks.dropTarget === name)
  if (!name) return {}
  return { [TASK_DROP_ATTRIBUTE]: name, 'data-task-drop-over': String(over) }
}

/** The teammate whose drop target lies at viewport point (`x`, `y`), under whatever is dragged there. */
export function teammateAt(x: number, y: number): string | undefined {
  for (const el of document.elementsFromPoint(x, y)) {
    const target = el.closest(`[${TASK_DROP_ATTRIBUTE}]`)
    if (target) return target.getAttribute(TASK_DROP_ATTRIBUTE) ?? undefined
  }
  return undefined
}
