import type { AgentState } from '../../../shared/events'
import type { PermissionMode } from '../../../shared/permissions'
import type { OutgoingMessage } from '../mailbox'
import type { TeamStorePort } from '../teamStore'
import type { TeammateHost } from '../../../shared/teammateHosts'

/** Where a teammate runs (docs/design.md#process-model, docs/teams.md#spawning-a-teammate). `auto` in settings means `worker`. */
export type TeammateBackend = 'worker' | 'process'

/**
 * Everything a backend needs to start one teammate (docs/design.md#process-model, docs/teams.md#spawning-a-teammate). The member is already in the
 * team config (`<home>/teams/{team}/config.json`) and its initial prompt already in its inbox,
 * so both backends start the same way: run the idle loop of `runTeammate`, which reads it.
 */
export interface TeammateSpawnConfig {
  /** Swarmdesk's data directory (docs/storage.md#layout). */
  home: string
  team: string
  /** Member name (`alice`); the agent id is `alice@team`. */
  name: string
  /** `name@team`. */
  agentId: string
  /** Working directory, absolute (the workspace, or its worktree). */
  cwd: string
  color: string
  /** Resolved model id. */
  model: string
  /** The permission mode it starts in (`plan` when plan approval is required). */
  mode: PermissionMode
  planModeRequired: boolean
  /** The leader's session id (transcripts go under it). */
  sessionId: string
  /** The leader's agent id (`team-lead@team`). */
  leaderAgentId: string
  /**
   * Model access and other variables the teammate inherits: ANTHROPIC_API_KEY / AUTH_TOKEN /
   * BASE_URL, SWARMDESK_MODEL. A worker reads them from here, a process gets them in its env.
   */
  env: Record<string, string>
  /**
   * Told when the teammate starts a turn (a message, a task or a hook's reason reached its model),
   * by a backend whose teammate cannot report its own states: the `process` backend calls it when
   * the teammate's transcript shows the turn's prompt, with that line's time (ISO, the teammate's
   * clock: comparable with the timestamps of the messages it sends). A `worker` reports
   * `agent_state` itself.
   */
  onTurnStart?: (at: string) => void
  /**
   * Told each `agent_state` the teammate reports of itself, by a backend that relays its bus (the
   * `process` backend on a server store, docs/nats.md#a-teammates-events), instead of emitting it:
   * the supervisor puts it on the leader's stream once, in order with its own (`starting`,
   * `stopping`, `exited`). Absent: the backend emits it as any other event.
   */
  onState?: (state: AgentState, reason: string | undefined) => void
  /**
   * The leader's team store (docs/nats.md#the-team-store), for what the leader's side of the
   * backend reads and writes of the team (a message to the teammate, its last report, its member
   * record); default the files of `home`. The teammate itself opens its own, from the transport
   * in `env` (`transportEnv`): a process is elsewhere, and a worker thread cannot share a connection.
   */
  store?: TeamStorePort
  /**
   * The host it runs on over SSH (docs/hosts.md), from the `teammateHosts` setting; absent: here.
   * Only the `process` backend takes one, and only with a JetStream `store`.
   */
  host?: TeammateHost
}

/** How a teammate's run ended, as the leader's side saw it. */
export interface TeammateExitInfo {
  /**
   * `exited`: it ended by itself (an approved shutdown, or a stop). `crashed`: an error, a hang
   * past the heartbeat, out of memory, `process.exit`, an unexpected exit code or signal.
   * `killed`: {@link TeammateExecutor.kill} ended it.
   */
  status: 'exited' | 'crashed' | 'killed'
  /**
   * True when the teammate itself released its tasks, marked itself inactive and told the leader
   * before it ended (its runner's cleanup ran: an approved shutdown, a stop, or an error its loop
   * caught). False when it died without that: the leader's side does the cleanup (docs/teams.md#teammate-life-cycle).
   */
  reported: boolean
  /** For a person: what happened (`heartbeat lost for 3 s`, `exit code 1`, the error message). */
  reason?: string
}

/** A started teammate. */
export interface TeammateHandle {
  readonly agentId: string
  readonly backend: TeammateBackend
  /** Pid of the teammate's process (process backend), or of this process (worker backend). */
  readonly pid: number
  /** Resolves once, when the teammate is gone for good, however it ended. Never rejects. */
  readonly exited: Promise<TeammateExitInfo>
}

/**
 * One teammate backend (docs/design.md#process-model, docs/teams.md#spawning-a-teammate; Claude Code's TeammateExecutor). Both backends talk to
 * the team through its files (mailbox, task list, team config), so messages are sent the same way;
 * they differ in where the agent loop runs and how its events and permission requests reach the
 * leader.
 */
export interface TeammateExecutor {
  readonly backend: TeammateBackend
  /**
   * Starts a teammate. Resolves once it is running (its loop is about to read its inbox).
   * @throws Error when it cannot start (the entry file is missing, the pty cannot spawn); nothing
   *   is left running then.
   */
  spawn(config: TeammateSpawnConfig): Promise<TeammateHandle>
  /** Delivers a message to a teammate's inbox (docs/teams.md#mailbox); wakes it if idle. */
  sendMessage(agentId: string, message: OutgoingMessage): Promise<void>
  /**
   * Ends a teammate at once, without a shutdown request, and waits until it is verifiably gone
   * (worker terminated; process group dead). Idempotent; resolves for an unknown id.
   */
  kill(agentId: string, reason?: string): Promise<void>
  /**
   * Interrupts the teammate's current turn (Esc in its pane): its loop stops the model stream and
   * the running tools, and the teammate goes idle as after any turn. A worker hears it as a port
   * message; a process as SIGUSR2 (SIGINT and SIGTERM end it).
   * @returns true when a running teammate was told; false for an unknown or ended one.
   */
  interrupt(agentId: string): boolean
  /** True while the teammate runs. */
  isAlive(agentId: string): boolean
  /** Kills every teammate this executor started. */
  dispose(): Promise<void>
  /**
   * Optional: prepares for spawns to come (a team was created), e.g. a spare worker with the
   * bundle loaded. Returns at once; never throws.
   */
  prewarm?(): void
  /** Optional: undoes {@link prewarm} (the team was deleted); resolves once whatever it started is gone. */
  releaseSpare?(): Promise<void>
  /**
   * Optional: resizes a running teammate's terminal to `cols` × `rows` character cells (its pane
   * changed size, docs/ui.md#the-workspace-ui). Only a backend whose teammate runs in a terminal has it (`process`);
   * a worker's loop has none.
   * @returns true when a running teammate's terminal was resized; false for an unknown or ended one.
   * @throws PtySizeError (src/main/runtime/pty) for a size outside src/shared/terminalSize.ts's bounds.
   */
  resize?(agentId: string, cols: number, rows: number): boolean
  /**
   * Optional: brings the leader's side up to date with a running teammate at once, for a backend
   * that learns of it with a delay (`process`: the transcript lines it wrote are read now, their
   * events emitted and {@link TeammateSpawnConfig.onTurnStart} called, before this returns).
   * A no-op for an unknown or ended teammate.
   */
  sync?(agentId: string): void
}

/** The executors a session can spawn with, by backend (docs/teams.md#spawning-a-teammate: per call, else the setting). */
export class TeammateExecutorRegistry {
  private readonly executors = new Map<TeammateBackend, TeammateExecutor>()

  register(executor: TeammateExecutor): void {
    this.executors.set(executor.backend, executor)
  }

  /** @throws Error naming the registered backends when `backend` has none. */
  get(backend: TeammateBackend): TeammateExecutor {
    const executor = this.executors.get(backend)
    if (!executor)
      throw new Error(
        `No '${backend}' teammate backend here; available: ${[...this.executors.keys()].join(', ') || 'none'}.`
      )
    return executor
  }

  has(backend: TeammateBackend): boolean {
    return this.executors.has(backend)
  }

  /** Lets `backend`'s executor prepare for spawns (see {@link TeammateExecutor.prewarm}); a no-op for a backend without one. */
  prewarm(backend: TeammateBackend): void {
    this.executors.get(backend)?.prewarm?.()
  }

  /** Releases what every executor prepared ahead of spawns (see {@link TeammateExecutor.releaseSpare}). */
  async releaseSpares(): Promise<void> {
    await Promise.all([...this.executors.values()].map((e) => e.releaseSpare?.()))
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.executors.values()].map((e) => e.dispose()))
  }
}
