import { useState, type FormEvent } from 'react'
import { createTask } from './commands'
import { parseTaskIds } from './teammates'

/** The board's form for a new task (SPEC §11: create tasks and dependencies): subject, description, the tasks it waits for. */
export function NewTaskForm() {
  const [subject, setSubject] = useState('')
  const [description, setDescription] = useState('')
  const [waitsFor, setWaitsFor] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const blockedBy = parseTaskIds(waitsFor)
    if (!blockedBy) return setProblem('Waits for: task ids such as 1, 3')
    setBusy(true)
    const refused = await createTask({ subject: subject.trim(), ...(description.trim() ? { description: description.trim() } : {}), ...(blockedBy.length ? { blockedBy } : {}) })
    setBusy(false)
    setProblem(refused)
    if (refused) return
    setSubject('')
    setDescription('')
    setWaitsFor('')
  }
  return (
    <form className="task-new" onSubmit={submit} aria-label="New task">
      <input aria-label="New task subject" placeholder="New task…" value={subject} onChange={(e) => setSubject(e.target.value)} required />
      <textarea aria-label="New task description" placeholder="Description (optional)" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
      <div className="task-form-row">
        <input aria-label="New task waits for" placeholder="waits for #… (e.g. 1, 3)" value={waitsFor} onChange={(e) => setWaitsFor(e.target.value)} />
        <button type="submit" disabled={busy || !subject.trim()}>
          Add task
        </button>
      </div>
      {problem ? <div className="task-form-problem" role="alert">{problem}</div> : null}
    </form>
  )
}
