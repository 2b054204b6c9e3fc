import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent
} from '@dnd-kit/core'
import { SortableContext, rectSortingStrategy, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { useEffect, useRef, useState, type RefObject } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { actions, appStore, useAppStore } from '../../store/store'
import { LEADER_AGENT_ID } from '../../store/workspaceSlice'
import { TaskBoard } from '../tasks/TaskBoard'
import { AgentPane } from './AgentPane'
import { selectArrangedTiles, selectSolePane, selectTileHeads } from './gridSelectors'
import { PaneToolbar } from './PaneToolbar'
import { tiledSpans, type TileSpan } from './tiledSpans'
import './panes.css'

/** A top-level tile that can be dragged (by its header's handle) to another place. */
function SortablePane({ agentId, span }: { agentId: string; span?: TileSpan | undefined }) {
  const s = useSortable({ id: agentId })
  return (
    <AgentPane
      agentId={agentId}
      span={span}
      drag={{
        setNodeRef: s.setNodeRef,
        style: { transform: CSS.Translate.toString(s.transform), transition: s.transition },
        handle: { setActivatorNodeRef: s.setActivatorNodeRef, attributes: s.attributes, listeners: s.listeners },
        dragging: s.isDragging
      }}
    />
  )
}

/**
 * Follows the dashboard's "focus pane" requests (`dashboard.focusRequest`): a hidden pane is shown,
 * `single` switches to it, and a maximised other pane gives way.
 */
function useFocusRequests(): void {
  const request = useAppStore((s) => s.dashboard.focusRequest)
  useEffect(() => {
    if (!request) return
    const { panes } = appStore.getState()
    if (panes.hidden[request.agentId]) actions.showPane(request.agentId)
    if (panes.maximised && panes.maximised !== request.agentId) actions.toggleMaximised(panes.maximised)
    if (panes.layout === 'single') actions.focusPane(request.agentId)
  }, [request])
}

/**
 * How many columns the grid element lays out (its computed `grid-template-columns`, which for
 * `auto-fill` lists every track), followed as it resizes; 0 while `enabled` is false.
 */
function useGridColumns(grid: RefObject<HTMLDivElement | null>, enabled: boolean): number {
  const [columns, setColumns] = useState(0)
  useEffect(() => {
    const el = grid.current
    if (!enabled || !el) return setColumns(0)
    const measure = (): void => {
      const tracks = getComputedStyle(el).gridTemplateColumns.trim()
      setColumns(tracks === '' || tracks === 'none' ? 0 : tracks.split(/\s+/).length)
    }
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [grid, enabled])
  return columns
}

/**
 * The pane grid (docs/ui.md#the-workspace-ui): a toolbar, then the panes in the chosen layout — the leader's fixed
 * and larger, the other top-level tiles in the person's order with each subagent under its parent
 * (collapsible), hidden panes left out. A maximised pane (or `single`) is shown alone. Panes not
 * shown are not mounted, so they do no work; their scrollback comes back from main when shown
 * again. Top-level tiles reorder by drag or keyboard (dnd-kit). The grid carries `data-layout`.
 * With the task board's full view open, the board takes the grid's place (`data-layout="board"`).
 * In *Tiled* the last tile stretches over what its row has left ({@link tiledSpans}), so no cell stays empty.
 */
export function PaneGrid() {
  const layout = useAppStore((s) => s.panes.layout)
  const sole = useAppStore(selectSolePane)
  const maximised = useAppStore((s) => s.panes.maximised !== undefined && s.panes.maximised === sole)
  const tiles = useAppStore(useShallow(selectArrangedTiles))
  const heads = useAppStore(useShallow(selectTileHeads))
  const board = useAppStore((s) => s.panes.board)
  useFocusRequests()
  const gridRef = useRef<HTMLDivElement>(null)
  const columns = useGridColumns(gridRef, sole === undefined && layout === 'tiled' && tiles.length > 0)
  const spans = columns > 0 ? tiledSpans(columns, tiles.length) : []
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates })
  )
  const onDragEnd = (e: DragEndEvent): void => {
    if (e.over && e.active.id !== e.over.id)
      actions.movePane(String(e.active.id), String(e.over.id), selectTileHeads(appStore.getState()))
  }
  if (board) {
    // the board's full view takes the grid's place; the panes are not mounted meanwhile, as hidden ones are not
    return (
      <div className="pane-area">
        <PaneToolbar />
        <div className="pane-grid layout-board" data-layout="board" data-testid="pane-grid">
          <TaskBoard view="full" />
        </div>
      </div>
    )
  }
  if (sole !== undefined) {
    return (
      <div className="pane-area">
        <PaneToolbar />
        <div
          className={`pane-grid layout-sole${maximised ? ' is-maximised' : ''}`}
          data-layout={maximised ? 'maximised' : 'single'}
          data-testid="pane-grid"
        >
          <AgentPane key={sole} agentId={sole} variant="main" />
        </div>
      </div>
    )
  }
  const headSet = new Set(heads)
  return (
    <div className="pane-area">
      <PaneToolbar />
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <div
          ref={gridRef}
          className={`pane-grid layout-${layout}${tiles.length > 0 ? ' has-tiles' : ''}`}
          data-layout={layout}
          data-testid="pane-grid"
        >
          <AgentPane agentId={LEADER_AGENT_ID} variant="main" />
          {tiles.length > 0 ? (
            <SortableContext items={heads} strategy={rectSortingStrategy}>
              <div className="pane-tiles">
                {tiles.map((id, i) =>
                  headSet.has(id) ? (
                    <SortablePane key={id} agentId={id} span={spans[i]} />
                  ) : (
                    <AgentPane key={id} agentId={id} span={spans[i]} />
                  )
                )}
              </div>
            </SortableContext>
          ) : null}
        </div>
      </DndContext>
    </div>
  )
}
