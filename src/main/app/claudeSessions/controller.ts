import { existsSync, statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import type { AgentState, RuntimeEventInput } from '../../../shared/events'
import { CLAUDE_CODE_AGENT_TYPE } from '../../../shared/ipc'
import type { TerminalSize } from '../../../shared/terminalSize'
import type { InteractivePty, PtyOpenOptions } from '../../runtime/pty'
import { findClaude } from './binary'
import { claudeConfigDir, readSessionRecord, stateOfStatus } from './record'
import { readSavedSessions, savedSessionsPath, writeSavedSessions, type SavedClaudeSession } from './saved'

/** How often a session's `sessions/<pid>.json` is read for its status, ms. */
export const STATUS_POLL_MS = 250

/** The agent type of a Claude Code session's dashboard row and pane. */
export const CLAUDE_AGENT_TYPE = CLAUDE_CODE_AGENT_TYPE

/** A request the sessions refuse (bad folder, no claude); the message says what to do. */
export class ClaudeSessionError extends Error {
  override readonly name = 'ClaudeSessionError'
}

/** What {@link ClaudeSessions} needs of the workspace. */
export interface ClaudeSessionsOptions {
  /** Starts an interactive program in a terminal of the PTY host. */
  open(options: PtyOpenOptions): InteractivePty
  /** The service's bus: the sessions' events are projected, rendered into panes and pushed. */
  emit(event: RuntimeEventInput): void
  /** The workspace root (new sessions start there unless told otherwise). */
  cwd: string
  /** The data folder (`claude-sessions.json`, docs/claude-code.md#restore). */
  home: string
  /** The environment `claude` runs with (the person's: PATH, HOME, CLAUDE_CONFIG_DIR, their credentials). */
  env: NodeJS.ProcessEnv
  /** The configured `claude` (`--claude-path`); undefined: the one on PATH. */
  claudePath?: () => string | undefined
  /** The size a pane last reported, to start its terminal at. */
  paneSize(agentId: string): TerminalSize | undefined
}

interface LiveSession {
  paneId: string
  cwd: string
  pty: InteractivePty
  sessionId?: string
  state: AgentState
  timer: ReturnType<typeof setInterval>
  reading: boolean
  warned: boolean
}

/**
 * The person's own Claude Code sessions in panes (docs/claude-code.md#sessions-in-panes): each is
 * `claude` run interactively in a terminal of the PTY host — every key typed in its pane goes to
 * it — with its dashboard state read from what Claude Code records in `sessions/<pid>.json`.
 * The open sessions are saved in `claude-sessions.json`; {@link restore} reopens them with
 * `claude --resume <id>` after a restart. Events: `agent_started` (backend `process`, type
 * `claude-code`), `terminal_output`, `agent_state`, a `notice` when one waits for the person, and
 * `agent_stopped` when `claude` exits.
 */
export class ClaudeSessions {
  private readonly live = new Map<string, LiveSession>()
  private readonly savedPath: string
  private next = 1
  private closing = false

  constructor(private readonly options: ClaudeSessionsOptions) {
    this.savedPath = savedSessionsPath(options.home, options.cwd)
  }

  /** Whether `agentId` is one of these sessions' panes. */
  has(agentId: string): boolean {
    return this.live.has(agentId)
  }

  /**
   * Starts `claude` in a new pane, in `cwd` (absolute, or relative to the workspace; default the
   * workspace root), resuming Claude Code session `resumeSessionId` when given.
   * @returns the pane's agent id.
   * @throws ClaudeSessionError for a folder that does not exist, ClaudeNotFoundError when no claude can be found.
   */
  start(options: { cwd?: string; resumeSessionId?: string; paneId?: string } = {}): string {
    const cwd = options.cwd
      ? isAbsolute(options.cwd)
        ? options.cwd
        : resolve(this.options.cwd, options.cwd)
      : this.options.cwd
    if (!existsSync(cwd) || !statSync(cwd).isDirectory())
      throw new ClaudeSessionError(`Cannot start Claude Code in ${cwd}: no such folder. Give an existing folder.`)
    const bin = findClaude(this.options.claudePath?.(), this.options.env)
    const paneId = options.paneId ?? this.freshId()
    const size = this.options.paneSize(paneId)
    const name = `Claude Code ${paneId.slice('claude-'.length)}`
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries(this.options.env)) if (value !== undefined) env[key] = value
    env.TERM = 'xterm-256color'
    const args = options.resumeSessionId ? ['--resume', options.resumeSessionId] : []
    this.options.emit({
      type: 'agent_started',
      agentId: paneId,
      agentName: name,
      agentType: CLAUDE_AGENT_TYPE,
      backend: 'process',
      depth: 0,
      cwd
    })
    let pty: InteractivePty
    try {
      pty = this.options.open({
        file: bin,
        args,
        cwd,
        env,
        ...(size ? { cols: size.cols, rows: size.rows } : {}),
        onData: (data) => this.options.emit({ type: 'terminal_output', agentId: paneId, agentName: name, data }),
        onExit: (exit) => this.ended(paneId, name, exit)
      })
    } catch (error) {
      const reason = `${bin} could not be started: ${(error as Error).message}`
      this.options.emit({ type: 'agent_stopped', status: 'failed', reason, agentId: paneId, agentName: name })
      throw new ClaudeSessionError(reason)
    }
    const session: LiveSession = {
      paneId,
      cwd,
      pty,
      ...(options.resumeSessionId ? { sessionId: options.resumeSessionId } : {}),
      state: 'starting',
      reading: false,
      warned: false,
      timer: setInterval(() => void this.poll(session, name), STATUS_POLL_MS)
    }
    this.live.set(paneId, session)
    this.save()
    return paneId
  }

  /**
   * Reopens the sessions the workspace had open when it closed, each with `claude --resume <id>`
   * (one that never got a session id starts fresh in its folder).
   * @returns warnings for a list that does not parse or a session that could not start.
   */
  restore(): string[] {
    const { sessions, warning } = readSavedSessions(this.savedPath)
    const warnings = warning ? [warning] : []
    for (const saved of sessions) {
      try {
        this.start({
          cwd: saved.cwd,
          paneId: saved.paneId,
          ...(saved.sessionId ? { resumeSessionId: saved.sessionId } : {})
        })
      } catch (error) {
        warnings.push(`Claude Code session ${saved.paneId} could not be reopened: ${(error as Error).message}`)
      }
    }
    return warnings
  }

  /** Keys typed in a session's pane. @returns false when `agentId` is not a live session. */
  input(agentId: string, data: string): boolean {
    const session = this.live.get(agentId)
    if (!session) return false
    session.pty.write(data)
    return true
  }

  /** Resizes a session's terminal to its pane. @returns false when `agentId` is not a live session. */
  resize(agentId: string, size: TerminalSize): boolean {
    const session = this.live.get(agentId)
    if (!session) return false
    session.pty.resize(size.cols, size.rows)
    return true
  }

  /** The Claude Code session id each live pane runs, once its session file named it. */
  sessionIds(): Record<string, string | undefined> {
    return Object.fromEntries([...this.live].map(([id, s]) => [id, s.sessionId]))
  }

  /** Ends one session (its whole process group) and forgets it: it is not reopened at the next start. */
  async stop(agentId: string): Promise<boolean> {
    const session = this.live.get(agentId)
    if (!session) return false
    await session.pty.kill()
    return true
  }

  /**
   * Kills every session for a workspace that closes, keeping the saved list as it stands, so the
   * next start reopens them.
   */
  async dispose(): Promise<void> {
    this.closing = true
    this.save()
    await Promise.all([...this.live.values()].map((s) => s.pty.kill()))
  }

  private freshId(): string {
    const taken = new Set([...this.live.keys(), ...readSavedSessions(this.savedPath).sessions.map((s) => s.paneId)])
    while (taken.has(`claude-${this.next}`)) this.next++
    return `claude-${this.next++}`
  }

  private save(): void {
    const sessions: SavedClaudeSession[] = [...this.live.values()].map((s) => ({
      paneId: s.paneId,
      cwd: s.cwd,
      ...(s.sessionId ? { sessionId: s.sessionId } : {})
    }))
    writeSavedSessions(this.savedPath, sessions)
  }

  private async poll(session: LiveSession, name: string): Promise<void> {
    if (session.reading) return
    session.reading = true
    try {
      const read = await readSessionRecord(claudeConfigDir(this.options.env), session.pty.pid)
      if (!this.live.has(session.paneId)) return
      if ('invalid' in read) {
        if (!session.warned)
          this.options.emit({
            type: 'notice',
            level: 'warning',
            message: `Claude Code's session file does not parse, so ${name}'s state is not shown: ${read.invalid}`,
            agentId: session.paneId,
            agentName: name
          })
        session.warned = true
        return
      }
      if ('missing' in read) return
      const { record } = read
      if (record.sessionId !== session.sessionId) {
        session.sessionId = record.sessionId
        this.save()
      }
      const state = stateOfStatus(record.status)
      if (!state || state === session.state) return
      session.state = state
      this.options.emit({ type: 'agent_state', state, agentId: session.paneId, agentName: name })
      if (state === 'awaiting_permission')
        this.options.emit({
          type: 'notice',
          level: 'warning',
          message: `${name} waits for you${record.waitingFor ? `: ${record.waitingFor}` : ''}.`,
          agentId: session.paneId,
          agentName: name
        })
    } finally {
      session.reading = false
    }
  }

  private ended(paneId: string, name: string, exit: { exitCode: number | null; signal: number | null }): void {
    const session = this.live.get(paneId)
    if (!session) return
    clearInterval(session.timer)
    if (this.closing) return
    this.live.delete(paneId)
    this.save()
    this.options.emit({
      type: 'agent_stopped',
      status: exit.signal ? 'killed' : 'exited',
      ...(exit.signal
        ? { reason: `signal ${exit.signal}` }
        : exit.exitCode
          ? { reason: `exit code ${exit.exitCode}` }
          : {}),
      agentId: paneId,
      agentName: name
    })
  }
}
