import { z } from 'zod'
import type { Task } from '../../../../shared/tasks'
import { ToolError, type Tool, type ToolContext } from '../types'
import type { TeamContext } from '../../teamStore'
import { asToolErrors, parseTaskId, teamContextOf } from './errors'
import { taskDetailText, taskListText } from './format'

/** A task id as Claude Code sends it (a string), or a number. */
export const TaskIdInputSchema = z.union([z.string(), z.number()])

/** TaskCreate input (docs/tools.md#tools). */
export const TaskCreateInputSchema = z.object({
  subject: z.string().describe('A brief title for the task, in the imperative ("Fix the login test")'),
  description: z.string().describe('What needs to be done, and how to tell it is done'),
  activeForm: z
    .string()
    .optional()
    .describe('Present continuous form shown while the task is in progress ("Fixing the login test")')
})

/**
 * The task tools' permission subject: none. They write only the agent's own bookkeeping under
 * `<home>/tasks/` and `<home>/teams/` (docs/storage.md#layout), never the workspace, so a person is not asked —
 * as Claude Code never asks for its task tools.
 */
const BOOKKEEPING = { kind: 'none' } as const

/** Emits `task_updated {task}` (docs/events.md#event-stream-and-command-line) for each task, in the caller's name. */
export function emitTaskUpdated(
  team: TeamContext,
  ctx: ToolContext,
  tasks: Iterable<Task | Record<string, unknown>>
): void {
  for (const task of tasks)
    team.emit({ agentId: ctx.agentId, agentName: ctx.agentName }, { type: 'task_updated', task })
}

/**
 * TaskCreate (docs/tools.md#tools, docs/teams.md#shared-task-list, docs/hooks.md#hooks): adds a pending task to the session's task list and answers
 * exactly `Task #<id> created: <subject>`. TaskCreated hooks run once the task exists (their
 * payload carries its id, as in Claude Code); a hook's block (exit 2) deletes it again and the
 * reason goes back to the model — no task file is left, though its id stays used (ids are never
 * reused, docs/teams.md#shared-task-list). `task_updated` is emitted only for a creation that stands.
 */
export const TaskCreateTool: Tool<z.infer<typeof TaskCreateInputSchema>> = {
  name: 'TaskCreate',
  description:
    "Create a task in the team's shared task list (the session's own list when there is no team). Returns its id as #<id>.",
  inputSchema: TaskCreateInputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  permissionSubject: () => BOOKKEEPING,
  async call(input, ctx) {
    const team = teamContextOf(ctx, 'TaskCreate')
    if (!input.subject.trim()) throw new ToolError('subject is empty: give the task a short title.')
    const list = team.taskListName()
    const tasks = team.store.tasks
    const task = await asToolErrors(() =>
      tasks.create(list, {
        subject: input.subject,
        description: input.description,
        ...(input.activeForm ? { activeForm: input.activeForm } : {})
      })
    )
    if (team.hooks?.has('TaskCreated')) {
      const outcome = await team.hooks.run(
        'TaskCreated',
        {
          task_id: String(task.id),
          task_subject: task.subject,
          task_description: task.description,
          teammate_name: ctx.agentName,
          team_name: list
        },
        { signal: ctx.signal }
      )
      if (outcome.kind === 'block') {
        await tasks.delete(list, task.id)
        throw new ToolError(`A TaskCreated hook refused the task "${task.subject}": ${outcome.reason}`)
      }
    }
    emitTaskUpdated(team, ctx, [task])
    return { content: `Task #${task.id} created: ${task.subject}` }
  }
}

/** TaskGet input (docs/tools.md#tools). */
export const TaskGetInputSchema = z.object({
  taskId: TaskIdInputSchema.describe('The id of the task, as TaskList shows it')
})

/** TaskGet (docs/tools.md#tools): one task in full (status, owner, links, description). @throws ToolError for an unknown id. */
export const TaskGetTool: Tool<z.infer<typeof TaskGetInputSchema>> = {
  name: 'TaskGet',
  description:
    'Read one task of the shared task list in full: subject, status, owner, what blocks it, what it blocks, description.',
  inputSchema: TaskGetInputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: () => BOOKKEEPING,
  async call(input, ctx) {
    const team = teamContextOf(ctx, 'TaskGet')
    const id = parseTaskId(input.taskId)
    const list = team.taskListName()
    const task = await asToolErrors(() => team.store.tasks.get(list, id))
    if (!task)
      throw new ToolError(`Task #${id} does not exist in the task list '${list}'. TaskList shows the tasks there are.`)
    return { content: taskDetailText(task) }
  }
}

/** TaskList input (docs/tools.md#tools): none. */
export const TaskListInputSchema = z.object({})

/**
 * TaskList (docs/tools.md#tools): one line per task, `#<id> [<status>] <subject> (<owner>) [blocked by #…]`,
 * then a line per task file that could not be read (named, skipped).
 */
export const TaskListTool: Tool<z.infer<typeof TaskListInputSchema>> = {
  name: 'TaskList',
  description: 'List the shared task list: id, status, owner, subject and the open tasks blocking each.',
  inputSchema: TaskListInputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: () => BOOKKEEPING,
  async call(_input, ctx) {
    const team = teamContextOf(ctx, 'TaskList')
    const { tasks, problems } = await asToolErrors(() => team.store.tasks.listing(team.taskListName()))
    const notes = problems.map((p) => `(skipped an unreadable task file: ${p.message})`)
    return { content: [taskListText(tasks), ...notes].join('\n') }
  }
}
