import { isMainThread, workerData, type MessagePort } from 'node:worker_threads'
import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../../../shared/permissions'
import { EventBus } from '../../events'
import { Emitter } from '../../base'
import type { PermissionPrompter } from '../../permissions'
import { openTeamStore, transportFromEnv, type TeamStorePort } from '../../teamStore'
import { runTeammate } from '../runner'
import { teammateIdentityEnv } from '../env'
import { createPtyClient } from './ptyClient'
import { createMcpPortClient } from './mcpClient'
import { createHttpPortClient } from './httpClient'
import {
  HEARTBEAT_INTERVAL_MS,
  parseMainMessage,
  serializeError,
  StartMessageSchema,
  WorkerDataSchema,
  type DoneOutcome,
  type MainToWorker,
  type SerializedError,
  type StartMessage,
  type WorkerData,
  type WorkerToMain
} from './protocol'

/** The worker side of the leader permission bridge: a prompter whose answers arrive through {@link BridgePrompter.handle}. */
export interface BridgePrompter extends PermissionPrompter {
  /**
   * Feeds one message from the main thread to the bridge.
   * @returns true when it was a `permission.answer` (whether or not its question was still open).
   */
  handle(message: MainToWorker): boolean
}

/**
 * The leader permission bridge, worker side (docs/design.md#process-model, docs/teams.md#permission-requests): each question goes to the main thread
 * as `permission.prompt`, where the leader's permission queue asks it, and its answer comes back
 * as `permission.answer`. When the question's signal aborts first (the teammate's turn stopped),
 * it resolves as a `cancelled` denial at once and posts `permission.cancel`, so the leader's
 * prompter withdraws it. Each question resolves exactly once.
 */
export function createBridgePrompter(post: (message: WorkerToMain) => void): BridgePrompter {
  const open = new Map<number, (answer: PermissionPromptAnswer) => void>()
  let nextId = 1
  return {
    prompt(request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer> {
      if (signal.aborted) return Promise.resolve({ decision: 'deny', by: 'cancelled' })
      const id = nextId++
      return new Promise<PermissionPromptAnswer>((resolve) => {
        const onAbort = (): void => {
          if (!open.delete(id)) return
          post({ type: 'permission.cancel', id })
          resolve({ decision: 'deny', by: 'cancelled' })
        }
        open.set(id, (answer) => {
          open.delete(id)
          signal.removeEventListener('abort', onAbort)
          resolve(answer)
        })
        signal.addEventListener('abort', onAbort, { once: true })
        post({ type: 'permission.prompt', id, request })
      })
    },
    handle(message) {
      if (message.type !== 'permission.answer') return false
      open.get(message.id)?.(message.answer)
      return true
    }
  }
}

/**
 * The worker teammate's main (docs/design.md#process-model, docs/teams.md#teammate-life-cycle), once its `start` arrived: posts a heartbeat every
 * {@link HEARTBEAT_INTERVAL_MS}, runs {@link runTeammate} with the PTY client (commands run in the
 * main thread's PTY host), the permission bridge and a bus whose events go to the main thread;
 * then kills whatever its shells left, posts `done` and lets the thread end: nothing it started
 * holds the event loop afterwards. An uncaught error posts `done` as `crashed` (not cleaned up)
 * before the worker dies of it.
 */
export async function runWorkerTeammate(
  data: WorkerData,
  config: StartMessage['config'],
  projectContext?: StartMessage['projectContext']
): Promise<void> {
  const { port } = data
  let finished = false
  const post = (message: WorkerToMain, transfer?: readonly MessagePort[]): void => port.postMessage(message, transfer)
  const postDone = (outcome: DoneOutcome, cleanedUp: boolean, error?: SerializedError): void => {
    if (finished) return
    finished = true
    post({ type: 'done', outcome, cleanedUp, ...(error ? { error } : {}) })
  }
  // Monitor only: Node's default handling still runs afterwards (the worker dies, the main thread gets 'error').
  const onUncaught = (error: unknown): void => postDone('crashed', false, serializeError(error))
  process.on('uncaughtExceptionMonitor', onUncaught)

  const heartbeat = setInterval(() => post({ type: 'heartbeat' }), HEARTBEAT_INTERVAL_MS)
  heartbeat.unref()
  post({ type: 'heartbeat' })

  const pty = createPtyClient({ post, spawnReplyTimeoutMs: data.spawnReplyTimeoutMs })
  const prompter = createBridgePrompter(post)
  // its MCP servers are the main process's: the session's shared connections, and its own started there
  const mcp = createMcpPortClient(post)
  // its model requests are made by the main thread, whose fetch is loaded: the worker never loads
  // Node's fetch (undici) to start (docs/teams.md#worker-teammate-start-up)
  const http = createHttpPortClient(post)
  const interrupts = new Emitter<void>()
  const onMessage = (raw: unknown): void => {
    const message = parseMainMessage(raw)
    if (message.type === 'interrupt') interrupts.fire()
    else if (!pty.handle(message) && !mcp.handle(message) && !http.handle(message)) prompter.handle(message)
  }
  port.on('message', onMessage)

  const bus = new EventBus()
  bus.onEvent((event) => post({ type: 'event', event }))

  // docs/design.md#process-model's identity variables, as a process teammate gets them; the resolved model is the fallback of a member without one
  const env: Record<string, string> = { ...config.env, ...teammateIdentityEnv(config) }

  post({ type: 'ready' })
  let outcome: DoneOutcome = 'crashed'
  let failure: SerializedError | undefined
  let inactive = false
  // its own connection to the leader's team store (the files, or the NATS server in its env)
  let store: TeamStorePort | undefined
  try {
    store = await openTeamStore(config.home, transportFromEnv(config.env))
    const exit = await runTeammate({
      store,
      home: config.home,
      team: config.team,
      name: config.name,
      cwd: config.cwd,
      env,
      bus,
      pty,
      prompter,
      mcp: mcp.host,
      fetch: http.fetch,
      interrupts: interrupts.event,
      ...(projectContext ? { projectContext } : {}),
      // its events reach the leader over its port (docs/nats.md#a-teammates-events): none published on a server
      relayEvents: false
    })
    outcome = exit.reason
  } catch (error) {
    failure = serializeError(error)
  } finally {
    // the runner leaves an injected host to its owner: kill what its shells may have left
    http.dispose()
    await pty.dispose().catch(() => undefined)
  }
  if (store) {
    inactive = await isInactive(store, config.team, config.name)
    await store.close().catch(() => undefined)
  }
  postDone(outcome, inactive, failure)
  clearInterval(heartbeat)
  process.off('uncaughtExceptionMonitor', onUncaught)
  port.off('message', onMessage)
  port.unref()
}

/**
 * True when the team config says the member is no longer active: the runner's cleanup ran (or it
 * never started). Reading fails → false, so the leader's side cleans up to be sure.
 */
async function isInactive(store: TeamStorePort, team: string, name: string): Promise<boolean> {
  try {
    return (await store.config.read(team)).members.find((m) => m.name === name)?.isActive === false
  } catch {
    return false
  }
}

/**
 * A worker thread with the bundle loaded, before it has a teammate: posts `loaded`, then waits for
 * the main thread's `start` and runs that teammate. The waiting listener keeps the thread alive;
 * it is swapped for the teammate's own in the same tick, so no message falls between them.
 * Anything else before `start` breaks the protocol: the thread throws (the main side reports it).
 */
export function awaitTeammate(data: WorkerData): void {
  const { port } = data
  const onStart = (raw: unknown): void => {
    const start = StartMessageSchema.safeParse(raw)
    if (!start.success)
      throw new Error(
        `A worker teammate expected 'start' as its first message and got ${describe(raw)}; the worker bundle and the main process are out of step: rebuild with npm run build.`
      )
    void runWorkerTeammate(data, start.data.config, start.data.projectContext)
    port.off('message', onStart)
  }
  port.on('message', onStart)
  port.postMessage({ type: 'loaded' } satisfies WorkerToMain)
}

function describe(raw: unknown): string {
  const type =
    typeof raw === 'object' && raw !== null && 'type' in raw ? String((raw as { type: unknown }).type) : undefined
  return type ? `'${type}'` : 'a message without a type'
}

// Runs only in a worker teammate's thread, started by WorkerTeammateExecutor's bootstrap.
if (!isMainThread && (workerData as { protocol?: unknown } | null)?.protocol !== undefined) {
  awaitTeammate(WorkerDataSchema.parse(workerData))
}
