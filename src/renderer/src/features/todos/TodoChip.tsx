import { useEffect, useRef, useState, type CSSProperties } from 'react'
import { createPortal } from 'react-dom'
import { todoProgress, type TodoItem, type TodoStatus } from '../../../../shared/todos'
import './todos.css'

/** The mark each status gets in the list, as a checklist reads. */
const MARKS: Record<TodoStatus, string> = { pending: '☐', in_progress: '▶', completed: '☑' }

/** The whole list as plain lines, for the chip's tooltip. */
function listText(todos: readonly TodoItem[]): string {
  return todos.map((t) => `${MARKS[t.status]} ${t.status === 'in_progress' ? t.activeForm : t.content}`).join('\n')
}

/** The chip's text: what the agent is doing now (its in-progress item's activeForm), else whether it is all done. */
function chipText(todos: readonly TodoItem[]): string {
  const { done, total, active } = todoProgress(todos)
  if (active) return active.activeForm
  if (total > 0 && done === total) return 'all done'
  return 'todos'
}

/**
 * An agent's todo list in one chip (docs/ui.md#pane-grid, docs/ui.md#team-dashboard): the activeForm
 * of the item in progress and a done/total count; the whole list on hover (its title) and, on click,
 * in a popover anchored under the chip, each item marked pending, in progress or completed. Esc or
 * a click elsewhere closes the popover. Nothing shows for an agent with no list or an empty one.
 * `variant` sizes it for a pane header or a dashboard row.
 */
export function TodoChip({
  todos,
  agentName,
  variant
}: {
  todos: readonly TodoItem[] | undefined
  agentName: string
  variant: 'pane' | 'member'
}) {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const popover = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return
      // the pane's own Esc (interrupt) must not see this one: it closes the list only
      e.stopPropagation()
      setOpen(false)
      button.current?.focus()
    }
    const onDown = (e: MouseEvent): void => {
      const target = e.target as Node
      if (!popover.current?.contains(target) && !button.current?.contains(target)) setOpen(false)
    }
    window.addEventListener('keydown', onKey, true)
    window.addEventListener('mousedown', onDown, true)
    return () => {
      window.removeEventListener('keydown', onKey, true)
      window.removeEventListener('mousedown', onDown, true)
    }
  }, [open])
  if (!todos || todos.length === 0) return null
  const { done, total, active } = todoProgress(todos)
  const rect = open ? button.current?.getBoundingClientRect() : undefined
  const place: CSSProperties | undefined = rect
    ? { top: rect.bottom + 4, left: Math.max(4, Math.min(rect.left, window.innerWidth - 324)) }
    : undefined
  return (
    <>
      <button
        ref={button}
        type="button"
        className={`todo-chip todo-chip-${variant}${active ? ' todo-active' : ''}`}
        data-testid={`${variant}-todos`}
        data-done={done}
        data-total={total}
        aria-expanded={open}
        aria-label={`${agentName}'s todo list: ${done} of ${total} done${active ? `, ${active.activeForm}` : ''}`}
        title={`${agentName}'s todos (${done}/${total} done)\n${listText(todos)}`}
        onClick={() => setOpen((v) => !v)}
        onDoubleClick={(e) => e.stopPropagation()}
      >
        <span className="todo-chip-text">{chipText(todos)}</span>
        <span className="todo-chip-count mono">
          {done}/{total}
        </span>
      </button>
      {open && place
        ? createPortal(
            <div
              ref={popover}
              className="todo-popover"
              role="dialog"
              aria-label={`${agentName}'s todo list`}
              data-testid="todo-popover"
              style={place}
            >
              <div className="todo-popover-head">
                <span>{agentName}'s todos</span>
                <span className="mono muted">
                  {done}/{total} done
                </span>
              </div>
              <ol className="todo-list">
                {todos.map((t, i) => (
                  <li key={i} className={`todo-item todo-${t.status}`} data-status={t.status}>
                    <span className="todo-mark" aria-hidden="true">
                      {MARKS[t.status]}
                    </span>
                    <span className="todo-text">{t.status === 'in_progress' ? t.activeForm : t.content}</span>
                  </li>
                ))}
              </ol>
            </div>,
            document.body
          )
        : null}
    </>
  )
}
