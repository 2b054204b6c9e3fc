import { useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import type { CSSProperties } from 'react'
import type { Task } from '../../../../shared/tasks'
import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from '../../store/store'
import { openBlockers } from '../../store/tasksSlice'
import { dismissCardError } from './commands'
import { TaskEditor } from './TaskEditor'

/** The colour of the agent named `name` (its team colour), or undefined when it is not on show. */
function useOwnerColor(name: string | undefined): string | undefined {
  return useAppStore((s) =>
    name ? Object.values(s.workspace.agents).find((a) => a.agentName === name)?.color : undefined
  )
}

/**
 * One task on the board (docs/ui.md#the-workspace-ui): `#id` and subject, its owner in the owner's colour, a chip per
 * task it waits for (red while that one is unfinished: the card is blocked), and main's refusal of
 * the last thing done to it, until dismissed. `overlay`: the copy that follows the pointer.
 */
export function TaskCardView({ task, overlay = false }: { task: Task; overlay?: boolean }) {
  const color = useOwnerColor(task.owner)
  const open = useAppStore(useShallow((s) => openBlockers(s.tasks, task).map((b) => b.id)))
  const card = useAppStore((s) => s.tasks.cards[task.id])
  return (
    <div className={`task-card-body${overlay ? ' overlay' : ''}`}>
      <div className="task-card-title">
        <span className="task-id">#{task.id}</span> <span className="task-subject">{task.subject}</span>
      </div>
      <div className="task-card-meta">
        {task.owner ? (
          <span
            className="task-owner"
            data-testid="task-owner"
            style={{ '--owner-color': color ?? 'var(--fg-dim, #999)' } as CSSProperties}
          >
            {task.owner}
          </span>
        ) : (
          <span className="task-owner none">unassigned</span>
        )}
        {task.blockedBy.length ? <span className="task-waits">{open.length ? 'blocked by' : 'waited for'}</span> : null}
        {task.blockedBy.map((b) => (
          <span
            key={b}
            className={`task-blocker${open.includes(b) ? ' open' : ' done'}`}
            data-testid="task-blocker"
            data-open={String(open.includes(b))}
            title={open.includes(b) ? `waits for #${b}, not completed yet` : `#${b} is completed`}
          >
            #{b}
          </span>
        ))}
        {card?.pending ? <span className="task-pending">saving…</span> : null}
      </div>
      {card?.error && !overlay ? (
        <div className="task-error" role="alert" data-testid="task-error">
          <span>{card.error}</span>
          <button
            type="button"
            className="task-error-close"
            aria-label={`Dismiss the error of task #${task.id}`}
            onClick={() => dismissCardError(task.id)}
          >
            ×
          </button>
        </div>
      ) : null}
    </div>
  )
}

/** A sortable card: drag it (pointer, or focus + Space and arrows) within or across columns, or onto a teammate. */
export function TaskCard({ task }: { task: Task }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: `task:${task.id}`,
    data: { taskId: task.id }
  })
  const blocked = useAppStore((s) => openBlockers(s.tasks, task).length > 0)
  return (
    <li
      ref={setNodeRef}
      className={`task-card${isDragging ? ' dragging' : ''}${blocked ? ' blocked' : ''}`}
      data-testid="task-card"
      data-task-id={task.id}
      data-status={task.status}
      data-owner={task.owner ?? ''}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <div
        className="task-drag"
        {...attributes}
        {...listeners}
        aria-label={`Task #${task.id} ${task.subject}: drag to a column or onto a teammate`}
      >
        <TaskCardView task={task} />
      </div>
      <TaskEditor task={task} />
    </li>
  )
}
