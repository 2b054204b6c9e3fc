import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useDroppable,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent
} from '@dnd-kit/core'
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { useEffect, useState } from 'react'
import { createPortal } from 'react-dom'
import { useShallow } from 'zustand/react/shallow'
import type { TaskStatus } from '../../../../shared/tasks'
import { actions, appStore, useAppStore } from '../../store/store'
import { columnTasks, TASK_COLUMNS } from '../../store/tasksSlice'
import { ClaudeTaskBoards } from '../claudeTeams/ClaudeTaskBoards'
import { assignTask, moveTask, refreshTaskBoard } from './commands'
import { teammateAt } from './dropTarget'
import { NewTaskForm } from './NewTaskForm'
import { TaskCard, TaskCardView } from './TaskCard'
import './tasks.css'

const COLUMN_TITLES: Record<TaskStatus, string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed'
}

/** Board droppables: cards first (a drop on a card places it there), then the column under it. */
const collisions: CollisionDetection = (args) => {
  const hits = pointerWithin(args)
  const found = hits.length ? hits : rectIntersection(args)
  return [...found].sort((a, b) => Number(String(b.id).startsWith('task:')) - Number(String(a.id).startsWith('task:')))
}

/** The viewport point a drag is at: the pointer's, else (keyboard) the centre of the dragged card. */
function dragPoint(event: DragMoveEvent | DragEndEvent): { x: number; y: number } | undefined {
  const start = event.activatorEvent as Partial<PointerEvent>
  if (typeof start.clientX === 'number' && typeof start.clientY === 'number')
    return { x: start.clientX + event.delta.x, y: start.clientY + event.delta.y }
  const rect = event.active.rect.current.translated
  return rect ? { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 } : undefined
}

const taskIdOf = (id: string | number): number | undefined =>
  String(id).startsWith('task:') ? Number(String(id).slice(5)) : undefined

function Column({ status }: { status: TaskStatus }) {
  const tasks = useAppStore(useShallow((s) => columnTasks(s.tasks, status)))
  const { setNodeRef, isOver } = useDroppable({ id: `col:${status}` })
  return (
    <section
      className={`task-column${isOver ? ' over' : ''}`}
      data-testid="task-column"
      data-status={status}
      aria-label={COLUMN_TITLES[status]}
    >
      <h3 className="task-column-title">
        {COLUMN_TITLES[status]} <span className="task-count">{tasks.length}</span>
      </h3>
      <SortableContext items={tasks.map((t) => `task:${t.id}`)} strategy={verticalListSortingStrategy}>
        <ul ref={setNodeRef} className="task-list">
          {tasks.map((t) => (
            <TaskCard key={t.id} task={t} />
          ))}
        </ul>
      </SortableContext>
    </section>
  )
}

/**
 * Where a card dropped on the board goes: the column of the card it was dropped on (before that
 * card; after it when dragged down its own column), or the end of the column it was dropped in.
 */
function boardDrop(
  id: number,
  overId: string | number
): { status: TaskStatus; beforeId: number | undefined } | undefined {
  const tasks = appStore.getState().tasks
  if (String(overId).startsWith('col:')) return { status: String(overId).slice(4) as TaskStatus, beforeId: undefined }
  const over = tasks.byId[taskIdOf(overId) ?? -1]
  if (!over) return undefined
  const column = columnTasks(tasks, over.status).map((t) => t.id)
  const from = column.indexOf(id)
  const at = column.indexOf(over.id)
  if (from !== -1 && from < at) return { status: over.status, beforeId: column[at + 1] }
  return { status: over.status, beforeId: over.id }
}

/**
 * The task board (docs/ui.md#the-workspace-ui, issue 8): columns pending / in progress / completed; a card dragged
 * between columns changes its status, within a column changes its place, and onto a teammate's
 * dashboard row or pane header assigns it (owner set, `task_assignment` sent; the card moves when
 * the teammate starts it). Pointer and keyboard (dnd-kit): focus a card, Space to lift, arrows,
 * Space to drop, Esc to cancel; each card's Edit form also assigns by keyboard. It lives in the
 * drawer's Tasks tab (`view: 'drawer'`) and opens as a full view in the pane grid's place
 * (`view: 'full'`, the pane toolbar's "Task board"); while the full view is open, the drawer's tab
 * points there instead of showing a second board.
 */
export function TaskBoard({ view = 'drawer' }: { view?: 'drawer' | 'full' }) {
  const full = useAppStore((s) => s.panes.board)
  if (view === 'drawer' && full) {
    // one board at a time: two would each list the tasks and run their own drag contexts
    return (
      <div className="task-board task-board-elsewhere" data-testid="task-board-elsewhere">
        <p className="task-hint">The task board is open in the full view, in the pane grid's place.</p>
        <button type="button" className="btn btn-small" onClick={() => actions.setBoardOpen(false)}>
          Back to the panes
        </button>
      </div>
    )
  }
  return <Board view={view} />
}

function Board({ view }: { view: 'drawer' | 'full' }) {
  const list = useAppStore((s) => s.tasks.list)
  const error = useAppStore((s) => s.tasks.error)
  const wanted = useAppStore((s) => s.tasks.wanted)
  // listed on first paint, after every reconnect's snapshot and when the session's team changes
  useEffect(() => {
    if (wanted > 0) void refreshTaskBoard()
  }, [wanted])
  const [dragged, setDragged] = useState<number | undefined>()
  const draggedTask = useAppStore((s) => (dragged === undefined ? undefined : s.tasks.byId[dragged]))
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates })
  )
  const finish = () => {
    setDragged(undefined)
    appStore.getState().setTaskDropTarget(undefined)
  }
  const onStart = (e: DragStartEvent) => setDragged(taskIdOf(e.active.id))
  const onMove = (e: DragMoveEvent) => {
    const point = dragPoint(e)
    appStore.getState().setTaskDropTarget(point ? teammateAt(point.x, point.y) : undefined)
  }
  const onEnd = (e: DragEndEvent) => {
    const id = taskIdOf(e.active.id)
    const point = dragPoint(e)
    const teammate = point ? teammateAt(point.x, point.y) : undefined
    finish()
    if (id === undefined) return
    if (teammate) return void assignTask(id, teammate)
    const to = e.over ? boardDrop(id, e.over.id) : undefined
    if (to) void moveTask(id, to.status, to.beforeId)
  }
  return (
    <div className={`task-board task-board-${view}`} data-testid="task-board" data-view={view} data-list={list ?? ''}>
      {view === 'drawer' ? (
        <button
          type="button"
          className="btn btn-small task-full-view"
          onClick={() => actions.setBoardOpen(true)}
          title="The task board, as wide as the pane grid"
        >
          Open full view
        </button>
      ) : null}
      <NewTaskForm />
      {error ? (
        <div className="task-form-problem" role="alert">
          {error}
        </div>
      ) : null}
      <p className="task-hint">Drag a card between columns, or onto a teammate's row or pane header to assign it.</p>
      <DndContext
        sensors={sensors}
        collisionDetection={collisions}
        onDragStart={onStart}
        onDragMove={onMove}
        onDragEnd={onEnd}
        onDragCancel={finish}
      >
        <div className="task-columns">
          {TASK_COLUMNS.map((status) => (
            <Column key={status} status={status} />
          ))}
        </div>
        {createPortal(
          <DragOverlay dropAnimation={null}>
            {draggedTask ? <TaskCardView task={draggedTask} overlay /> : null}
          </DragOverlay>,
          document.body
        )}
      </DndContext>
      <ClaudeTaskBoards />
    </div>
  )
}
