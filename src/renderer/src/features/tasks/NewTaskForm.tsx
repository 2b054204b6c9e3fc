import { useState, type FormEvent } from 'react'
import { createTask } from './commands'
import type { FieldIssues } from '../../lib/fieldIssues'
import { FieldProblem, taskFormProblems } from './formProblems'
import { parseTaskIds } from './teammates'

/** The board's form for a new task (docs/ui.md#the-workspace-ui: create tasks and dependencies): subject, description, the tasks it waits for; each field's problem under it, all at once. */
export function NewTaskForm() {
  const [subject, setSubject] = useState('')
  const [description, setDescription] = useState('')
  const [waitsFor, setWaitsFor] = useState('')
  const [problems, setProblems] = useState<FieldIssues>({})
  const [problem, setProblem] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const blockedBy = parseTaskIds(waitsFor) ?? []
    const fields = {
      subject: subject.trim(),
      ...(description.trim() ? { description: description.trim() } : {}),
      ...(blockedBy.length ? { blockedBy } : {})
    }
    const found = taskFormProblems({ subject, description, waitsFor }, { channel: 'tasks.create', fields })
    setProblems(found)
    setProblem(undefined)
    if (Object.keys(found).length) return
    setBusy(true)
    const refused = await createTask(fields)
    setBusy(false)
    setProblem(refused)
    if (refused) return
    setSubject('')
    setDescription('')
    setWaitsFor('')
  }
  return (
    <form className="task-new" onSubmit={submit} aria-label="New task">
      <input
        aria-label="New task subject"
        aria-invalid={problems.subject ? true : undefined}
        placeholder="New task…"
        value={subject}
        onChange={(e) => setSubject(e.target.value)}
        required
      />
      <FieldProblem field="subject" problems={problems} />
      <textarea
        aria-label="New task description"
        aria-invalid={problems.description ? true : undefined}
        placeholder="Description (optional)"
        rows={2}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <FieldProblem field="description" problems={problems} />
      <div className="task-form-row">
        <input
          aria-label="New task waits for"
          aria-invalid={problems.waitsFor ? true : undefined}
          placeholder="waits for #… (e.g. 1, 3)"
          value={waitsFor}
          onChange={(e) => setWaitsFor(e.target.value)}
        />
        <button type="submit" disabled={busy || !subject.trim()}>
          Add task
        </button>
      </div>
      <FieldProblem field="waitsFor" problems={problems} />
      {problem ? (
        <div className="task-form-problem" role="alert">
          {problem}
        </div>
      ) : null}
    </form>
  )
}
