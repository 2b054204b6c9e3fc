import { useState, type FormEvent } from 'react'
import type { Task } from '../../../../shared/tasks'
import { assignTask, editTask } from './commands'
import { FieldProblem, taskFormProblems } from './formProblems'
import { parseTaskIds, useTeammateNames } from './teammates'
import type { FieldIssues } from '../../lib/fieldIssues'

/**
 * A card's edit form, behind its Edit button: subject, description, more tasks it waits for, and
 * "Assign to" — the keyboard's way to do what dropping the card on a teammate does. What is wrong
 * with a field is said under it, every field at once, before anything is sent.
 */
export function TaskEditor({ task }: { task: Task }) {
  const [open, setOpen] = useState(false)
  const [subject, setSubject] = useState(task.subject)
  const [description, setDescription] = useState(task.description)
  const [waitsFor, setWaitsFor] = useState('')
  const [problems, setProblems] = useState<FieldIssues>({})
  const teammates = useTeammateNames()
  if (!open) {
    return (
      <div className="task-actions">
        <button
          type="button"
          className="task-edit"
          onClick={() => (setSubject(task.subject), setDescription(task.description), setOpen(true))}
          aria-label={`Edit task #${task.id}`}
        >
          Edit
        </button>
      </div>
    )
  }
  const save = async (e: FormEvent) => {
    e.preventDefault()
    const addBlockedBy = parseTaskIds(waitsFor) ?? []
    const edit = {
      ...(subject.trim() !== task.subject ? { subject: subject.trim() } : {}),
      ...(description !== task.description ? { description } : {}),
      ...(addBlockedBy.length ? { addBlockedBy } : {})
    }
    const found = taskFormProblems(
      { subject, description, waitsFor },
      { channel: 'tasks.update', fields: { taskId: task.id, ...edit } }
    )
    setProblems(found)
    if (Object.keys(found).length) return
    if (Object.keys(edit).length && !(await editTask(task.id, edit))) return
    setWaitsFor('')
    setProblems({})
    setOpen(false)
  }
  return (
    <form className="task-form" onSubmit={save} aria-label={`Edit task #${task.id}`}>
      <input
        aria-label="Subject"
        aria-invalid={problems.subject ? true : undefined}
        value={subject}
        onChange={(e) => setSubject(e.target.value)}
        required
      />
      <FieldProblem field="subject" problems={problems} />
      <textarea
        aria-label="Description"
        aria-invalid={problems.description ? true : undefined}
        value={description}
        rows={2}
        onChange={(e) => setDescription(e.target.value)}
      />
      <FieldProblem field="description" problems={problems} />
      <input
        aria-label="Also waits for"
        aria-invalid={problems.waitsFor ? true : undefined}
        placeholder="waits for #… (e.g. 1, 3)"
        value={waitsFor}
        onChange={(e) => setWaitsFor(e.target.value)}
      />
      <FieldProblem field="waitsFor" problems={problems} />
      <div className="task-form-row">
        <select
          aria-label={`Assign task #${task.id} to`}
          value=""
          disabled={teammates.length === 0}
          onChange={(e) => e.target.value && void assignTask(task.id, e.target.value)}
        >
          <option value="">{teammates.length ? 'Assign to…' : 'no teammates'}</option>
          {teammates.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <button type="submit">Save</button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}
