import { type ParentAgent, FileStateCache, ToolError, type Tool, createExitPlanModeTool } from '../tools'
import { MEMBER_ONLY_TOOLS, teammateTools } from './tools'
import { type MailboxPort, type TeamContext } from '../teamStore'
import { type PtyHost, createBackgroundShells } from '../pty'
import {
  type ModelConnection,
  createPermissionGate,
  openingMessage,
  recordedNetworkAsker,
  resumeHistory,
  runAgentTurn,
  toolSandbox,
  turnFailure,
  type TurnEnd,
  readProjectContext,
  renderSystemPrompt,
  type ProjectContext
} from '../runner'
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { PermissionMode } from '../../../shared/permissions'
import type { TeamMember } from '../../../shared/teams'
import type { EventBus } from '../events'
import type { AgentIdentity } from '../model'
import type { PermissionEngine, PermissionPrompter } from '../permissions'
import type { NetworkAsker } from '../sandbox'
import { SubagentRuntime } from '../subagents'
import { TranscriptWriter } from '../transcripts'
import { interruptOnShutdownRequest } from './shutdownWatch'
import { teammateRolePrompt } from './prompt'
import { createTeammateSubagents, notifyIdle } from './agentServices'
import { TeammateMcp, type TeammateMcpHost } from './mcp'

/** Times in a row a TeammateIdle hook may keep the teammate working (as SubagentStop's bound, docs/hooks.md#hooks). */
const MAX_IDLE_HOOK_BLOCKS = 3

/** What a {@link TeammateAgent} is made of: its identity, its team, and the resources the runner owns. */
export interface AgentParts {
  identity: AgentIdentity
  transcriptPath: string
  member: TeamMember
  model: string
  team: string
  leader: string
  bus: EventBus
  /** The team store's mailbox (docs/nats.md#the-team-store): `teamContext.store.mailbox`. */
  mailbox: MailboxPort
  teamContext: TeamContext
  client: ModelConnection
  engine: PermissionEngine
  pty: PtyHost
  /** Its MCP servers (docs/tools.md#mcp-servers); the runner stops them when it ends. */
  mcp: TeammateMcpHost
  mode: () => PermissionMode
  /** Changes the teammate's mode (an approved plan, docs/teams.md#plan-approval). */
  setMode: (mode: PermissionMode) => void
  /** Who decides what rules and mode leave open: the leader, over the mailbox or the worker bridge (docs/teams.md#permission-requests). */
  prompter: PermissionPrompter
  /** Who answers its sandboxed commands' network questions (docs/sandbox.md#network); default: `prompter`, as a `SandboxNetwork` request shown on `bus`. */
  networkAsker?: NetworkAsker
  signal: AbortSignal
  /** The TeammateIdle hooks, when configured: a reason to keep working, or undefined. */
  idleHook: (() => Promise<string | undefined>) | undefined
  /** Where its subagents' model override (`SWARMDESK_SUBAGENT_MODEL`, docs/agents.md#agent-definitions) is read; default `process.env`. */
  env?: NodeJS.ProcessEnv
}

/** The pane's note (after `Interrupted: `) when a teammate's turn was interrupted (Esc), on either backend. */
export function interruptedNote(name: string): string {
  return `${name} stopped its turn and waits for the next message.`
}

/**
 * Set to `1` in a teammate's environment when it is started again after a restart
 * (TeammateSupervisor.resume): it then continues the conversation in its transcript.
 */
export const CONTINUE_TRANSCRIPT_VARIABLE = 'SWARMDESK_CONTINUE_TRANSCRIPT'

/** The teammate's model side: history, transcript, tools and permission gate; one turn at a time. */
export class TeammateAgent {
  private readonly messages: MessageParam[] = []
  private readonly fileState = new FileStateCache()
  private readonly sessionAllowRules: string[] = []
  private readonly transcript: TranscriptWriter
  private tools: Tool[]
  private ownTools = 0 // how many of its tools are its own: the MCP ones after them change with a server's list
  /** Its MCP tools and its subagents' servers (docs/tools.md#mcp-servers). */
  private readonly mcp: TeammateMcp
  private system: Awaited<ReturnType<typeof renderSystemPrompt>> = []
  /** The runtime of its sync subagents (docs/teams.md#spawning-a-teammate), set up by {@link start}. */
  private subagents: SubagentRuntime | undefined
  /** Texts its subagents queued for it (none in practice: they never run in the background), sent at its next model request. */
  private readonly queued: string[] = []

  /** Placeholder results of tool calls a previous run left unanswered, sent with the next user message. */
  private pendingRepair: ContentBlockParam[] | undefined

  constructor(private readonly parts: AgentParts) {
    // a teammate started again after a restart continues its conversation; a new one of the same name starts afresh
    const continuing = parts.env?.[CONTINUE_TRANSCRIPT_VARIABLE] === '1'
    const resumed = continuing ? resumeHistory(parts.transcriptPath, parts.identity.id) : undefined
    this.pendingRepair = resumed?.repair
    this.messages.push(...(resumed?.messages ?? []))
    this.transcript = resumed?.transcript ?? new TranscriptWriter(parts.transcriptPath, parts.identity.id, null)
    const color = parts.member.color ? { color: parts.member.color } : {}
    const plan = parts.member.planModeRequired
      ? [
          createExitPlanModeTool({
            mailbox: parts.mailbox,
            team: parts.team,
            name: parts.identity.name,
            leader: parts.leader,
            ...color,
            mode: parts.mode,
            setMode: parts.setMode,
            onWaiting: (waiting) => {
              this.waitingForAnswer(waiting)
              this.state(waiting ? 'awaiting_plan_approval' : 'running')
            }
          }) as Tool
        ]
      : []
    this.tools = teammateTools({
      teammateId: parts.identity.id,
      leader: parts.leader,
      team: parts.teamContext,
      approveShutdown: (requestId) => this.approveShutdown(requestId),
      onShutdownRejected: () => this.noteRejection(),
      plan
    })
    const asking = parts.prompter
    this.prompter = {
      prompt: async (request, signal) => {
        this.state('awaiting_permission')
        this.waitingForAnswer(true)
        try {
          return await asking.prompt(request, signal)
        } finally {
          this.waitingForAnswer(false)
          this.state('running')
        }
      }
    }
    this.self = this.parentOfSubagents()
    this.mcp = new TeammateMcp(parts.mcp)
  }

  /** Aborts the current run (not the teammate): a shutdown request came while it waited for an answer. */
  private runAbort: AbortController | undefined
  /** The current run's signal: the teammate's own, or that abort. */
  private runSignal: AbortSignal | undefined
  /** Answers it waits for now (parallel calls may wait at once), and the inbox watch while there is one. */
  private waits = 0
  private shutdownWatch: { dispose(): void } | undefined

  /**
   * Counts the answers the teammate waits for in the middle of a turn; while it waits, a shutdown
   * request from the leader ends the run (see interruptOnShutdownRequest) and the idle loop answers it.
   */
  private waitingForAnswer(waiting: boolean): void {
    this.waits += waiting ? 1 : -1
    if (this.waits > 0 && !this.shutdownWatch) {
      const { mailbox, team, identity, leader } = this.parts
      const run = this.runAbort
      this.shutdownWatch = interruptOnShutdownRequest({
        mailbox,
        team,
        name: identity.name,
        leader,
        interrupt: () => run?.abort()
      })
    } else if (this.waits <= 0) {
      this.waits = 0
      this.shutdownWatch?.dispose()
      this.shutdownWatch = undefined
    }
  }

  /** The teammate as the parent of its subagents: depth 0 (a top-level agent of the team); the teammate's stop signal stops them. */
  private parentOfSubagents(): ParentAgent {
    const { identity } = this.parts
    return {
      agentId: identity.id,
      agentName: identity.name,
      depth: 0,
      cwd: identity.cwd,
      model: this.parts.model,
      mode: () => this.parts.mode(),
      // a subagent is not a member of the team: it reports through its final text, never with the team tools
      tools: () => this.tools.filter((t) => !MEMBER_ONLY_TOOLS.includes(t.name)),
      fileState: this.fileState,
      turnSignal: () => this.runSignal ?? this.parts.signal,
      enqueue: (text) => this.queued.push(text),
      isAsync: false,
      isFork: false,
      forkSource: () => ({ system: this.system, messages: this.messages })
    }
  }

  /** The permission prompter, reporting `awaiting_permission` while a question is open (docs/teams.md#teammate-life-cycle). */
  private readonly prompter: PermissionPrompter

  /** The shutdown request the current turn answers, and whether the model approved it with SendMessage. */
  private shutdownAsked: { requestId: string; approved: boolean } | undefined

  /** Emits a liveness state (docs/teams.md#teammate-life-cycle) in the teammate's name. */
  state(state: 'running' | 'idle' | 'awaiting_permission' | 'awaiting_plan_approval' | 'stopping' | 'exited'): void {
    const { bus, identity } = this.parts
    bus.emit({ type: 'agent_state', state, agentId: identity.id, agentName: identity.name })
  }

  /** Why the last turn's model call failed, while the teammate is in `error` (its idle notification carries it). */
  private failure: string | undefined

  async start(shared?: ProjectContext): Promise<void> {
    const { identity, team, leader, model } = this.parts
    const context = shared ?? (await readProjectContext(identity.cwd))
    this.system = await renderSystemPrompt({
      cwd: identity.cwd,
      model,
      context,
      rolePrompt: teammateRolePrompt({ team, name: identity.name, leader })
    })
    const { subagents, definition } = await createTeammateSubagents(this.parts, this.prompter, context, this.mcp.agents)
    this.subagents = subagents
    // after its own tools, so the prefix of the tool list is the same for every teammate
    const mcp = await this.mcp.open(definition)
    this.ownTools = this.tools.length
    this.tools = [...this.tools, ...mcp.tools]
    for (const message of mcp.warnings)
      this.parts.bus.emit({ type: 'notice', level: 'warning', message, agentId: identity.id, agentName: identity.name })
  }

  /** The teammate as the parent of its subagents (see {@link parentOfSubagents}). */
  private readonly self: ParentAgent

  /** Stops the MCP servers its subagents' definitions started (the teammate ends); none starts again. */
  async closeSubagentMcp(): Promise<void> {
    await this.mcp.agents.closeAll()
  }

  /**
   * Runs one user turn to its end (again while a TeammateIdle hook keeps it working), then tells
   * the leader it is idle. A model error ends the turn, not the teammate. `started` runs once the
   * turn is visibly under way (state `running`, the prompt in the transcript) and before the model
   * is asked: the runner marks the turn's messages read there, so the leader never sees them read
   * by a teammate that does not look busy (docs/scenarios.md#scripted-model-scenarios: a headless run ends only when nothing is in flight).
   */
  async turn(text: string | readonly string[], taskId?: string, started?: () => Promise<unknown>): Promise<TurnEnd> {
    let end = await this.run(text, started)
    for (let kept = 0; end.reason === 'completed' && this.parts.idleHook && kept < MAX_IDLE_HOOK_BLOCKS; kept++) {
      const reason = await this.parts.idleHook()
      if (reason === undefined) break
      end = await this.run(`A TeammateIdle hook keeps you working:\n${reason}`)
    }
    // an interrupted turn ends like any other (the leader hears it is idle); a stopped teammate says nothing more
    if (end.reason !== 'aborted' || !this.parts.signal.aborted) await notifyIdle(this.parts, end, taskId, this.failure)
    return end
  }

  /**
   * Stops the turn running now, as Esc does in Claude Code: its model stream and tools are
   * aborted, its pane says it was interrupted, and the teammate goes idle (the leader is told,
   * `idleReason: "interrupted"`) and takes the next message. The teammate itself keeps running.
   * @returns false when no turn is running.
   */
  interrupt(): boolean {
    if (!this.runAbort) return false
    this.interruptedByPerson = true
    this.runAbort.abort()
    return true
  }

  /** The current run was stopped by {@link interrupt} (not by a shutdown request): its pane says so. */
  private interruptedByPerson = false

  /**
   * The turn a leader's `shutdown_request` starts (docs/teams.md#teammate-life-cycle: the teammate approves or rejects
   * with a reason). The model sees the request rendered as a `<teammate-message>`; a
   * `shutdown_response` rejecting it goes to the leader at once (SendMessage) and the teammate
   * keeps working, idle afterwards; anything else — an approval, no answer, a model error — is
   * an approval, which the caller carries out (tasks released, inactive, then `shutdown_approved`).
   * No TeammateIdle hook runs: a shutdown request wins over a hook (docs/hooks.md#hooks).
   * @returns `approve`, `reject`, or `aborted` when the teammate was stopped during the turn.
   */
  async shutdownTurn(text: string, requestId: string): Promise<'approve' | 'reject' | 'aborted'> {
    this.shutdownAsked = { requestId, approved: false }
    const rejectedBefore = this.rejectedShutdowns
    try {
      const end = await this.run(text)
      if (end.reason === 'aborted') return 'aborted'
      if (this.shutdownAsked.approved || this.rejectedShutdowns === rejectedBefore) return 'approve'
      await notifyIdle(this.parts, end, undefined, this.failure)
      return 'reject'
    } finally {
      this.shutdownAsked = undefined
    }
  }

  /** Rejections the model sent with SendMessage (counted by its SendMessage tool). */
  private rejectedShutdowns = 0

  /**
   * A `shutdown_response` approving: recorded, carried out when the turn ends.
   * @throws ToolError when no shutdown request is waiting for an answer.
   */
  private approveShutdown(requestId: string): string {
    const asked = this.shutdownAsked
    if (!asked)
      throw new ToolError(
        `No shutdown was requested of you (request_id ${requestId}): there is nothing to approve. Keep working, or tell ${this.parts.leader} what you need with SendMessage.`
      )
    asked.approved = true
    return `Shutdown approved (request_id: ${asked.requestId}). You leave the team when this turn ends: your unfinished tasks go back to the list and ${this.parts.leader} is told. Start no new work.`
  }

  /** Counts a rejection the model sent, so {@link shutdownTurn} knows the teammate keeps working. */
  private noteRejection(): void {
    if (this.shutdownAsked) this.rejectedShutdowns++
  }

  /**
   * One run of the agent loop on a new user message: `text`, or several texts (a batch of mailbox
   * messages), each its own text block so a burst can be compacted message by message.
   */
  private async run(text: string | readonly string[], started?: () => Promise<unknown>): Promise<TurnEnd> {
    const { identity, bus } = this.parts
    const repair = this.pendingRepair
    // a batch that renders to nothing still opens a turn, as one empty text did before
    const texts = typeof text === 'string' ? [text] : text.length > 0 ? text : ['']
    const shells = createBackgroundShells(this.parts.pty)
    const runAbort = new AbortController()
    this.runAbort = runAbort
    this.interruptedByPerson = false
    this.runSignal = AbortSignal.any([this.parts.signal, runAbort.signal])
    let end: TurnEnd
    try {
      end = await runAgentTurn({
        opening: openingMessage(repair, texts),
        onOpened: () => {
          this.pendingRepair = undefined
        },
        ...(started ? { onStarted: started } : {}),
        controller: runAbort,
        signal: this.parts.signal,
        interruption: () =>
          this.interruptedByPerson && !this.parts.signal.aborted ? interruptedNote(identity.name) : undefined,
        bus,
        transcript: this.transcript,
        query: {
          agent: identity,
          model: this.parts.model,
          system: this.system,
          tools: this.tools,
          messages: this.messages,
          transcriptPath: this.transcript.path,
          client: this.parts.client.client,
          toolContext: {
            agentId: identity.id,
            agentName: identity.name,
            cwd: identity.cwd,
            fileState: this.fileState,
            pty: this.parts.pty,
            shells,
            ...toolSandbox(this.parts.engine.settings, this.parts.teamContext.sessionId, identity.cwd, {
              agentId: identity.id,
              agentName: identity.name,
              ask: this.parts.networkAsker ?? recordedNetworkAsker(this.prompter, this.parts.bus, () => undefined)
            }),
            ...(this.subagents ? { services: { subagents: this.subagents, self: this.self } } : {})
          },
          drainPending: () => this.queued.splice(0),
          // a session server's new list, from the next model request on (docs/tools.md#mcp-servers)
          refreshTools: async () => {
            const fresh = await this.mcp.refresh()
            return fresh && (this.tools = [...this.tools.slice(0, this.ownTools), ...fresh])
          },
          gate: createPermissionGate({
            agentId: identity.id,
            agentName: identity.name,
            cwd: identity.cwd,
            mode: this.parts.mode,
            engine: this.parts.engine,
            prompter: this.prompter,
            sessionAllowRules: this.sessionAllowRules,
            record: () => undefined
          })
        }
      })
    } finally {
      this.runAbort = undefined
      this.runSignal = undefined
      await shells.killAll()
    }
    // a failed turn leaves it in `error` (the runner says why) until the next message starts another,
    // led by the results of the calls the failed turn left unanswered (runner/turn.ts)
    if (end.reason === 'failed' && end.repair) this.pendingRepair = [...(this.pendingRepair ?? []), ...end.repair]
    this.failure = turnFailure(end)
    return end
  }
}
