import { z } from 'zod'
import { TaskIdSchema, TaskSchema, TaskStatusSchema } from '../tasks'
import { Empty } from './common'

/**
 * The task board's view of the shared task list (docs/teams.md#shared-task-list, docs/ui.md#the-workspace-ui task board): the list it shows
 * (`name`: the team's, or the session's own list before a team exists) and every task in it.
 * Live changes come as `task_updated` runtime events.
 */
export const TaskBoardListSchema = z.object({
  name: z.string(),
  team: z.string().optional(),
  tasks: z.array(TaskSchema)
})
export type TaskBoardList = z.infer<typeof TaskBoardListSchema>

/** The task board's limits in words (the forms show them beside the field). */
const TASK_SUBJECT_TOO_LONG = 'a subject is at most 500 characters long'
const TASK_DESCRIPTION_TOO_LONG = 'a description is at most 20,000 characters long'
const TASK_WAITS_TOO_MANY = 'a task waits for at most 100 others'

/** The task board's requests (docs/teams.md#shared-task-list, docs/ui.md#the-workspace-ui). */
export const taskChannels = {
  /** The task board's list (docs/ui.md#the-workspace-ui): every task of the session's task list. */
  'tasks.list': { request: Empty, response: TaskBoardListSchema },
  /** Creates a task from the board, as TaskCreate does (TaskCreated hooks may refuse it); `blockedBy`: tasks it waits for. */
  'tasks.create': {
    request: z
      .object({
        subject: z.string().trim().min(1, 'give the task a subject').max(500, TASK_SUBJECT_TOO_LONG),
        description: z.string().max(20_000, TASK_DESCRIPTION_TOO_LONG).optional(),
        blockedBy: z.array(TaskIdSchema).max(100, TASK_WAITS_TOO_MANY).optional()
      })
      .strict(),
    response: TaskSchema
  },
  /**
   * Edits a task from the board as TaskUpdate does in the leader's name: subject, description,
   * status (a drag between columns; completing runs the TaskCompleted hooks), and tasks it waits
   * for (`addBlockedBy`). Returns the task after the change.
   */
  'tasks.update': {
    request: z
      .object({
        taskId: TaskIdSchema,
        subject: z.string().trim().min(1, 'the subject is empty').max(500, TASK_SUBJECT_TOO_LONG).optional(),
        description: z.string().max(20_000, TASK_DESCRIPTION_TOO_LONG).optional(),
        status: TaskStatusSchema.optional(),
        addBlockedBy: z.array(TaskIdSchema).max(100, TASK_WAITS_TOO_MANY).optional()
      })
      .strict(),
    response: TaskSchema
  },
  /**
   * Assigns a task to a teammate (a card dropped on its dashboard row or pane header, docs/teams.md#shared-task-list,
   * docs/ui.md#the-workspace-ui): the owner is set and `task_assignment` sent exactly as TaskUpdate does when the leader
   * assigns. Refused for an unknown teammate, a completed task, or a task still blocked.
   */
  'tasks.assign': {
    request: z.object({ taskId: TaskIdSchema, owner: z.string().min(1).max(64) }).strict(),
    response: TaskSchema
  }
} as const
