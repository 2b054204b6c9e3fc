import { nodeBundlePath } from '../../install'
import { type PtyHost } from '../../pty'
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import type { ResourceLimits } from 'node:worker_threads'
import type { EventBus } from '../../events'
import { createMailbox, type OutgoingMessage } from '../../mailbox'
import type { PermissionPrompter } from '../../permissions'
import { TeamStore } from '../../teams'

import type { TeammateExecutor, TeammateHandle, TeammateSpawnConfig } from '../executor'
import { TeammateNotFoundError } from '../runOptions'
import { readProjectContext, type ProjectContext } from '../../runner'
import { swarmdeskHome } from '../../storage'
import { codeCacheDirOf, WorkerCodeCache } from './codeCache'
import { StartGate, TeammateThread, type ThreadOptions } from './thread'
import { WorkerTeammate } from './teammate'
import type { SharedMcp } from './mcpServer'

/** Default heartbeat timeout, ms: six missed beats of 500 ms. */
export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 3_000

/**
 * Default V8 heap limits of one worker teammate, MB: the old generation capped at 512 (an idle one
 * needs well under 100); the young generation at 2. V8 keeps both semi-spaces committed and
 * resident after a turn: its default let one streamed model turn grow them to tens of MB, a cap
 * of 8 still left 8 MB in every idle teammate. A small one costs only more, cheaper scavenges
 * (docs/teams.md#worker-teammate-memory).
 */
export const DEFAULT_WORKER_RESOURCE_LIMITS: Readonly<ResourceLimits> = Object.freeze({
  maxOldGenerationSizeMb: 512,
  maxYoungGenerationSizeMb: 2
})

/**
 * How long one read of a directory's project context (git snapshot and instructions) serves the
 * teammates this executor starts there, ms from the read's start: the teammates of one burst of
 * Agent calls share it, as Claude Code's in-process teammates share their session's git status,
 * instead of each running the same git commands while they all start on two cores.
 */
export const PROJECT_CONTEXT_SHARE_MS = 5_000

/** Options of {@link WorkerTeammateExecutor}. */
export interface WorkerTeammateExecutorOptions {
  /** The main bus: every event of every worker teammate is re-emitted here (re-stamped). */
  bus: EventBus
  /** The process's PTY host (main thread): runs every shell command of every worker teammate. Not disposed here. */
  pty: PtyHost
  /** The leader's permission queue (docs/teams.md#permission-requests): worker teammates' questions arrive here tagged with their name. */
  prompter: PermissionPrompter
  /**
   * The worker teammate bundle, absolute path. Default the built bundle
   * (`nodeBundlePath('teammate-worker')`, `out/node/teammate-worker.cjs`). A `.cjs` entry is
   * compiled with the V8 code cache of {@link codeCacheDir}; any other module is `import()`ed
   * (tests pass a `.mjs` wrapper that imports the bundle).
   */
  entry?: string
  /**
   * A module each worker loads before it loads the bundle, absolute path (tests and benchmarks:
   * instrumentation or a fault to inject, with the production load path unchanged): a `.cjs` one is
   * `require`d, any other `import()`ed (which starts the worker's ES module loader). Default none.
   */
  prelude?: string
  /**
   * Where the V8 code cache of the bundle is kept (see {@link WorkerCodeCache}). Default
   * `<SWARMDESK_HOME>/cache/v8`; `false` compiles the bundle from source in every worker.
   */
  codeCacheDir?: string | false
  /**
   * How many new worker threads may be starting at once (loading the bundle, then running their
   * loop up to its first event); further spawns wait their turn, first come first served. Default
   * `os.availableParallelism()`: on 2 cores, 16 teammates loading at once all got ready late
   * (p50 1.5 s) and starved each other's heartbeats, while taking turns gets half of them ready
   * sooner (bench/teammates). A spawn that takes the spare does not wait.
   */
  concurrentStarts?: number
  /** A worker silent for this long (no heartbeat, no message) is hung: it is terminated, ms. Default 3,000. */
  heartbeatTimeoutMs?: number
  /** V8 heap limits of each worker; default {@link DEFAULT_WORKER_RESOURCE_LIMITS} (512 MB old generation). */
  resourceLimits?: ResourceLimits
  /**
   * Keep one spare worker with the bundle loaded, so a spawn skips creating the thread and loading
   * the bundle (see {@link WorkerTeammateExecutor.prewarm}). Default true; false starts every
   * teammate in a new thread (the cold start the benchmark reports beside the warm one).
   */
  warmSpare?: boolean
  /**
   * The session's MCP servers (docs/tools.md#mcp-servers): every worker teammate uses their one
   * shared connection each, over its port, and the servers its definition defines are started
   * and stopped for it here. Absent = the session has none.
   */
  mcp?: SharedMcp
}

/**
 * The worker-thread teammate backend (docs/design.md#process-model, docs/teams.md#agent-teams; Claude Code's in-process teammates, but each in
 * its own worker_thread): one worker per teammate runs `runTeammate` over the team's files; its
 * shell commands run in the main thread's PTY host over the port (node-pty never loads in a worker:
 * the bootstrap stubs it and refuses its native addon), its permission questions go to
 * `prompter` tagged with its name, its events are re-emitted on `bus`.
 *
 * Whatever a worker does — throws, hangs (no heartbeat → `terminate()`), runs out of memory, calls
 * `process.exit` — the main process lives on: `exited` resolves `crashed` (for a hang: within the
 * heartbeat timeout plus a moment once its loop is running, within the startup bound of 30 s
 * before that), after every PTY process the worker started is killed and
 * verified gone and its open permission questions are cancelled (the leader's prompter sees the
 * abort). `reported` is true only when the worker posted `done` after its runner's cleanup.
 */
export class WorkerTeammateExecutor implements TeammateExecutor {
  readonly backend = 'worker' as const
  private readonly teammates = new Map<string, WorkerTeammate>()
  private readonly heartbeatTimeoutMs: number
  private readonly resourceLimits: ResourceLimits
  private readonly warmSpare: boolean
  /** The spare thread (loading or loaded, no teammate yet), if any. */
  private spare: TeammateThread | undefined
  /** Teammates spawned whose loop has not run yet: the spare is refilled once there are none, so its load never competes with their start. */
  private readonly starting = new Set<WorkerTeammate>()
  /** New threads starting now (see {@link WorkerTeammateExecutorOptions.concurrentStarts}). */
  private readonly startGate: StartGate
  /** Agents whose spawn waits for the start gate: a second spawn of one is refused as if it ran. */
  private readonly queued = new Set<string>()
  private disposed = false
  /** The bundle's V8 code cache (see {@link WorkerTeammateExecutorOptions.codeCacheDir}); undefined when turned off. */
  readonly codeCache: WorkerCodeCache | undefined
  /** Project context reads by directory, each shared for {@link PROJECT_CONTEXT_SHARE_MS}; undefined = the read failed (each teammate then reads its own). */
  private readonly contexts = new Map<string, { at: number; read: Promise<ProjectContext | undefined> }>()

  /** @throws Error when `heartbeatTimeoutMs` is not a positive number or `concurrentStarts` not a whole number ≥ 1. */
  constructor(private readonly options: WorkerTeammateExecutorOptions) {
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS
    if (!(this.heartbeatTimeoutMs > 0))
      throw new Error(
        `heartbeatTimeoutMs must be a positive number of milliseconds, not ${options.heartbeatTimeoutMs}.`
      )
    this.resourceLimits = { ...DEFAULT_WORKER_RESOURCE_LIMITS, ...options.resourceLimits }
    this.warmSpare = options.warmSpare ?? true
    const concurrentStarts = options.concurrentStarts ?? availableParallelism()
    if (!(Number.isInteger(concurrentStarts) && concurrentStarts >= 1))
      throw new Error(`concurrentStarts must be a whole number of at least 1, not ${options.concurrentStarts}.`)
    this.startGate = new StartGate(concurrentStarts)
    this.codeCache =
      options.codeCacheDir === false
        ? undefined
        : new WorkerCodeCache(options.codeCacheDir ?? codeCacheDirOf(swarmdeskHome()))
  }

  /**
   * Starts the spare worker unless there is one (or `warmSpare` is off, the executor is disposed,
   * or the entry is not built): a thread that loads the bundle and waits, unref'd, for the next
   * spawn to hand it a teammate. Called when a team is created; a spawn refills it once every
   * teammate it started has begun its loop. A spare costs one idle worker's memory (the bundle
   * loaded, no teammate: see bench/teammates) until it is used, {@link releaseSpare} or
   * {@link dispose}. A spare that dies is dropped (the next spawn starts cold and refills).
   */
  prewarm(): void {
    if (!this.warmSpare || this.disposed || this.spare) return
    const entryPath = this.entryPath()
    if (!existsSync(entryPath)) return
    const spare = new TeammateThread(this.threadOptions(entryPath), () => {
      if (this.spare === spare) this.spare = undefined
    })
    this.spare = spare
  }

  /**
   * Resolves once the spare has loaded the bundle: true then, false when there is no spare or it
   * died first. For measurements and tests that need the spare ready; spawns never wait for it.
   */
  async whenSpareLoaded(): Promise<boolean> {
    return (await this.spare?.loaded) ?? false
  }

  /**
   * The project context of `cwd` for a teammate starting now: the read another teammate started
   * there less than {@link PROJECT_CONTEXT_SHARE_MS} ago, or a new one. Never rejects: undefined
   * when the read failed, and the teammate then reads its own.
   */
  private projectContext(cwd: string): Promise<ProjectContext | undefined> {
    const now = Date.now()
    const known = this.contexts.get(cwd)
    if (known && now - known.at < PROJECT_CONTEXT_SHARE_MS) return known.read
    for (const [dir, entry] of this.contexts) if (now - entry.at >= PROJECT_CONTEXT_SHARE_MS) this.contexts.delete(dir)
    const read = readProjectContext(cwd).catch(() => undefined)
    this.contexts.set(cwd, { at: now, read })
    return read
  }

  /** Terminates the spare worker, if any (its team was deleted); resolves once its thread is gone. */
  async releaseSpare(): Promise<void> {
    const spare = this.spare
    this.spare = undefined
    await spare?.terminate()
  }

  /**
   * Starts `config`'s teammate in the spare worker or, after waiting for a free start slot
   * ({@link WorkerTeammateExecutorOptions.concurrentStarts}), a new one; resolves once the worker is
   * set up and its loop is about to read its inbox (`ready`).
   * @throws Error when the executor is disposed, the teammate already runs here, the entry is
   *   missing (build with `npm run build`), the team or member does not exist
   *   (TeamNotFoundError / TeammateNotFoundError), or the worker died or stayed silent before
   *   `ready`; nothing is left running then.
   */
  async spawn(config: TeammateSpawnConfig): Promise<TeammateHandle> {
    if (this.disposed)
      throw new Error(
        'This worker teammate executor is disposed (its session is closing); start teammates from a live session.'
      )
    if (this.teammates.get(config.agentId)?.alive || this.queued.has(config.agentId)) {
      throw new Error(
        `Teammate ${config.agentId} is already running on the worker backend; kill it or wait for it to exit before starting it again.`
      )
    }
    const entryPath = this.entryPath()
    if (!existsSync(entryPath))
      throw new Error(
        `The worker teammate entry ${entryPath} does not exist; build the Node bundles with: npm run build`
      )
    const team = config.store
      ? await config.store.config.read(config.team)
      : new TeamStore(config.home).read(config.team)
    if (!team.members.some((m) => m.name === config.name)) {
      throw new TeammateNotFoundError(
        `'${config.name}' is not a member of team '${config.team}' (members: ${team.members.map((m) => m.name).join(', ') || 'none'}); add it to the team config before spawning it.`
      )
    }
    // read before the thread is taken (a spare is handed its teammate in the same tick), and
    // while counted as waiting, so a second spawn of it meanwhile is refused
    this.queued.add(config.agentId)
    let projectContext: ProjectContext | undefined
    try {
      projectContext = await this.projectContext(config.cwd)
    } finally {
      this.queued.delete(config.agentId)
    }
    // the spare if there is one (even if still loading: it is ahead of a new thread), else a new
    // thread once a start slot is free
    const spare = this.spare
    this.spare = undefined
    let thread: TeammateThread
    let releaseSlot = (): void => undefined
    if (spare?.usable()) thread = spare
    else {
      if (spare) void spare.terminate()
      this.queued.add(config.agentId)
      try {
        releaseSlot = await this.startGate.acquire()
      } finally {
        this.queued.delete(config.agentId)
      }
      try {
        if (this.disposed)
          throw new Error(
            'This worker teammate executor was disposed (its session closed) while the teammate waited to start.'
          )
        thread = new TeammateThread(this.threadOptions(entryPath))
      } catch (error) {
        releaseSlot()
        throw error
      }
    }
    const teammate = new WorkerTeammate({
      config,
      thread,
      ...(projectContext ? { projectContext } : {}),
      bus: this.options.bus,
      pty: this.options.pty,
      prompter: this.options.prompter,
      heartbeatTimeoutMs: this.heartbeatTimeoutMs,
      resourceLimits: this.resourceLimits,
      ...(this.options.mcp ? { mcp: this.options.mcp } : {})
    })
    this.teammates.set(config.agentId, teammate)
    void teammate.running.then(releaseSlot)
    if (this.warmSpare) {
      this.starting.add(teammate)
      void teammate.running.then(() => {
        this.starting.delete(teammate)
        if (this.starting.size === 0) this.prewarm()
      })
    }
    await teammate.ready
    return { agentId: config.agentId, backend: 'worker', pid: process.pid, exited: teammate.exited }
  }

  /**
   * Delivers a message to the teammate's inbox through the mailbox (docs/teams.md#mailbox); the worker's inbox
   * watch wakes it if idle. Works after it exited too (the message waits in its inbox).
   * @throws Error when this executor never started `agentId`; the mailbox's errors for a bad message.
   */
  async sendMessage(agentId: string, message: OutgoingMessage): Promise<void> {
    const teammate = this.teammates.get(agentId)
    if (!teammate)
      throw new Error(
        `No worker teammate '${agentId}' was started by this executor; spawn it first, or write to its inbox with the mailbox.`
      )
    const { home, team, name, store } = teammate.config
    await (store ? store.mailbox.send(team, name, message) : createMailbox({ home }).send(team, name, message))
  }

  /** Terminates the worker at once (no shutdown request) and resolves once it and every process it started are gone. */
  async kill(agentId: string, reason?: string): Promise<void> {
    const teammate = this.teammates.get(agentId)
    if (!teammate) return
    await teammate.kill(reason)
  }

  /** Posts `interrupt` to the teammate's worker (see {@link TeammateExecutor.interrupt}). */
  interrupt(agentId: string): boolean {
    return this.teammates.get(agentId)?.interrupt() ?? false
  }

  /** True from `spawn` until the teammate's worker thread has exited (false for an id it never started). */
  isAlive(agentId: string): boolean {
    return this.teammates.get(agentId)?.alive ?? false
  }

  /** Kills every teammate this executor started and its spare worker; later spawns throw. */
  async dispose(): Promise<void> {
    this.disposed = true
    await Promise.all([...[...this.teammates.values()].map((t) => t.kill('the session closed')), this.releaseSpare()])
  }

  private entryPath(): string {
    return this.options.entry ?? nodeBundlePath('teammate-worker')
  }

  private threadOptions(entryPath: string): ThreadOptions {
    return {
      entryPath,
      resourceLimits: this.resourceLimits,
      spawnReplyTimeoutMs: this.spawnReplyTimeoutMs(),
      ...(this.options.prelude ? { preludePath: this.options.prelude } : {}),
      ...(this.codeCache && entryPath.endsWith('.cjs') ? { codeCache: this.codeCache } : {})
    }
  }

  /** How long the worker's `PtyHost.spawn` blocks for the main thread's pid: half the heartbeat timeout, at least 100 ms. */
  private spawnReplyTimeoutMs(): number {
    return Math.max(100, Math.floor(this.heartbeatTimeoutMs / 2))
  }
}
