import { z } from 'zod'
import { protocolBody } from '../../../../shared/mailbox'
import type { Task } from '../../../../shared/tasks'
import { ToolError, type Tool, type ToolContext } from '../types'
import type { TeamContext } from '../../teamStore'
import { asToolErrors, parseTaskId, teamContextOf } from './errors'
import { emitTaskUpdated, TaskIdInputSchema } from './taskTools'

/** TaskUpdate input (docs/tools.md#tools). `status: "deleted"` deletes; `owner: ""` clears the owner. */
export const TaskUpdateInputSchema = z.object({
  taskId: TaskIdInputSchema.describe('The id of the task to change'),
  status: z
    .enum(['pending', 'in_progress', 'completed', 'deleted'])
    .optional()
    .describe('New status; "deleted" removes the task'),
  owner: z.string().optional().describe('Agent name to own the task (yourself to take it; "" to release it)'),
  subject: z.string().optional(),
  description: z.string().optional(),
  activeForm: z.string().optional(),
  addBlocks: z.array(TaskIdInputSchema).optional().describe('Tasks that cannot start until this one is completed'),
  addBlockedBy: z.array(TaskIdInputSchema).optional().describe('Tasks that must be completed before this one can start')
})
type TaskUpdateInput = z.infer<typeof TaskUpdateInputSchema>

/**
 * TaskUpdate (docs/tools.md#tools, docs/teams.md#shared-task-list, docs/hooks.md#hooks). Changes are applied atomically by the task store, then:
 * - `status: "deleted"` deletes the task and removes it from every other task's links;
 * - completing a task (status becomes `completed`) first runs the TaskCompleted hooks: a block
 *   (exit 2) refuses the whole update with the hook's reason, so nothing changes;
 * - an owner other than the caller gets a `task_assignment` in its inbox (never for a
 *   self-assignment). Only members of the session's team have inboxes: without a team, or for a
 *   name that is not a member, the owner is set and the result says no message was sent;
 * - `task_updated {task}` is emitted for the task and every task whose links changed (a deleted
 *   task is emitted once more with `status: "deleted"`).
 * Answers `Updated task #<id> <fields>` or `Task #<id> deleted`.
 */
export const TaskUpdateTool: Tool<TaskUpdateInput> = {
  name: 'TaskUpdate',
  description:
    'Change a task of the shared task list: status (pending, in_progress, completed, or deleted to remove it), owner, subject, description, and dependencies (addBlocks / addBlockedBy).',
  inputSchema: TaskUpdateInputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  async call(input, ctx) {
    const team = teamContextOf(ctx, 'TaskUpdate')
    const id = parseTaskId(input.taskId)
    const list = team.taskListName()
    const store = team.store.tasks
    const before = await asToolErrors(() => store.get(list, id))
    if (!before)
      throw new ToolError(`Task #${id} does not exist in the task list '${list}'. TaskList shows the tasks there are.`)
    const status = input.status
    if (status === 'deleted') return deleteTask(team, ctx, before)
    const addBlocks = input.addBlocks?.map((b) => parseTaskId(b, 'addBlocks'))
    const addBlockedBy = input.addBlockedBy?.map((b) => parseTaskId(b, 'addBlockedBy'))
    if (input.status === 'completed' && before.status !== 'completed' && team.hooks?.has('TaskCompleted')) {
      const subject = input.subject ?? before.subject
      const outcome = await team.hooks.run(
        'TaskCompleted',
        {
          task_id: String(id),
          task_subject: subject,
          task_description: input.description ?? before.description,
          teammate_name: ctx.agentName,
          team_name: list
        },
        { signal: ctx.signal }
      )
      if (outcome.kind === 'block')
        throw new ToolError(
          `A TaskCompleted hook blocked completing task #${id}; it stays ${before.status} and nothing was changed: ${outcome.reason}`
        )
    }
    const { task, assignTo } = await asToolErrors(() =>
      store.update(list, id, {
        by: ctx.agentName,
        ...(status !== undefined ? { status } : {}),
        ...(input.owner !== undefined ? { owner: input.owner.trim() === '' ? null : input.owner.trim() } : {}),
        ...(input.subject !== undefined ? { subject: input.subject } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.activeForm !== undefined ? { activeForm: input.activeForm } : {}),
        ...(addBlocks ? { addBlocks } : {}),
        ...(addBlockedBy ? { addBlockedBy } : {})
      })
    )
    const linked = await linkedTasks(team, list, [...(addBlocks ?? []), ...(addBlockedBy ?? [])])
    emitTaskUpdated(team, ctx, [task, ...linked])
    const fields = (
      ['status', 'owner', 'subject', 'description', 'activeForm', 'addBlocks', 'addBlockedBy'] as const
    ).filter((f) => input[f] !== undefined)
    const note = assignTo ? await notifyAssignee(team, ctx, task, assignTo) : ''
    return { content: `Updated task #${id} ${fields.join(', ') || '(nothing to change)'}${note}` }
  }
}

/** The tasks of `ids` (each once) as they are now; ids of tasks that are gone are left out. */
async function linkedTasks(team: TeamContext, list: string, ids: readonly number[]): Promise<Task[]> {
  const found = await Promise.all([...new Set(ids)].map((id) => team.store.tasks.get(list, id)))
  return found.filter((t): t is Task => t !== undefined)
}

async function deleteTask(team: TeamContext, ctx: ToolContext, task: Task): Promise<{ content: string }> {
  const list = team.taskListName()
  await asToolErrors(() => team.store.tasks.delete(list, task.id))
  const relinked = await linkedTasks(team, list, [...task.blocks, ...task.blockedBy])
  emitTaskUpdated(team, ctx, [{ ...task, status: 'deleted' }, ...relinked])
  return { content: `Task #${task.id} deleted` }
}

/**
 * Sends `task_assignment` to the new owner (docs/teams.md#shared-task-list) and emits `message_sent`. Returns a note
 * for the result: empty when sent, else why not (the update itself stands either way).
 */
async function notifyAssignee(team: TeamContext, ctx: ToolContext, task: Task, owner: string): Promise<string> {
  const teamName = team.team()
  if (!teamName) return `\n(no task_assignment sent to ${owner}: there is no team, so no inboxes)`
  const config = await asToolErrors(() => team.store.config.read(teamName))
  if (!config.members.some((m) => m.name === owner))
    return `\n(no task_assignment sent: ${owner} is not a member of team '${teamName}'; members: ${config.members.map((m) => m.name).join(', ')})`
  const body = protocolBody('task_assignment', {
    taskId: String(task.id),
    subject: task.subject,
    description: task.description,
    assignedBy: ctx.agentName
  })
  const color = config.members.find((m) => m.name === ctx.agentName)?.color
  await asToolErrors(() =>
    team.store.mailbox.send(teamName, owner, {
      from: ctx.agentName,
      body,
      summary: `Task #${task.id} assigned: ${task.subject}`,
      ...(color ? { color } : {})
    })
  )
  team.emit(
    { agentId: ctx.agentId, agentName: ctx.agentName },
    { type: 'message_sent', from: ctx.agentName, to: owner, kind: 'task_assignment' }
  )
  return ''
}
