import { TaskStatusSchema, type Task } from '../../../shared/tasks'
import { LockError } from '../../runtime/locks'
import { TaskError, TaskInputError, TaskNotFoundError, TaskStore } from '../../runtime/tasks'
import { swarmdeskHome } from '../../runtime/storage'
import { parseCommandArgs, positiveInt, UsageError } from '../io'
import { openTeamStore, TeamStoreUnavailableError, type TeamStorePort } from '../../runtime/teamStore'
import { commandTransport, TEAM_TRANSPORT_FLAG, writableHome } from '../teamTransport'
import type { NewTask, TaskPatch, UpdateResult } from '../../runtime/tasks'
import type { ClaimResult } from '../../../shared/tasks'

const USAGE = `Use: swarmdesk tasks list --team T [--json]
     swarmdesk tasks create --team T --subject S [--description D] [--blocked-by 1,2] [--json]
     swarmdesk tasks claim ID --team T --agent NAME [--json]
     swarmdesk tasks update ID --team T [--status pending|in_progress|completed] [--owner NAME|'']
                            [--add-blocked-by 1,2] [--add-blocks 3] [--json]
       --add-blocked-by: tasks that must be completed before ID can start
       --add-blocks: tasks that cannot start until ID is completed
       (comma-separated ids; a link that would close a dependency cycle is refused, exit 1)
     swarmdesk tasks delete ID --team T
     every subcommand takes --team-transport nats://host:port (default: the files, or SWARMDESK_TEAM_TRANSPORT)`

const out = (text: string) => process.stdout.write(text + '\n')

/**
 * `swarmdesk tasks list|create|claim|update|delete` (docs/events.md#event-stream-and-command-line): the team's shared task list from
 * any terminal, on a live team. Exit codes: 0 done; 1 a claim was refused (the reason is printed:
 * a refused claim is an answer, not bad usage, but scripts must be able to tell it from a win);
 * 2 bad usage or bad input (unknown task, bad id or status), via {@link UsageError}; 1 also for an
 * unreadable task file (named) or a lock a live process holds past the timeout. `claim` of an
 * unknown task is the refusal `not_found` (exit 1), not a usage error. So is a dependency that would
 * close a cycle (`update --add-blocked-by/--add-blocks`): the cycle is named, nothing changes, exit 1.
 * `update --owner` does not itself send the `task_assignment` message; its JSON says `assignTo`.
 */
export async function tasksCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  try {
    return await dispatch(sub, rest)
  } finally {
    for (const s of opened.splice(0)) await s.close()
  }
}

async function dispatch(sub: string | undefined, rest: string[]): Promise<number> {
  try {
    switch (sub) {
      case 'list':
        return await list(rest)
      case 'create':
        return await create(rest)
      case 'claim':
        return await claim(rest)
      case 'update':
        return await update(rest)
      case 'delete':
        return await remove(rest)
      default:
        throw new UsageError(`swarmdesk tasks: unknown subcommand '${sub ?? ''}'.\n${USAGE}`)
    }
  } catch (error) {
    if (error instanceof TaskNotFoundError || error instanceof TaskInputError)
      throw new UsageError(`swarmdesk tasks ${sub}: ${error.message}`)
    if (error instanceof TaskError || error instanceof LockError || error instanceof TeamStoreUnavailableError) {
      // an unreadable task file, or a live process holding the list's lock too long
      process.stderr.write(`swarmdesk tasks ${sub}: ${error.message}\n`)
      return 1
    }
    throw error
  }
}

/** The task list one command works on, on either transport. */
interface CliTaskList {
  list(): Promise<{ tasks: Task[]; problems: { file: string; problem: string }[] }>
  create(fields: NewTask): Promise<Task>
  claim(id: number, agent: string): Promise<ClaimResult>
  update(id: number, patch: TaskPatch): Promise<UpdateResult>
  delete(id: number): Promise<void>
}

/** Stores opened by this command, closed when it ends. */
const opened: TeamStorePort[] = []

async function open(command: string, values: { team?: string; 'team-transport'?: string }): Promise<CliTaskList> {
  const team = values.team
  if (!team) throw new UsageError(`swarmdesk tasks ${command}: --team is required.\n${USAGE}`)
  const transport = commandTransport(`tasks ${command}`, values['team-transport'])
  if (transport.kind === 'files') {
    const store = new TaskStore(command === 'list' ? swarmdeskHome() : writableHome(`tasks ${command}`), team)
    return {
      list: async () => store.list(),
      create: (f) => store.create(f),
      claim: (id, agent) => store.claim(id, agent),
      update: (id, patch) => store.update(id, patch),
      delete: (id) => store.delete(id)
    }
  }
  const store = await openTeamStore(swarmdeskHome(), transport)
  opened.push(store)
  return {
    list: async () => ({ tasks: await store.tasks.list(team), problems: [] }),
    create: (f) => store.tasks.create(team, f),
    claim: (id, agent) => store.tasks.claim(team, id, agent),
    update: (id, patch) => store.tasks.update(team, id, patch),
    delete: (id) => store.tasks.delete(team, id)
  }
}

function taskId(command: string, positionals: string[]): number {
  if (positionals.length !== 1) throw new UsageError(`swarmdesk tasks ${command}: give exactly one task ID.\n${USAGE}`)
  return positiveInt('ID', positionals[0])!
}

async function list(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('tasks list', argv, {
    team: { type: 'string' },
    json: { type: 'boolean' },
    ...TEAM_TRANSPORT_FLAG
  })
  const { tasks, problems } = await (await open('list', values)).list()
  for (const p of problems) process.stderr.write(`swarmdesk tasks list: warning: skipped ${p.file}: ${p.problem}\n`)
  if (values.json) out(JSON.stringify(tasks))
  else out(formatTaskTable(tasks))
  return 0
}

async function create(argv: string[]): Promise<number> {
  const spec = {
    team: { type: 'string' },
    subject: { type: 'string' },
    description: { type: 'string' },
    'blocked-by': { type: 'string' },
    json: { type: 'boolean' },
    ...TEAM_TRANSPORT_FLAG
  } as const
  const { values } = parseCommandArgs('tasks create', argv, spec)
  const store = await open('create', values)
  if (!values.subject?.trim()) throw new UsageError(`swarmdesk tasks create: --subject is required.\n${USAGE}`)
  const blockedBy = idList('--blocked-by', values['blocked-by'])
  const task = await store.create({ subject: values.subject, description: values.description, blockedBy })
  out(values.json ? JSON.stringify(task) : `Created task #${task.id}: ${task.subject}`)
  return 0
}

async function claim(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'tasks claim',
    argv,
    { team: { type: 'string' }, agent: { type: 'string' }, json: { type: 'boolean' }, ...TEAM_TRANSPORT_FLAG },
    true
  )
  const store = await open('claim', values)
  const id = taskId('claim', positionals)
  if (!values.agent) throw new UsageError(`swarmdesk tasks claim: --agent is required.\n${USAGE}`)
  const result = await store.claim(id, values.agent)
  if (values.json) out(JSON.stringify(result))
  else if (result.ok) out(`Claimed task #${id} for ${values.agent}.`)
  else {
    const ids = (result.taskIds ?? []).map((t) => `#${t}`).join(', ')
    const detail =
      result.reason === 'already_claimed' && result.task?.owner
        ? ` (owner: ${result.task.owner}, ${result.task.status})`
        : result.reason === 'blocked'
          ? ` (waiting for ${ids})`
          : result.reason === 'agent_busy'
            ? ` (${values.agent} is working on ${ids})`
            : ''
    out(`Cannot claim task #${id}: ${result.reason}${detail}.`)
  }
  return result.ok ? 0 : 1
}

/** A comma-separated id list (`1,2`, spaces and empty items allowed); `undefined` passes through. Throws UsageError for a bad id. */
function idList(flag: string, value: string | undefined): number[] | undefined {
  return value
    ?.split(',')
    .filter((s) => s.trim() !== '')
    .map((s) => positiveInt(flag, s.trim().replace(/^#/, ''))!)
}

async function update(argv: string[]): Promise<number> {
  const spec = {
    team: { type: 'string' },
    status: { type: 'string' },
    owner: { type: 'string' },
    'add-blocked-by': { type: 'string' },
    'add-blocks': { type: 'string' },
    json: { type: 'boolean' },
    ...TEAM_TRANSPORT_FLAG
  } as const
  const { values, positionals } = parseCommandArgs('tasks update', argv, spec, true)
  const store = await open('update', values)
  const id = taskId('update', positionals)
  const status = values.status === undefined ? undefined : TaskStatusSchema.safeParse(values.status)
  if (status && !status.success)
    throw new UsageError(
      `swarmdesk tasks update: --status must be pending, in_progress or completed, got '${values.status}'.`
    )
  const addBlockedBy = idList('--add-blocked-by', values['add-blocked-by'])
  const addBlocks = idList('--add-blocks', values['add-blocks'])
  if (status === undefined && values.owner === undefined && !addBlockedBy?.length && !addBlocks?.length) {
    throw new UsageError(`swarmdesk tasks update: give --status, --owner, --add-blocked-by or --add-blocks.\n${USAGE}`)
  }
  const owner = values.owner === undefined ? undefined : values.owner === '' ? null : values.owner
  const result = await store.update(id, {
    status: status?.data,
    owner,
    ...(addBlockedBy?.length ? { addBlockedBy } : {}),
    ...(addBlocks?.length ? { addBlocks } : {})
  })
  if (values.json) out(JSON.stringify(result))
  else {
    const links = [
      result.task.blockedBy.length ? `blocked by ${result.task.blockedBy.map((b) => `#${b}`).join(',')}` : '',
      result.task.blocks.length ? `blocks ${result.task.blocks.map((b) => `#${b}`).join(',')}` : ''
    ]
    out(
      `Updated task #${id}: ${[result.task.status, result.task.owner ? `owner ${result.task.owner}` : 'no owner', ...links.filter(Boolean)].join(', ')}.`
    )
  }
  return 0
}

async function remove(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'tasks delete',
    argv,
    { team: { type: 'string' }, ...TEAM_TRANSPORT_FLAG },
    true
  )
  const store = await open('delete', values)
  const id = taskId('delete', positionals)
  await store.delete(id)
  out(`Deleted task #${id}.`)
  return 0
}

/** The human table of `tasks list`: id, status, owner, subject, and the blockers not yet completed. */
export function formatTaskTable(tasks: Task[]): string {
  if (tasks.length === 0) return 'No tasks.'
  const status = new Map(tasks.map((t) => [t.id, t.status]))
  const rows = [
    ['ID', 'STATUS', 'OWNER', 'SUBJECT', 'BLOCKED BY'],
    ...tasks.map((t) => [
      `#${t.id}`,
      t.status,
      t.owner ?? '-',
      t.subject.length > 60 ? t.subject.slice(0, 59) + '…' : t.subject,
      t.blockedBy
        .filter((b) => status.get(b) !== 'completed')
        .map((b) => `#${b}`)
        .join(',') || '-'
    ])
  ]
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n')
}
