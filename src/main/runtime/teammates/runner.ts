import { randomUUID } from 'node:crypto'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { parseMessageBody, type MailboxMessage } from '../../../shared/mailbox'
import { PermissionModeSchema, type PermissionMode } from '../../../shared/permissions'
import type { Task } from '../../../shared/tasks'
import type { TeamMember } from '../../../shared/teams'
import { EventBus } from '../events/bus'
import { query } from '../loop/query'
import type { QueryEnd } from '../loop/types'
import { createHookRunner, type HookRunner } from '../hooks'
import { createMailbox, renderForModel, type Mailbox } from '../mailbox'
import type { InboxEntry } from '../mailbox'
import { DEFAULT_MODEL, resolveModel } from '../model/pricing'
import type { AgentIdentity } from '../model/types'
import { PermissionEngine } from '../permissions'
import { createBackgroundShells, createPtyHost } from '../pty'
import { createAgentSink } from '../session/agentSink'
import { createPermissionGate } from '../session/permissionGate'
import { canonicalWorkspace, connectModel, loadWorkspaceSettings, type ModelConnection } from '../session/setup'
import { createTeamContext, sendToTeam, TaskCreateTool, TaskGetTool, TaskListTool, TaskUpdateTool, type TeamContext } from '../teamTools'
import { SendMessageInputSchema } from '../subagents/sendMessageTool'
import { LEAD_NAME, TeamStore } from '../teams'
import { FileStateCache } from '../tools/fileState'
import { ASYNC_ALLOWED_TOOL_NAMES, CORE_TOOLS } from '../tools/registry'
import type { AgentServices, Tool } from '../tools/types'
import { agentTranscriptPath } from '../transcripts/paths'
import { TranscriptWriter } from '../transcripts/writer'
import { readProjectContext, renderSystemPrompt } from '../workspace/systemPrompt'
import { createMailboxPrompter } from './mailboxPrompter'
import { teammateRolePrompt } from './prompt'

/** Options of {@link runTeammate}. */
export interface TeammateRunOptions {
  /** Swarmdesk's data directory (SPEC §12). */
  home: string
  team: string
  /** The member's name in the team config (`alice`); the agent id is `name@team`. */
  name: string
  /** Working directory; default the member's `cwd` in the team config. */
  cwd?: string
  /** SPEC §1's variables: ANTHROPIC_*, SWARMDESK_SESSION_ID, SWARMDESK_MODEL, SWARMDESK_PLAN_MODE_REQUIRED. */
  env: NodeJS.ProcessEnv
  /** Aborting it (SIGTERM) ends the teammate: its turn is stopped and it cleans up. */
  signal?: AbortSignal
  /** Where its events go (the process prints them on its terminal); default a private bus. */
  bus?: EventBus
  /** Backoff of in-band overload retries, ms (tests shorten it). */
  retryBaseDelayMs?: number
}

/** How a teammate ended without crashing. */
export type TeammateExit = { reason: 'shutdown'; requestId: string } | { reason: 'aborted' }

/** The teammate is not in the team (bad usage: exit 2). */
export class TeammateNotFoundError extends Error {
  override readonly name = 'TeammateNotFoundError'
}

/** Characters of the last text kept as an idle notification's summary. */
const SUMMARY_CHARS = 200

/**
 * Runs one teammate of the `process` backend until an approved shutdown or an abort (SPEC §9.5):
 * marks it active, then loops — a shutdown request wins; then unread messages from the leader;
 * then other unread messages, oldest first; then the next task it may claim — each batch one
 * user turn, each turn followed by an `idle_notification` to the leader. On every exit path its
 * unfinished tasks go back to pending and it is marked inactive.
 * @throws TeamNotFoundError / TeammateNotFoundError before anything runs; any error of a turn
 *   after cleaning up (a crash).
 */
export async function runTeammate(options: TeammateRunOptions): Promise<TeammateExit> {
  const { home, team, name, env } = options
  const leader = LEAD_NAME
  const teams = new TeamStore(home)
  const config = teams.read(team)
  const member = config.members.find((m) => m.name === name)
  if (!member) throw new TeammateNotFoundError(`'${name}' is not a member of team '${team}'. Members: ${config.members.map((m) => m.name).join(', ') || 'none'}.`)
  const cwd = canonicalWorkspace(options.cwd ?? member.cwd)
  const bus = options.bus ?? new EventBus()
  const mailbox = createMailbox({ home })
  const sessionId = env.SWARMDESK_SESSION_ID || randomUUID()
  const settings = await loadWorkspaceSettings(cwd, home, [], false)
  const identity: AgentIdentity = { id: `${name}@${team}`, name, type: member.agentType || 'general-purpose', cwd }
  const transcriptPath = agentTranscriptPath(home, cwd, sessionId, identity.id)
  const hooks = settings.hooks.length ? createHookRunner({ hooks: settings.hooks, cwd, sessionId, transcriptPath }) : undefined
  for (const message of hooks?.warnings ?? []) bus.emit({ type: 'notice', level: 'warning', message, agentId: identity.id, agentName: name })
  const teamContext = createTeamContext({ home, sessionId, bus, leaderName: leader, mailbox, ...(hooks ? { hooks } : {}) })
  teamContext.setTeam(team)
  const tasks = teamContext.tasks()
  const pty = createPtyHost()
  let connection: ModelConnection | undefined
  let mode: PermissionMode = env.SWARMDESK_PLAN_MODE_REQUIRED === '1' || env.SWARMDESK_PLAN_MODE_REQUIRED === 'true' || member.planModeRequired ? 'plan' : member.mode
  const stopped = new AbortController()
  const onAbort = (): void => stopped.abort()
  options.signal?.addEventListener('abort', onAbort, { once: true })
  if (options.signal?.aborted) stopped.abort()
  await teams.setActive(team, name, true)
  let outcome: 'shutdown' | 'aborted' | 'crashed' = 'crashed'
  try {
    connection = await connectModel({ env, settings, retryBaseDelayMs: options.retryBaseDelayMs })
    const agent = new TeammateAgent({
      identity,
      transcriptPath,
      member,
      model: resolveModel(member.model || env.SWARMDESK_MODEL || DEFAULT_MODEL),
      team,
      leader,
      bus,
      mailbox,
      teamContext,
      client: connection,
      engine: new PermissionEngine(settings),
      pty,
      mode: () => mode,
      signal: stopped.signal,
      idleHook: hooks && (() => runIdleHook(hooks, mailbox, team, name, stopped.signal, bus, identity.id))
    })
    await agent.start()
    for (;;) {
      if (stopped.signal.aborted) {
        outcome = 'aborted'
        return { reason: 'aborted' }
      }
      const unread = await mailbox.read(team, name, { unreadOnly: true })
      const visible: InboxEntry[] = []
      let shutdown: { entry: InboxEntry; requestId: string } | undefined
      const handled: string[] = []
      for (const entry of unread.messages) {
        const body = parseMessageBody(entry.message.text)
        if (body.kind === 'structured' && body.body.type === 'shutdown_request') {
          shutdown ??= { entry, requestId: body.body.requestId }
          continue
        }
        if (body.kind === 'structured' && body.body.type === 'mode_set_request') {
          const parsed = PermissionModeSchema.safeParse(body.body.mode)
          if (parsed.success) mode = parsed.data
        }
        if (renderForModel(entry.message) === undefined) handled.push(entry.message.id)
        else visible.push(entry)
      }
      // runtime-only messages (stale permission answers, mode changes, malformed bodies) are consumed here
      if (handled.length) await mailbox.markRead(team, name, handled)
      if (shutdown) {
        await mailbox.markRead(team, name, [shutdown.entry.message.id])
        await mailbox.send(team, leader, { from: name, text: JSON.stringify({ type: 'shutdown_approved', requestId: shutdown.requestId, from: name }), summary: `${name} is shutting down`, ...(member.color ? { color: member.color } : {}) })
        outcome = 'shutdown'
        return { reason: 'shutdown', requestId: shutdown.requestId }
      }
      const fromLeader = visible.filter((e) => e.message.from === leader)
      const batch = fromLeader.length ? fromLeader : visible
      if (batch.length) {
        await mailbox.markRead(team, name, batch.map((e) => e.message.id))
        await agent.turn(batch.map((e) => renderForModel(e.message as MailboxMessage)!).join('\n\n'))
        continue
      }
      const task = await claimNextTask(tasks.list().tasks, (id) => tasks.claim(id, name), name)
      if (task) {
        await agent.turn(taskPrompt(task), String(task.id))
        continue
      }
      await waitForWork(mailbox, team, name, tasks, stopped.signal)
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort)
    stopped.abort()
    const released = await tasks.releaseOwnedBy(name).catch(() => [] as Task[])
    await teams.setActive(team, name, false).catch(() => undefined)
    if (outcome !== 'shutdown') {
      // the leader learns that it left without a shutdown, and which tasks are free again (SPEC §9.5)
      const freed = released.length ? ` Its unfinished tasks are pending again: ${released.map((t) => `#${t.id}`).join(', ')}.` : ''
      const summary = `${name} ${outcome === 'aborted' ? 'was stopped' : 'crashed'} and exited.${freed}`
      const body = { type: 'idle_notification', from: name, idleReason: outcome === 'aborted' ? 'interrupted' : 'failed', summary }
      await mailbox.send(team, leader, { from: name, text: JSON.stringify(body), ...(member.color ? { color: member.color } : {}) }).catch(() => undefined)
    }
    await pty.dispose()
    await connection?.close()
  }
}

/** Claims the first pending task assigned to `name`, else the first unowned unblocked one; undefined when none can be had. */
async function claimNextTask(all: Task[], claim: (id: number) => Promise<{ ok: boolean; task?: Task }>, name: string): Promise<Task | undefined> {
  const byId = new Map(all.map((t) => [t.id, t]))
  const open = all
    .filter((t) => t.status === 'pending' && (t.owner === undefined || t.owner === name))
    .filter((t) => t.blockedBy.every((b) => byId.get(b)?.status === 'completed' || !byId.has(b)))
    .sort((a, b) => Number(a.owner !== name) - Number(b.owner !== name) || a.id - b.id)
  for (const t of open) {
    const result = await claim(t.id)
    if (result.ok && result.task) return result.task
  }
  return undefined
}

function taskPrompt(task: Task): string {
  return [
    `You claimed task #${task.id} of the team's task list: ${task.subject}`,
    task.description ? `\n${task.description}\n` : '',
    `Work on it now. When it is done, mark it completed with TaskUpdate (taskId "${task.id}", status "completed") and tell whoever needs the result with SendMessage.`
  ].join('\n')
}

/** Resolves when a message arrives or the task list changes; rejects only on a mailbox error, never on abort. */
async function waitForWork(mailbox: Mailbox, team: string, name: string, tasks: ReturnType<TeamContext['tasks']>, stop: AbortSignal): Promise<void> {
  const changed = new AbortController()
  // `stop` may have fired already (a SIGTERM during the last read): any() is aborted at once then
  const signal = AbortSignal.any([stop, changed.signal])
  const watch = tasks.onDidChange(() => changed.abort())
  try {
    await mailbox.waitForMessage(team, name, { signal })
  } catch (error) {
    if (!signal.aborted) throw error
  } finally {
    watch.dispose()
  }
}

/** Times in a row a TeammateIdle hook may keep the teammate working (as SubagentStop's bound, SPEC §9.9). */
const MAX_IDLE_HOOK_BLOCKS = 3

/**
 * Runs the TeammateIdle hooks (SPEC §9.9): the reason to keep working when one blocks (exit 2),
 * else undefined. A waiting shutdown request wins over a block.
 */
async function runIdleHook(hooks: HookRunner, mailbox: Mailbox, team: string, name: string, signal: AbortSignal, bus: EventBus, agentId: string): Promise<string | undefined> {
  const outcome = await hooks.run('TeammateIdle', { teammate_name: name, team_name: team }, { signal })
  for (const message of outcome.warnings) bus.emit({ type: 'notice', level: 'warning', message, agentId, agentName: name })
  if (outcome.kind !== 'block' || signal.aborted) return undefined
  const unread = await mailbox.read(team, name, { unreadOnly: true })
  const shutdownWaiting = unread.messages.some((e) => {
    const body = parseMessageBody(e.message.text)
    return body.kind === 'structured' && body.body.type === 'shutdown_request'
  })
  return shutdownWaiting ? undefined : outcome.reason
}

interface AgentParts {
  identity: AgentIdentity
  transcriptPath: string
  member: TeamMember
  model: string
  team: string
  leader: string
  bus: EventBus
  mailbox: Mailbox
  teamContext: TeamContext
  client: ModelConnection
  engine: PermissionEngine
  pty: ReturnType<typeof createPtyHost>
  mode: () => PermissionMode
  signal: AbortSignal
  /** The TeammateIdle hooks, when configured: a reason to keep working, or undefined. */
  idleHook: (() => Promise<string | undefined>) | undefined
}

/** The teammate's model side: history, transcript, tools and permission gate; one turn at a time. */
class TeammateAgent {
  private readonly messages: MessageParam[] = []
  private readonly fileState = new FileStateCache()
  private readonly sessionAllowRules: string[] = []
  private readonly transcript: TranscriptWriter
  private readonly tools: Tool[]
  private system: Awaited<ReturnType<typeof renderSystemPrompt>> = []

  constructor(private readonly parts: AgentParts) {
    this.transcript = new TranscriptWriter(parts.transcriptPath, parts.identity.id, null)
    const core = CORE_TOOLS.filter((t) => ASYNC_ALLOWED_TOOL_NAMES.includes(t.name))
    this.tools = [...core, ...TEAMMATE_TEAM_TOOLS.map((t) => withTeam(t, parts.teamContext))]
  }

  async start(): Promise<void> {
    const { identity, team, leader, model } = this.parts
    const context = await readProjectContext(identity.cwd)
    this.system = await renderSystemPrompt({ cwd: identity.cwd, model, context, rolePrompt: teammateRolePrompt({ team, name: identity.name, leader }) })
  }

  /**
   * Runs one user turn to its end (again while a TeammateIdle hook keeps it working), then tells
   * the leader it is idle. A model error ends the turn, not the teammate.
   */
  async turn(text: string, taskId?: string): Promise<QueryEnd> {
    const { identity, mailbox, team, leader, teamContext } = this.parts
    let end = await this.run(text)
    for (let kept = 0; end.reason === 'completed' && this.parts.idleHook && kept < MAX_IDLE_HOOK_BLOCKS; kept++) {
      const reason = await this.parts.idleHook()
      if (reason === undefined) break
      end = await this.run(`A TeammateIdle hook keeps you working:\n${reason}`)
    }
    if (end.reason === 'aborted') return end
    const completed = taskId !== undefined && teamContext.tasks().get(Number(taskId))?.status === 'completed'
    const summary = end.finalText.trim().replace(/\s+/g, ' ').slice(0, SUMMARY_CHARS)
    const idle = {
      type: 'idle_notification',
      from: identity.name,
      idleReason: end.reason === 'completed' ? 'available' : 'failed',
      ...(summary ? { summary } : {}),
      ...(completed ? { completedTaskId: taskId } : {})
    }
    await mailbox.send(team, leader, { from: identity.name, text: JSON.stringify(idle), ...(this.parts.member.color ? { color: this.parts.member.color } : {}) })
    return end
  }

  /** One run of the agent loop on a new user message. */
  private async run(text: string): Promise<QueryEnd> {
    const { identity, bus, mailbox, team, leader } = this.parts
    const user: MessageParam = { role: 'user', content: [{ type: 'text', text }] }
    this.messages.push(user)
    this.transcript.append('user', user)
    const shells = createBackgroundShells(this.parts.pty)
    const emit = (state: 'running' | 'idle'): void => {
      bus.emit({ type: 'agent_state', state, agentId: identity.id, agentName: identity.name })
    }
    emit('running')
    let end: QueryEnd
    try {
      const loop = query({
        agent: identity,
        model: this.parts.model,
        system: this.system,
        tools: this.tools,
        messages: this.messages,
        client: this.parts.client.client,
        signal: this.parts.signal,
        toolContext: { agentId: identity.id, agentName: identity.name, cwd: identity.cwd, fileState: this.fileState, pty: this.parts.pty, shells },
        gate: createPermissionGate({
          agentId: identity.id,
          agentName: identity.name,
          cwd: identity.cwd,
          mode: this.parts.mode,
          engine: this.parts.engine,
          prompter: createMailboxPrompter({ mailbox, team, name: identity.name, leader, ...(this.parts.member.color ? { color: this.parts.member.color } : {}) }),
          sessionAllowRules: this.sessionAllowRules,
          record: () => undefined
        })
      })
      const sink = createAgentSink({ bus, transcript: () => this.transcript, agentId: identity.id, agentName: identity.name })
      for (;;) {
        const step = await loop.next()
        if (step.done) {
          end = step.value
          break
        }
        sink(step.value)
      }
    } finally {
      await shells.killAll()
    }
    if (end.reason === 'model_error') bus.emit({ type: 'notice', level: 'error', message: end.error.message, agentId: identity.id, agentName: identity.name })
    emit('idle')
    return end
  }
}

/**
 * SendMessage for a teammate: to members of its team by name (or `*`) only — a teammate has no
 * subagents to message by id (SPEC §9.4).
 */
const TeammateSendMessageTool: Tool<{ to: string; message: Parameters<typeof sendToTeam>[1]['message']; summary?: string }> = {
  name: 'SendMessage',
  description: 'Send a message to a member of your team by name (team-lead, a teammate), or "*" for every member. Your plain text output is not seen by others: this is how you talk to them.',
  inputSchema: SendMessageInputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  call: (input, ctx) => sendToTeam(teamOf(ctx.services), input, ctx)
}

/** The team tools of a teammate (SPEC §5), in the order offered to the model. */
const TEAMMATE_TEAM_TOOLS: readonly Tool[] = [TeammateSendMessageTool as Tool, TaskCreateTool, TaskGetTool, TaskListTool, TaskUpdateTool]

function teamOf(services: AgentServices | undefined): TeamContext {
  if (!services?.team) throw new Error('SendMessage called outside a team')
  return services.team
}

/**
 * `tool` with the teammate's team as its context. The team tools reach their team through
 * `ctx.services.team` only (never the subagent runtime or the parent: a teammate has neither),
 * so the services carry just the team.
 */
function withTeam<I>(tool: Tool<I>, team: TeamContext): Tool<I> {
  const services = { team } as unknown as AgentServices
  return { ...tool, call: (input, ctx) => tool.call(input, { ...ctx, services }) }
}
