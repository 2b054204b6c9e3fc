import { requestChannels } from '../../../../shared/ipc'
import { issuesByField, mergeFieldIssues, type FieldIssues } from '../../lib/fieldIssues'
import { parseTaskIds } from './teammates'

/** The fields of the board's task forms (new task, a card's Edit). */
export type TaskFormField = 'subject' | 'description' | 'waitsFor'

/** A task form as typed. */
export interface TaskFormInput {
  subject: string
  description: string
  /** Task ids as typed, `1, #3`. */
  waitsFor: string
}

/** The form field a `tasks.create`/`tasks.update` issue is about (`blockedBy`/`addBlockedBy` → waits for). */
function fieldOf(path: readonly PropertyKey[]): TaskFormField | undefined {
  const key = path[0]
  if (key === 'subject' || key === 'description') return key
  if (key === 'blockedBy' || key === 'addBlockedBy') return 'waitsFor'
  return undefined
}

/**
 * Every problem of a task form at once, per field in words (issue 19 item 7): task ids that are not
 * ids, then whatever the request's contract (`tasks.create`, or `tasks.update` of task `taskId` for
 * an edit: the same schema main checks) refuses. `payload` is the request the form would send.
 */
export function taskFormProblems(
  input: TaskFormInput,
  payload:
    | { channel: 'tasks.create'; fields: Record<string, unknown> }
    | { channel: 'tasks.update'; fields: Record<string, unknown> }
): FieldIssues {
  const found: FieldIssues = parseTaskIds(input.waitsFor) ? {} : { waitsFor: ['task ids, such as 1, 3'] }
  const checked = requestChannels[payload.channel].request.safeParse(payload.fields)
  return checked.success ? found : mergeFieldIssues(found, issuesByField(checked.error.issues, fieldOf))
}

/** A form field's problems under it: `div.task-field-problem[data-testid=task-problem-<field>]`. */
export function FieldProblem({ field, problems }: { field: TaskFormField; problems: FieldIssues }) {
  const list = problems[field]
  if (!list?.length) return null
  return (
    <div className="task-form-problem task-field-problem" role="alert" data-testid={`task-problem-${field}`}>
      {list.join(' ')}
    </div>
  )
}
