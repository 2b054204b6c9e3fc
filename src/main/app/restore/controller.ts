import { existsSync } from 'node:fs'
import type { RuntimeEvent, RuntimeEventInput } from '../../../shared/events'
import type { AgentView, SessionListEntry } from '../../../shared/ipc'
import type { Disposable } from '../../runtime/base'
import { LEADER_NAME, Session } from '../../runtime/session'
import { leaderTranscriptPath } from '../../runtime/storage'
import type { PaneTerminals } from '../panes'
import { WorkspaceStateRecorder } from './recorder'
import { listWorkspaceSessions, otherOwner } from './sessions'
import { INTERRUPTED_PANE_LINE, planRestore, restoredAgents, type RestorePlan } from './startup'
import { readWorkspaceState, restorePaths, type WorkspaceState } from './stateFile'
import { readTodoList } from './todos'

/** Passed to the service's `run` to continue the leader's interrupted turn instead of a new prompt. */
export const RESUME_TURN: unique symbol = Symbol('resume the interrupted turn')

/** Level of the notices restore problems make (an unreadable restore file: the workspace opens without it). */
export const RESTORE_NOTICE_LEVEL = 'warning' as const

/** What a session id looks like: a folder name (Session.open makes UUIDs), no separator, no `..`. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/

/** A request the restore controller refuses; the service turns it into the request's error. */
export class RestoreError extends Error {
  override readonly name = 'RestoreError'
}

/** What the controller reaches of the workspace service (service.ts `restoreHost`). */
export interface RestoreHost {
  session(): Session
  /** The agents as the UI sees them, by id (the service's own map). */
  readonly agents: Map<string, AgentView>
  readonly panes: PaneTerminals
  /** Hands every pane's batched output to its terminal now (before the panes are saved). */
  flushPanes(): void
  /** Queues pane output as any agent output is. */
  writePane(agentId: string, text: string): void
  /** Emits on the service's bus (stamped, tracked, pushed, rendered). */
  emit(event: RuntimeEventInput): void
  onEvent(listener: (event: RuntimeEvent) => void): Disposable
  livePids(): number[]
  /** The leader works on a prompt. */
  busy(): boolean
  /** Starts the leader's turn from its transcript (Session.resumeTurn) as a prompt would start. */
  resumeLeader(): void
  /** Resumes a teammate or subagent of the current session from its transcript. @throws RestoreError when it cannot be. */
  resumeMember(agent: AgentView): Promise<void>
  /** Forgets the ended session's agents, activity and panes, every pane but the leader's (before the next session opens). */
  forgetSession(): void
  /** Puts `session` in place of the ended one: its leader idle, its team's mailbox followed. */
  adoptSession(session: Session): void
}

/** What the controller needs to save and reopen sessions of one workspace. */
export interface RestoreContext {
  home: string
  /** The workspace root, canonical. */
  cwd: string
  /** This run's tag in its PTYs' environment (stateFile.ts `RUN_TAG_VARIABLE`). */
  runTag: string
  /** How the current session was opened: a new session opens the same way, without a resume id. */
  openOptions: Parameters<typeof Session.open>[0]
}

/**
 * Restore after restart (issue 8): the workspace service's part that saves the session as it
 * changes (WorkspaceStateRecorder), reopens it at start (panes refilled, agents that were working
 * shown `interrupted`), resumes an interrupted agent on a person's request, and swaps in a new,
 * empty session when a person asks for one. Both hosts (the app and `swarmdesk serve`) get it,
 * since it lives in the runtime.
 */
export class RestoreController {
  private recorder: WorkspaceStateRecorder | undefined
  private subscriptions: Disposable[] = []
  private closed = false
  /** What each refilled pane got after its restored output (PaneTerminals.restore), for the pane journal once recording starts. */
  private readonly restoredEnds = new Map<string, string>()

  constructor(
    private readonly host: RestoreHost,
    private readonly context: RestoreContext
  ) {}

  /** Refills the panes from the saved scrollback; called before any event reaches a pane, so the old output comes first. */
  refillPanes(plan: RestorePlan): void {
    for (const [agentId, data] of Object.entries(plan.panes)) {
      const end = this.host.panes.restore(agentId, data)
      if (end !== '') this.restoredEnds.set(agentId, end)
    }
  }

  /**
   * Shows the reopened session's agents as they were (working ones `interrupted`, each pane told
   * so), says what was cleaned up, and starts saving the session.
   */
  reopen(plan: RestorePlan): void {
    if (plan.cleanup.killed.length > 0)
      this.notice(
        'info',
        `Stopped ${plan.cleanup.killed.length} process(es) the previous run left running (pids ${plan.cleanup.killed.join(', ')}).`
      )
    for (const agent of restoredAgents(plan.previous?.agents ?? [], LEADER_NAME)) {
      this.restoreTodos(agent)
      const live = this.host.agents.get(agent.agentId)
      this.host.agents.set(agent.agentId, live ? { ...agent, model: live.model ?? agent.model } : agent)
      if (agent.state !== 'interrupted') continue
      this.host.writePane(agent.agentId, INTERRUPTED_PANE_LINE)
      this.host.emit({ type: 'agent_state', state: 'interrupted', agentId: agent.agentId, agentName: agent.agentName })
    }
    this.record()
  }

  /**
   * Resumes an agent shown `interrupted` from its transcript.
   * @throws RestoreError for an unknown agent, one that is not interrupted, or a busy leader.
   */
  async resume(agentId: string): Promise<{ ok: true }> {
    const agent = this.host.agents.get(agentId)
    if (!agent) throw new RestoreError(`No agent '${agentId}' in this workspace.`)
    if (agent.state !== 'interrupted')
      throw new RestoreError(
        `${agent.agentName} is ${agent.state}, not interrupted: only an agent the last run left mid-work can be resumed.`
      )
    this.notice('info', `Resuming ${agent.agentName} from its transcript.`)
    if (agentId === LEADER_NAME) {
      if (this.host.busy()) throw new RestoreError('The leader is already working.')
      this.host.resumeLeader()
    } else {
      await this.host.resumeMember(agent)
    }
    return { ok: true }
  }

  /**
   * Ends the current session (its agents stopped, its files kept) and opens a new, empty one; the
   * next start reopens the new one.
   * @throws RestoreError while the leader works (stop it first).
   */
  async newSession(): Promise<{ sessionId: string }> {
    if (this.host.busy()) throw new RestoreError('The leader is working: stop it before starting a new session.')
    await this.stopRecording()
    await this.host.session().close('completed', 'a person started a new session')
    this.host.forgetSession()
    const session = await Session.open({ ...this.context.openOptions, resumeSessionId: undefined })
    this.host.adoptSession(session)
    this.notice(
      'info',
      `New session ${session.sessionId}. The previous one stays on disk: the Sessions menu reopens it.`
    )
    this.record()
    return { sessionId: session.sessionId }
  }

  /** This workspace's sessions for the Sessions menu, most recently active first, the open one marked (sessions.ts). */
  sessions(): { sessions: SessionListEntry[] } {
    const session = this.host.session()
    return {
      sessions: listWorkspaceSessions(this.context.home, this.context.cwd, session.sessionId, session.team?.team())
    }
  }

  /**
   * Ends the current session as {@link newSession} does and reopens `sessionId`, an earlier session
   * of this workspace, as a start reopens its last one: the leader from its transcript, the panes
   * refilled with their saved output, its team followed again, agents that were working (and
   * teammates, whose threads and processes ended with the session) shown `interrupted` with Resume.
   * The next start reopens it.
   * @throws RestoreError while the leader works, for the session already open, for a session this
   *   workspace does not have, or one another live Swarmdesk process has open (two writers would
   *   interleave its transcript). Checked before anything is closed: a refusal changes nothing.
   */
  async openSession(sessionId: string): Promise<{ sessionId: string }> {
    const { home, cwd } = this.context
    if (this.host.busy()) throw new RestoreError('The leader is working: stop it before opening another session.')
    if (sessionId === this.host.session().sessionId)
      throw new RestoreError(`Session ${sessionId} is the one open here already.`)
    // an id is one folder name under the workspace's store, never a path out of it
    if (!SESSION_ID.test(sessionId) || !existsSync(leaderTranscriptPath(home, cwd, sessionId)))
      throw new RestoreError(
        `No session ${sessionId} in this workspace (${cwd}): pick one from the Sessions menu, or list them with swarmdesk sessions list --cwd ${cwd}.`
      )
    let saved: WorkspaceState | undefined
    try {
      saved = readWorkspaceState(restorePaths(home, cwd, sessionId))
    } catch {
      // an unreadable workspace.json: the plan below warns of it and the session opens without it
    }
    const owner = otherOwner(saved)
    if (owner !== undefined)
      throw new RestoreError(
        `Session ${sessionId} is open in another Swarmdesk process (pid ${owner}): close it there first.`
      )
    await this.stopRecording()
    await this.host.session().close('completed', 'a person opened another session')
    this.host.forgetSession()
    const plan = await planRestore({ home, cwd, choice: 'restore', resumeSessionId: sessionId })
    let session: Session
    try {
      session = await Session.open({ ...this.context.openOptions, resumeSessionId: sessionId })
    } catch (error) {
      // the current session is closed already: the workspace goes on with a new, empty one rather than none
      this.host.adoptSession(await Session.open({ ...this.context.openOptions, resumeSessionId: undefined }))
      this.record()
      throw new RestoreError(
        `Session ${sessionId} could not be reopened (${(error as Error).message}); a new session is open instead.`
      )
    }
    this.host.adoptSession(session)
    // the leader's pane was cleared for the new session: that clear goes out before its saved output
    this.host.flushPanes()
    this.refillPanes(plan)
    for (const message of plan.warnings) this.notice(RESTORE_NOTICE_LEVEL, message)
    this.notice('info', `Reopened session ${sessionId}. The one before stays on disk (the Sessions menu lists it).`)
    this.reopen(plan)
    return { sessionId }
  }

  /** Saves the session as it stands and stops saving (a clean close: a working leader reopens interrupted). */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.stopRecording()
  }

  private record(): void {
    if (this.closed) return
    const session = this.host.session()
    const recorder = new WorkspaceStateRecorder(
      {
        home: this.context.home,
        cwd: this.context.cwd,
        sessionId: session.sessionId,
        paths: restorePaths(this.context.home, this.context.cwd, session.sessionId),
        runTag: this.context.runTag,
        agents: () => [...this.host.agents.values()],
        team: () => session.team?.team(),
        ptyPids: () => this.host.livePids(),
        flushPanes: () => this.host.flushPanes()
      },
      (message) => this.notice('warning', message)
    )
    this.recorder = recorder
    recorder.open()
    this.subscriptions = [
      this.host.onEvent(() => recorder.noteChange()),
      this.host.panes.onDidWrite((agentId, data) => recorder.notePaneOutput(agentId, data))
    ]
    // the journal holds the panes as shown: what ended each restored output comes before the session's own
    for (const [agentId, end] of this.restoredEnds) recorder.notePaneOutput(agentId, end)
    this.restoredEnds.clear()
  }

  private async stopRecording(): Promise<void> {
    const recorder = this.recorder
    this.recorder = undefined
    // flushed while still subscribed: output the pane batcher holds reaches the pane journal
    await recorder?.flush()
    for (const s of this.subscriptions) s.dispose()
    this.subscriptions = []
    recorder?.dispose()
  }

  /** Sets an agent's todo list from its transcript, the list's record (docs/tools.md#todowrite); an unreadable one is a warning. */
  private restoreTodos(agent: AgentView): void {
    delete agent.todos
    const where = { home: this.context.home, cwd: this.context.cwd, sessionId: this.host.session().sessionId }
    try {
      const todos = readTodoList(where, agent.agentId, LEADER_NAME)
      if (todos) agent.todos = todos
    } catch (error) {
      this.notice(RESTORE_NOTICE_LEVEL, `${agent.agentName}'s todo list was not restored: ${(error as Error).message}`)
    }
  }

  private notice(level: 'info' | 'warning', message: string): void {
    this.host.emit({ type: 'notice', level, message, agentId: LEADER_NAME, agentName: LEADER_NAME })
  }
}
