import { receiveMessageOnPort, type MessagePort, type ResourceLimits, type Worker } from 'node:worker_threads'
import type { PermissionPromptAnswer } from '../../../../shared/permissions'
import type { RuntimeEventInput } from '../../../../shared/events'
import type { EventBus } from '../../events'
import type { PermissionPrompter } from '../../permissions'
import type { PtyHost } from '../../pty'
import type { TeammateExitInfo, TeammateSpawnConfig } from '../executor'
import type { TeammateThread } from './thread'
import type { ProjectContext } from '../../runner'
import { parseForwardedEvent, parseWorkerMessage, type MainToWorker, type WorkerToMain } from './protocol'
import { createPtyServer, type PtyServer } from './ptyServer'
import { createMcpServer, type McpServer, type SharedMcp } from './mcpServer'
import { createHttpServer, type HttpServer } from './httpServer'

/** How long a worker may take from its creation to its loop's first event (loading the bundle, then starting the runner), ms. */
const STARTUP_TIMEOUT_MS = 30_000

/**
 * How long a worker may take to end by itself after posting `done`, ms; then it is terminated (and
 * the reason says so). Measured on 2 cores at load 16–19: `done` → the worker's `exit` event took
 * 0.55–0.7 s cold and up to 1.95 s while the spare was loading its bundle beside it, so 2 s flagged
 * healthy workers; a worker whose loop is really held open is still ended 5 s after its `done`.
 */
const LINGER_AFTER_DONE_MS = 5_000

/** Why the main side ended a worker, when it did. */
type EndedBy =
  | { kind: 'kill'; reason?: string }
  | { kind: 'heartbeat'; silentMs: number }
  | { kind: 'startup' }
  | { kind: 'protocol'; message: string }
  | { kind: 'lingering' }

/** What one {@link WorkerTeammate} is given by its executor. */
export interface WorkerTeammateOptions {
  config: TeammateSpawnConfig
  /** A new thread or the executor's spare: adopted here and given `config` in `start`. */
  thread: TeammateThread
  bus: EventBus
  pty: PtyHost
  prompter: PermissionPrompter
  heartbeatTimeoutMs: number
  resourceLimits: ResourceLimits
  /** The session's MCP servers, which the worker reaches over its port; absent = none. */
  mcp?: SharedMcp
  /** The project context of its directory, read once by the executor for the teammates it starts; absent = the worker reads it. */
  projectContext?: ProjectContext
}

/** One worker thread running one teammate, seen from the main thread. */
export class WorkerTeammate {
  readonly config: TeammateSpawnConfig
  /** Resolves on `ready`; rejects when the worker ends before it. */
  readonly ready: Promise<void>
  readonly exited: Promise<TeammateExitInfo>
  /** Resolves once its loop has run (the first forwarded event) or the worker is gone. Never rejects. */
  readonly running: Promise<void>
  alive = true

  private readonly worker: Worker
  private readonly port: MessagePort
  private readonly server: PtyServer
  private readonly mcp: McpServer
  private readonly http: HttpServer
  private readonly prompts = new Map<number, AbortController>()
  private readonly startedAt = Date.now()
  private lastSign = Date.now()
  private isReady = false
  /** Its loop has run: the first forwarded event came (until then the startup bound applies, not the heartbeat). */
  private isRunning = false
  private terminating = false
  private ending = false
  private done: Extract<WorkerToMain, { type: 'done' }> | undefined
  private workerError: Error | undefined
  private endedBy: EndedBy | undefined
  private readonly watchdog: NodeJS.Timeout
  private lingerTimer: NodeJS.Timeout | undefined
  private resolveReady!: () => void
  private rejectReady!: (error: Error) => void
  private resolveExited!: (info: TeammateExitInfo) => void
  private resolveRunning!: () => void

  constructor(private readonly options: WorkerTeammateOptions) {
    this.config = options.config
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolveReady = resolve
      this.rejectReady = reject
    })
    // a rejection nobody awaits (the handle was never returned) must not be unhandled
    this.ready.catch(() => undefined)
    this.exited = new Promise<TeammateExitInfo>((resolve) => (this.resolveExited = resolve))
    this.running = new Promise<void>((resolve) => (this.resolveRunning = resolve))
    this.worker = options.thread.worker
    this.port = options.thread.port
    this.server = createPtyServer(options.pty, (message) => this.post(message))
    this.mcp = createMcpServer(options.mcp, (message) => this.post(message))
    this.http = createHttpServer((message) => this.post(message))
    this.port.on('message', (raw) => this.onMessage(raw))
    this.worker.on('error', (error) => (this.workerError ??= error))
    this.worker.on('exit', (code) => {
      this.finish(code).catch((error: unknown) => {
        // never leave `exited` pending: report what went wrong while cleaning up
        const reason = `cleaning up after its worker failed: ${(error as Error)?.message ?? String(error)}`
        if (!this.isReady)
          this.rejectReady(
            new Error(`Teammate ${this.config.agentId} could not start on the worker backend: ${reason}.`)
          )
        this.resolveRunning()
        this.resolveExited({ status: 'crashed', reported: false, reason })
      })
    })
    options.thread.adopt()
    // the thread gets the data only (a worker reports its own states: onTurnStart and onState are
    // not for it; it opens its own team store from the transport in its env)
    const { onTurnStart: _local, onState: _relayed, store: _store, ...config } = options.config
    const { projectContext } = options
    this.port.postMessage({
      type: 'start',
      config,
      ...(projectContext ? { projectContext } : {})
    } satisfies MainToWorker)
    const every = Math.max(25, Math.min(250, Math.floor(options.heartbeatTimeoutMs / 4)))
    this.watchdog = setInterval(() => this.check(), every)
    this.watchdog.unref()
  }

  /** Terminates the worker unless it is gone, and waits for the end (processes killed, prompts cancelled). */
  async kill(reason?: string): Promise<void> {
    if (this.alive) {
      this.endedBy ??= { kind: 'kill', ...(reason ? { reason } : {}) }
      await this.worker.terminate()
    }
    await this.exited
  }

  /** Asks the worker's loop to stop its current turn; false once the worker has ended. */
  interrupt(): boolean {
    if (!this.alive) return false
    this.post({ type: 'interrupt' })
    return true
  }

  private post(message: MainToWorker): void {
    if (this.alive) this.port.postMessage(message)
  }

  private onMessage(raw: unknown): void {
    let message: WorkerToMain
    try {
      message = parseWorkerMessage(raw)
    } catch (error) {
      this.end({ kind: 'protocol', message: (error as Error).message })
      return
    }
    this.lastSign = Date.now()
    switch (message.type) {
      case 'heartbeat':
      case 'loaded':
        return
      case 'ready':
        this.isReady = true
        this.resolveReady()
        return
      case 'event': {
        this.isRunning = true
        this.resolveRunning()
        const parsed = parseForwardedEvent(message.event)
        if (parsed.ok) this.options.bus.emit(parsed.event as RuntimeEventInput)
        else
          this.options.bus.emit({
            type: 'notice',
            level: 'warning',
            message: `Worker teammate ${this.config.agentId} sent an invalid event, dropped: ${parsed.message}`,
            agentId: this.config.agentId,
            agentName: this.config.name
          })
        return
      }
      case 'pty.run':
      case 'pty.abort':
      case 'pty.spawn':
      case 'pty.kill':
      case 'pty.dispose':
        this.server.handle(message)
        return
      case 'mcp.request':
        this.mcp.handle(message.id, message.request)
        return
      case 'mcp.cancel':
        this.mcp.cancel(message.id)
        return
      case 'http.request':
        this.http.request(message.id, message.request)
        return
      case 'http.abort':
        this.http.abort(message.id)
        return
      case 'permission.prompt':
        this.ask(message.id, message.request)
        return
      case 'permission.cancel':
        this.prompts.get(message.id)?.abort()
        this.prompts.delete(message.id)
        return
      case 'done':
        this.done = message
        this.lingerTimer ??= setTimeout(() => this.end({ kind: 'lingering' }), LINGER_AFTER_DONE_MS)
        this.lingerTimer.unref()
        return
    }
  }

  /** Puts a worker's question to the leader's prompter, tagged with this teammate's identity (docs/teams.md#permission-requests). */
  private ask(id: number, request: Extract<WorkerToMain, { type: 'permission.prompt' }>['request']): void {
    if (this.ending) return // its worker is dead: nobody would read the answer
    const controller = new AbortController()
    this.prompts.set(id, controller)
    const tagged = { ...request, agentId: this.config.agentId, agentName: this.config.name }
    void this.options.prompter
      .prompt(tagged, controller.signal)
      .catch((error: unknown): PermissionPromptAnswer => ({
        decision: 'deny',
        by: 'cancelled',
        reason: `The leader's permission queue failed: ${(error as Error)?.message ?? String(error)}`
      }))
      .then((answer) => {
        if (this.prompts.get(id) !== controller) return // cancelled meanwhile
        this.prompts.delete(id)
        this.post({ type: 'permission.answer', id, answer })
      })
  }

  /** The watchdog: a worker silent past the heartbeat timeout (or not ready after the startup bound) is terminated. */
  private check(): void {
    if (!this.alive || this.done) return
    // messages already queued are signs of life: take them before judging (the main thread may have been busy)
    this.drain()
    const now = Date.now()
    // loading the bundle and the first calls into it (settings, model client, project context) may
    // starve a worker's timers for seconds on a loaded machine: until its loop has emitted its first
    // event only the startup bound applies, so a slow start is not taken for a hang
    if (!this.isReady || !this.isRunning) {
      if (now - this.startedAt > STARTUP_TIMEOUT_MS) this.end({ kind: 'startup' })
      return
    }
    const silentMs = now - this.lastSign
    if (silentMs > this.options.heartbeatTimeoutMs) this.end({ kind: 'heartbeat', silentMs })
  }

  /** Handles every message already queued on the port, synchronously and in order. */
  private drain(): void {
    for (let next = receiveMessageOnPort(this.port); next; next = receiveMessageOnPort(this.port))
      this.onMessage(next.message)
  }

  private end(by: EndedBy): void {
    if (!this.alive || this.terminating) return
    this.terminating = true
    this.endedBy ??= by
    void this.worker.terminate()
  }

  /** The worker thread is gone: kill what it started, cancel its questions, then settle `ready`/`exited`. */
  private async finish(code: number): Promise<void> {
    this.ending = true
    clearInterval(this.watchdog)
    // its last words (`done`, events) may still be queued
    this.drain()
    this.alive = false
    if (this.lingerTimer) clearTimeout(this.lingerTimer)
    const killing = this.server.dispose()
    // docs/tools.md#mcp-servers: the servers started for it stop with it, however it ended
    const stopping = this.mcp.dispose()
    this.http.dispose()
    for (const controller of this.prompts.values()) controller.abort()
    this.prompts.clear()
    const [swept] = await Promise.all([killing, stopping])
    this.port.close()
    const info = this.exitInfo(code)
    if (swept.survivors.length)
      info.reason = `${info.reason ? `${info.reason}; ` : ''}its PTY processes ${swept.survivors.join(', ')} could not be killed`
    if (!this.isReady)
      this.rejectReady(
        new Error(
          `Teammate ${this.config.agentId} could not start on the worker backend: ${info.reason ?? 'its worker ended before it was ready'}.`
        )
      )
    this.resolveRunning()
    this.resolveExited(info)
  }

  private exitInfo(code: number): TeammateExitInfo {
    const by = this.endedBy
    const done = this.done
    if (done) {
      const lingered =
        by?.kind === 'lingering'
          ? `its worker thread did not end by itself within ${LINGER_AFTER_DONE_MS / 1000} s of finishing and was terminated`
          : undefined
      const reason = [done.outcome === 'crashed' ? (done.error?.message ?? 'its loop failed') : undefined, lingered]
        .filter(Boolean)
        .join('; ')
      return {
        status: done.outcome === 'crashed' ? 'crashed' : 'exited',
        reported: done.cleanedUp,
        ...(reason ? { reason } : {})
      }
    }
    switch (by?.kind) {
      case 'kill':
        return { status: 'killed', reported: false, reason: by.reason ?? 'killed' }
      case 'heartbeat':
        return {
          status: 'crashed',
          reported: false,
          reason: `heartbeat lost for ${(by.silentMs / 1000).toFixed(1)} s: the worker stopped responding and was terminated`
        }
      case 'startup':
        return {
          status: 'crashed',
          reported: false,
          reason: `the worker did not start its loop within ${STARTUP_TIMEOUT_MS / 1000} s and was terminated`
        }
      case 'protocol':
        return { status: 'crashed', reported: false, reason: by.message }
    }
    const error = this.workerError as (Error & { code?: string }) | undefined
    if (error?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return {
        status: 'crashed',
        reported: false,
        reason: `out of memory (worker limit ${this.options.resourceLimits.maxOldGenerationSizeMb ?? '?'} MB old generation): ${error.message}`
      }
    }
    if (error) return { status: 'crashed', reported: false, reason: error.message }
    return {
      status: 'crashed',
      reported: false,
      reason: code !== 0 ? `exit code ${code}` : 'its worker thread ended without saying how its teammate ended'
    }
  }
}
