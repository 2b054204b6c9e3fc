import { useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { PANE_LAYOUTS, type PaneLayout } from '../../store/panesSlice'
import { actions, useAppStore } from '../../store/store'
import { selectHiddenPanes, selectSelectablePanes, selectSolePane } from './gridSelectors'

const LAYOUT_LABELS: Record<PaneLayout, { label: string; title: string }> = {
  tiled: { label: 'Tiled', title: 'Every pane in a grid, the leader’s larger' },
  'main-vertical': { label: 'Main + stack', title: 'The leader’s pane on the left, the others stacked on the right' },
  single: { label: 'Single', title: 'One pane at a time' }
}

/** An agent's name for lists (its id until it is known). */
function useNames(ids: string[]): string[] {
  return useAppStore(useShallow((s) => ids.map((id) => s.workspace.agents[id]?.agentName ?? id)))
}

/**
 * The pane grid's toolbar (docs/ui.md#the-workspace-ui): the layout switcher (a radio group: tiled / main + stack /
 * single), in `single` the pane to show, a "Hidden (n)" menu listing hidden panes to show again,
 * and "Restore" while a pane is maximised.
 */
export function PaneToolbar() {
  const layout = useAppStore((s) => s.panes.layout)
  const board = useAppStore((s) => s.panes.board)
  const maximised = useAppStore((s) => s.panes.maximised)
  const sole = useAppStore(selectSolePane)
  const hidden = useAppStore(useShallow(selectHiddenPanes))
  const hiddenNames = useNames(hidden)
  const selectable = useAppStore(useShallow(selectSelectablePanes))
  const selectableNames = useNames(selectable)
  const maximisedName = useAppStore((s) =>
    maximised ? (s.workspace.agents[maximised]?.agentName ?? maximised) : undefined
  )
  const [open, setOpen] = useState(false)
  return (
    <div className="pane-toolbar" role="toolbar" aria-label="Pane layout">
      <div className="pane-layouts" role="radiogroup" aria-label="Layout">
        {PANE_LAYOUTS.map((l) => (
          <button
            key={l}
            type="button"
            role="radio"
            aria-checked={!board && layout === l}
            className={`pane-layout-btn${!board && layout === l ? ' active' : ''}`}
            data-layout={l}
            title={LAYOUT_LABELS[l].title}
            onClick={() => actions.setPaneLayout(l)}
          >
            {LAYOUT_LABELS[l].label}
          </button>
        ))}
      </div>
      <button
        type="button"
        className={`btn btn-small pane-board-btn${board ? ' active' : ''}`}
        aria-pressed={board}
        title={board ? 'Back to the panes' : 'The task board, as wide as the pane grid'}
        onClick={() => actions.setBoardOpen(!board)}
      >
        Task board
      </button>
      {layout === 'single' && !maximised && !board ? (
        <label className="pane-single-pick">
          <span>Pane</span>
          <select aria-label="Pane to show" value={sole} onChange={(e) => actions.focusPane(e.target.value)}>
            {selectable.map((id, i) => (
              <option key={id} value={id}>
                {selectableNames[i]}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {maximised ? (
        <button type="button" className="btn btn-small" onClick={() => actions.toggleMaximised(maximised)}>
          Restore grid ({maximisedName} maximised)
        </button>
      ) : null}
      <span className="pane-toolbar-spacer" />
      <div className="pane-hidden">
        <button
          type="button"
          className="btn btn-small"
          aria-haspopup="menu"
          aria-expanded={open}
          disabled={hidden.length === 0}
          onClick={() => setOpen((o) => !o)}
          title={hidden.length === 0 ? 'No hidden panes' : 'Show a hidden pane again'}
        >
          Hidden ({hidden.length}) ▾
        </button>
        {open && hidden.length > 0 ? (
          <div className="pane-hidden-menu" role="menu" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
            {hidden.map((id, i) => (
              <button
                key={id}
                type="button"
                role="menuitem"
                className="pane-menu-item"
                onClick={() => {
                  actions.showPane(id)
                  if (hidden.length === 1) setOpen(false)
                }}
              >
                Show {hiddenNames[i]}
              </button>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  )
}
