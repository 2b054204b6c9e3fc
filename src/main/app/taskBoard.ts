import { TeamError } from '../runtime/teams'
import { type TeamContext } from '../runtime/teamStore'
import type { TaskBoardList } from '../../shared/ipc'
import type { Task, TaskStatus } from '../../shared/tasks'
import type { Session } from '../runtime/session'
import { TaskError } from '../runtime/tasks'
import { TaskCreateTool, TaskUpdateTool, ToolError, type ToolContext } from '../runtime/tools'

/**
 * What a person does to the shared task list from the task board (docs/teams.md#shared-task-list, docs/ui.md#the-workspace-ui): list, create,
 * edit, and assign by dropping a card on a teammate. Creating and changing go through TaskCreate
 * and TaskUpdate's own code in the leader's name, so hooks run, `task_updated` is emitted and an
 * assignment sends `task_assignment` exactly as when the leader's model assigns — the team cannot
 * tell a person's change from the leader's.
 */

/** A refused board action; the message says why, for the card it came from. `name` survives IPC. */
export class TaskBoardError extends Error {
  override readonly name = 'TaskBoardError'
}

/** The session's task context. @throws TaskBoardError when the session has none (subagents off). */
function teamOf(session: Session): TeamContext {
  if (!session.team) throw new TaskBoardError('The task board needs agent teams, which are off in this workspace.')
  return session.team
}

/**
 * The context a task tool sees when the leader calls it: only the caller and its team are read
 * (no PTY, no file cache); no signal, so a TaskCompleted hook runs to its own timeout.
 */
function leaderCall(session: Session, team: TeamContext): ToolContext {
  return {
    agentId: session.identity.id,
    agentName: session.identity.name,
    cwd: session.identity.cwd,
    toolUseId: 'task-board',
    services: { team }
  } as unknown as ToolContext
}

/** Runs a tool or store call; what it refuses (a hook's block, an unknown task) becomes a {@link TaskBoardError}. */
async function refusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof ToolError || error instanceof TaskError || error instanceof TeamError)
      throw new TaskBoardError(error.message)
    throw error
  }
}

/** The task, read after a change. @throws TaskBoardError when it is gone (deleted meanwhile). */
async function reread(team: TeamContext, id: number): Promise<Task> {
  const task = await team.store.tasks.get(team.taskListName(), id)
  if (!task) throw new TaskBoardError(`Task #${id} no longer exists.`)
  return task
}

/** Every task of the session's list (the team's, or its own before TeamCreate), by id. Unreadable files are skipped. */
export async function listTasks(session: Session): Promise<TaskBoardList> {
  const team = teamOf(session)
  const tasks = await team.store.tasks.list(team.taskListName())
  const current = team.team()
  return {
    name: team.taskListName(),
    ...(current ? { team: current } : {}),
    tasks: [...tasks].sort((a, b) => a.id - b.id)
  }
}

/** Creates a pending task with TaskCreate's code, then links what it waits for. @throws TaskBoardError */
export async function createTask(
  session: Session,
  fields: { subject: string; description?: string; blockedBy?: number[] }
): Promise<Task> {
  const team = teamOf(session)
  const ctx = leaderCall(session, team)
  const blockers = fields.blockedBy ?? []
  for (const b of blockers)
    if (!(await team.store.tasks.get(team.taskListName(), b)))
      throw new TaskBoardError(`Task #${b} does not exist, so nothing can wait for it.`)
  const created = await refusals(() =>
    TaskCreateTool.call({ subject: fields.subject, description: fields.description ?? '' }, ctx)
  )
  const id = Number(/^Task #(\d+) created/.exec(created.content)?.[1])
  if (!Number.isSafeInteger(id)) throw new TaskBoardError(`The task was not created: ${created.content}`)
  if (blockers.length) await refusals(() => TaskUpdateTool.call({ taskId: id, addBlockedBy: blockers }, ctx))
  return reread(team, id)
}

/** A board edit (see the `tasks.update` channel). */
export interface TaskEdit {
  taskId: number
  subject?: string
  description?: string
  status?: TaskStatus
  addBlockedBy?: number[]
}

/** Changes a task with TaskUpdate's code in the leader's name. @throws TaskBoardError (unknown task or link, self-link, a TaskCompleted hook's block). */
export async function updateTask(session: Session, edit: TaskEdit): Promise<Task> {
  const team = teamOf(session)
  const { taskId, ...fields } = edit
  await refusals(() => TaskUpdateTool.call({ taskId, ...fields }, leaderCall(session, team)))
  return reread(team, taskId)
}

/**
 * Assigns a task to a member of the session's team (docs/teams.md#shared-task-list: a drag in the UI): TaskUpdate with
 * `owner`, so the store sets it and `task_assignment` goes to the owner's inbox. Checked first,
 * since TaskUpdate accepts these and the person must see why the drop did nothing:
 * @throws TaskBoardError without a team, for a name that is not a member, a completed task, or a
 * task whose blockers are not all completed (it could not be started; docs/teams.md#shared-task-list).
 */
export async function assignTask(session: Session, taskId: number, owner: string): Promise<Task> {
  const team = teamOf(session)
  const teamName = team.team()
  if (!teamName)
    throw new TaskBoardError('Assigning needs a team: create one first (tasks go to teammates through their inboxes).')
  const members = (await refusals(() => team.store.config.read(teamName))).members.map((m) => m.name)
  if (!members.includes(owner))
    throw new TaskBoardError(`${owner} is not a member of team '${teamName}' (members: ${members.join(', ')}).`)
  const store = team.store.tasks
  const task = await refusals(() => store.get(teamName, taskId))
  if (!task) throw new TaskBoardError(`Task #${taskId} does not exist in team '${teamName}'.`)
  if (task.status === 'completed')
    throw new TaskBoardError(`Task #${taskId} is completed; move it back to pending to give it to someone.`)
  const blockers = await Promise.all(task.blockedBy.map((b) => store.get(teamName, b)))
  const open = task.blockedBy.filter((_, i) => blockers[i] !== undefined && blockers[i]!.status !== 'completed')
  if (open.length)
    throw new TaskBoardError(
      `Task #${taskId} is blocked by ${open.map((b) => `#${b}`).join(', ')}: it can be assigned once ${open.length > 1 ? 'they are' : 'that is'} completed.`
    )
  if (task.owner === owner) return task
  await refusals(() => TaskUpdateTool.call({ taskId, owner }, leaderCall(session, team)))
  return reread(team, taskId)
}
