import {
  messageKind,
  parseMessageBody,
  permissionPromptOf,
  permissionResponseBody,
  protocolBody,
  type MailboxMessage,
  type ProtocolBodyOf
} from '../../../shared/mailbox'
import type { AgentState, RuntimeEvent } from '../../../shared/events'
import type { PermissionPromptAnswer } from '../../../shared/permissions'
import type { Disposable } from '../base'
import type { EventBus } from '../events'
import { modelFailureNotice } from '../loop'
import { renderForModel } from '../mailbox'
import type { PermissionPrompter } from '../permissions'
import { failedTurnNotice } from '../runner'
import { networkPromptRequest } from '../sandbox'
import { LEAD_NAME } from '../teams'
import type { StoredMessage, TeamContext } from '../teamStore'
import { interruptedNote } from './agent'
import { withNetworkSuggestion } from './networkSuggestion'
import type { TeammateExecutorRegistry } from './executor'
import { echoTaskChanges } from './taskEcho'
import { startedSince, type TrackedTeammate } from './tracked'

/** What the leader's inbox acts through: the supervisor's options and its view of the teammates. */
export interface LeaderInboxOptions {
  bus: EventBus
  team: TeamContext
  registry: TeammateExecutorRegistry
  /** The leader's permission queue (process teammates' requests, plan approvals). */
  prompter: PermissionPrompter
  /** Plan approvals are put to a person as well (docs/teams.md#plan-approval). */
  askPersonForPlans: boolean
  /** New messages for the leader's model, each its own text, oldest first. */
  enqueue: (text: string | readonly string[]) => void
  /** Milliseconds a teammate has to answer a shutdown request before it is killed. */
  shutdownTimeoutMs: number
  /** The tracked teammate of that name, if this session started it. */
  member: (name: string) => TrackedTeammate | undefined
  /** Sets a teammate's state and emits `agent_state` (with `reason` for `error`). */
  emitState: (tracked: TrackedTeammate, state: AgentState, reason?: string) => void
  /** Emits an event stamped with the teammate (or the leader) as its agent. */
  emitAs: (
    tracked: Pick<TrackedTeammate, 'agentId' | 'name'>,
    event: Record<string, unknown> & { type: RuntimeEvent['type'] }
  ) => void
  kill: (name: string, reason: string) => Promise<void>
  /** Something happened in the team: the quiet period starts again and listeners are told. */
  onActivity: () => void
}

/**
 * The leader's inbox, read by the runtime (docs/teams.md#mailbox, docs/teams.md#permission-requests,
 * docs/teams.md#plan-approval): every unread message is handled once, oldest first — a process
 * teammate's permission request and plan approval go to the permission queue, its idle and
 * shutdown messages move its state, and everything a model may see goes to the leader's queue.
 * It also watches what the leader sends: a shutdown request arms the kill timer, a plan verdict
 * closes the person's question.
 */
export class LeaderInbox implements Disposable {
  private watch: Disposable | undefined
  private watched: string | undefined
  private readonly handledIds = new Set<string>()
  private readonly sentSub: Disposable
  private draining: Promise<void> = Promise.resolve()
  /**
   * The team whose drain pass is queued and not yet started: arrivals meanwhile join that pass
   * (it reads every unread message when it starts) instead of queuing one pass each, which made
   * a burst of thousands of messages read the inbox thousands of times.
   */
  private drainQueued: string | undefined
  private disposed = false
  /** While {@link newsDuring} runs: the teammates' plain messages that went to the leader's queue meanwhile. */
  private news: MailboxMessage[] | undefined

  constructor(private readonly o: LeaderInboxOptions) {
    this.sentSub = o.team.store.mailbox.onDidSend((sent) => this.onLeaderSent(sent.team, sent.message.to, sent.message))
  }

  /** The team whose inbox is read, if any. */
  get team(): string | undefined {
    return this.watched
  }

  /** Resolves once the pass under way (if any) has handled its messages. */
  drained(): Promise<void> {
    return this.draining
  }

  /**
   * Waits for `work` (the team shutting down), then reads the leader's inbox once more, and answers
   * the plain messages — a teammate's words, not the protocol's — that went to the leader's queue
   * meanwhile, oldest first: a headless run's last words from its team (docs/teams.md#teammate-life-cycle).
   */
  async newsDuring(work: Promise<unknown>): Promise<MailboxMessage[]> {
    const news: MailboxMessage[] = (this.news = [])
    await work.finally(() => this.watched !== undefined && this.drain(this.watched))
    await this.draining
    if (this.news === news) this.news = undefined
    return news
  }

  /** Reads `team`'s leader inbox from now on (and what is unread in it now); the task echo with it. */
  read(team: string): void {
    if (this.watched === team) return
    this.watch?.dispose()
    this.watched = team
    const inbox = this.o.team.store.mailbox.watch(team, LEAD_NAME, () => this.drain(team))
    const tasks = echoTaskChanges({
      watch: (listener) => this.o.team.store.tasks.watch(team, listener),
      onEvent: (listener) => this.o.bus.onEvent(listener),
      report: (task, owner) => {
        const tracked = owner === undefined ? undefined : this.o.member(owner)
        this.o.emitAs(tracked ?? { agentId: LEAD_NAME, name: LEAD_NAME }, { type: 'task_updated', task })
      }
    })
    this.watch = { dispose: () => (inbox.dispose(), tasks.dispose()) }
    this.drain(team)
  }

  /** Stops reading, unless `team` is the one read (the session's team changed or went). */
  keepOnly(team: string | undefined): void {
    if (team === this.watched) return
    this.watch?.dispose()
    this.watch = undefined
    this.watched = undefined
  }

  /** The leader sent something: a shutdown request arms the kill timer (docs/teams.md#teammate-life-cycle); a plan verdict closes the person's question (first answer wins, docs/teams.md#plan-approval). */
  private onLeaderSent(team: string, to: string, message: MailboxMessage): void {
    if (message.from !== LEAD_NAME || team !== this.o.team.team()) return
    const tracked = this.o.member(to)
    if (!tracked?.alive) return
    const body = parseMessageBody(message.text)
    if (body.kind !== 'structured') return
    if (body.body.type === 'shutdown_request') {
      this.o.emitState(tracked, 'stopping')
      clearTimeout(tracked.shutdownTimer)
      const ms = this.o.shutdownTimeoutMs
      tracked.shutdownTimer = setTimeout(() => {
        if (tracked.alive)
          void this.o.kill(tracked.name, `did not answer the shutdown request within ${Math.round(ms / 1000)} s`)
      }, ms)
      tracked.shutdownTimer.unref()
    } else if (body.body.type === 'plan_approval_response') {
      tracked.questions.get(body.body.requestId)?.abort()
      if (tracked.planRequestId === body.body.requestId) tracked.planRequestId = undefined
      // a process teammate's ExitPlanMode returns with the verdict and its turn goes on
      if (tracked.backend === 'process' && tracked.state === 'awaiting_plan_approval')
        this.o.emitState(tracked, 'running')
    }
  }

  /** Handles every unread message of the leader's inbox, one pass at a time, oldest first. */
  private drain(team: string): void {
    if (this.drainQueued === team) return
    this.drainQueued = team
    this.draining = this.draining.then(async () => {
      if (this.drainQueued === team) this.drainQueued = undefined
      if (this.disposed) return
      // TeamDelete removed it (its inbox went with it), or another team was created
      if (this.o.team.team() !== team) return this.keepOnly(this.o.team.team())
      const mailbox = this.o.team.store.mailbox
      const unread = await mailbox.read(team, LEAD_NAME, { unreadOnly: true }).catch(() => undefined)
      if (!unread) return
      const fresh = unread.filter((e) => !this.handledIds.has(e.message.id))
      if (fresh.length === 0) return
      for (const entry of fresh) this.handledIds.add(entry.message.id)
      const forModel: string[] = []
      for (const entry of fresh) {
        const text = this.route(team, entry)
        if (text) forModel.push(text)
        if (text && messageKind(entry.message.text) === 'plain') this.news?.push(entry.message)
      }
      await mailbox
        .markRead(
          team,
          LEAD_NAME,
          fresh.map((e) => e.message.id)
        )
        .catch(() => undefined)
      if (forModel.length) this.o.enqueue(forModel)
      this.o.onActivity()
    })
  }

  /** One message to the leader: acted on by the runtime, and/or returned as text for the leader's model. */
  private route(team: string, entry: StoredMessage): string | undefined {
    const { message } = entry
    const from = this.o.member(message.from)
    const body = parseMessageBody(message.text)
    // a process teammate's bus stays in its process: what it said to the leader reaches the stream
    // from here (on a server its bus is relayed instead, docs/nats.md#a-teammates-events)
    const kind = messageKind(message.text)
    if (
      from?.backend === 'process' &&
      this.o.team.store.transport === 'files' &&
      (kind === 'plain' || kind === 'shutdown_approved' || kind === 'shutdown_rejected')
    )
      this.o.emitAs(from, { type: 'message_sent', from: from.name, to: LEAD_NAME, kind })
    if (body.kind !== 'structured') return renderForModel(message)
    const b = body.body
    switch (b.type) {
      case 'permission_request':
        if (from?.alive) void this.askPerson(team, from, b)
        return undefined
      case 'sandbox_permission_request':
        if (from?.alive) void this.askNetwork(team, from, b)
        return undefined
      case 'plan_approval_request':
        if (from?.alive) {
          from.planRequestId = b.requestId
          if (from.backend === 'process') this.o.emitState(from, 'awaiting_plan_approval')
          if (this.o.askPersonForPlans) void this.askPersonForPlan(team, from, b.requestId, b.plan)
        }
        break
      case 'idle_notification':
        if (from?.alive && from.backend === 'process') {
          // the transcript and the inbox are read apart: a turn it started after sending this
          // (its prompt written later, by its own clock) means it is not idle any more
          this.o.registry.get(from.backend).sync?.(from.agentId)
          // its bus stays in its process: a failed model call reaches the workspace from here
          if (b.idleReason === 'failed' && b.failureReason) {
            this.o.emitAs(from, {
              type: 'notice',
              level: 'error',
              // Claude Code's writers send no kind: their failures are model calls
              message:
                b.failureKind === 'turn' ? failedTurnNotice(b.failureReason) : modelFailureNotice(b.failureReason)
            })
            this.o.emitState(from, 'error', b.failureReason)
          } else if (!startedSince(from, message.timestamp)) {
            // Esc: the note its runner put in its own pane, and idle, as a worker teammate shows them
            if (b.idleReason === 'interrupted')
              this.o.emitAs(from, {
                type: 'notice',
                level: 'info',
                message: `Interrupted: ${interruptedNote(from.name)}`
              })
            this.o.emitState(from, 'idle')
          }
        }
        break
      case 'shutdown_rejected':
        if (from) {
          clearTimeout(from.shutdownTimer)
          from.shutdownTimer = undefined
          if (from.alive && from.backend === 'process') this.o.emitState(from, 'idle')
        }
        break
      default:
        break
    }
    return renderForModel(message)
  }

  /** A process teammate's permission request, put to the leader's queue tagged with its name; answered once, through its inbox (docs/teams.md#permission-requests). */
  private async askPerson(
    team: string,
    from: TrackedTeammate,
    body: ProtocolBodyOf<'permission_request'>
  ): Promise<void> {
    const request = withNetworkSuggestion(permissionPromptOf(body, { agentId: from.agentId, agentName: from.name }))
    const { requestId, tool, input, reason } = request
    const controller = new AbortController()
    from.questions.set(requestId, controller)
    if (from.backend === 'process') this.o.emitState(from, 'awaiting_permission')
    // the question as the event stream shows any agent's (a worker's own gate emits these itself)
    this.o.emitAs(from, { type: 'permission_request', requestId, tool, input, reason })
    let answer: PermissionPromptAnswer
    try {
      answer = await this.o.prompter.prompt(request, controller.signal)
    } finally {
      from.questions.delete(requestId)
    }
    this.o.emitAs(from, {
      type: 'permission_decided',
      requestId,
      decision: answer.decision,
      by: answer.by,
      ...(answer.decision === 'deny' && answer.reason ? { reason: answer.reason } : {})
    })
    if (answer.by === 'cancelled' || !from.alive) return
    if (from.backend === 'process') this.o.emitState(from, 'running')
    await this.o.team.store.mailbox
      .send(team, from.name, { from: LEAD_NAME, body: permissionResponseBody(requestId, answer) })
      .catch((error: Error) => {
        this.notice(`Could not deliver the permission answer to ${from.name}: ${error.message}`)
      })
  }

  /**
   * A process teammate's network question (docs/sandbox.md#network), put to the leader's queue as
   * a `SandboxNetwork` request tagged with its name (the queue answers a host once per session);
   * the answer goes back as a `sandbox_permission_response`.
   */
  private async askNetwork(
    team: string,
    from: TrackedTeammate,
    body: ProtocolBodyOf<'sandbox_permission_request'>
  ): Promise<void> {
    const host = body.hostPattern.host
    const request = networkPromptRequest({
      requestId: body.requestId,
      host,
      agentId: from.agentId,
      agentName: from.name
    })
    const controller = new AbortController()
    from.questions.set(request.requestId, controller)
    this.o.emitAs(from, {
      type: 'permission_request',
      requestId: request.requestId,
      tool: request.tool,
      input: request.input,
      reason: request.reason
    })
    let answer: PermissionPromptAnswer
    try {
      answer = await this.o.prompter.prompt(request, controller.signal)
    } finally {
      from.questions.delete(request.requestId)
    }
    this.o.emitAs(from, {
      type: 'permission_decided',
      requestId: request.requestId,
      decision: answer.decision,
      by: answer.by,
      ...(answer.decision === 'deny' && answer.reason ? { reason: answer.reason } : {}),
      ...(answer.decision === 'allow' && answer.alwaysAllowRule ? { rule: answer.alwaysAllowRule } : {})
    })
    if (answer.by === 'cancelled' || !from.alive) return
    const reply = protocolBody('sandbox_permission_response', {
      requestId: request.requestId,
      host,
      allow: answer.decision === 'allow',
      timestamp: new Date().toISOString(),
      ...(answer.decision === 'deny' && answer.reason ? { reason: answer.reason } : {})
    })
    await this.o.team.store.mailbox.send(team, from.name, { from: LEAD_NAME, body: reply }).catch((error: Error) => {
      this.notice(`Could not deliver the network answer to ${from.name}: ${error.message}`)
    })
  }

  /** A plan approval put to a person as well (docs/teams.md#plan-approval): approve = allow, reject = deny with feedback; cancelled when the leader answers first. */
  private async askPersonForPlan(team: string, from: TrackedTeammate, requestId: string, plan: string): Promise<void> {
    const controller = new AbortController()
    from.questions.set(requestId, controller)
    let answer: PermissionPromptAnswer
    try {
      answer = await this.o.prompter.prompt(
        {
          requestId,
          agentId: from.agentId,
          agentName: from.name,
          tool: 'ExitPlanMode',
          input: { plan },
          reason: `${from.name} asks to approve its plan before it changes anything`,
          suggestions: []
        },
        controller.signal
      )
    } finally {
      from.questions.delete(requestId)
    }
    if (answer.by === 'cancelled' || !from.alive) return
    const verdict = protocolBody('plan_approval_response', {
      requestId,
      approve: answer.decision === 'allow',
      ...(answer.decision === 'deny' && answer.reason ? { feedback: answer.reason } : {})
    })
    await this.o.team.store.mailbox.send(team, from.name, { from: LEAD_NAME, body: verdict }).catch((error: Error) => {
      this.notice(`Could not deliver the plan verdict to ${from.name}: ${error.message}`)
    })
    // the leader's model saw the request too: tell it a person settled it
    this.o.enqueue(
      `A person ${verdict.approve ? 'approved' : 'rejected'} ${from.name}'s plan (request_id ${requestId})${answer.decision === 'deny' && answer.reason ? `: ${answer.reason}` : ''}. Do not answer it again.`
    )
  }

  private notice(message: string): void {
    this.o.emitAs({ agentId: LEAD_NAME, name: LEAD_NAME }, { type: 'notice', level: 'error', message })
  }

  /** Stops reading and watching; resolves once the pass under way is done. */
  async dispose(): Promise<void> {
    this.disposed = true
    this.watch?.dispose()
    this.sentSub.dispose()
    await this.draining
  }
}
