import { MessagePort } from 'node:worker_threads'
import { z } from 'zod'
import { RuntimeEventSchema } from '../../../../shared/events'
import {
  PermissionModeSchema,
  PermissionPromptAnswerSchema,
  PermissionPromptRequestSchema
} from '../../../../shared/permissions'
import { McpServerConfigSchema } from '../../mcp'

/**
 * The MessagePort RPC between the main thread and one worker teammate (docs/design.md#process-model, docs/teams.md#permission-requests): the worker
 * runs the teammate's agent loop; its shell commands run in the main thread's PTY host, its
 * permission questions go to the leader's permission queue (the "leader permission bridge"), and
 * its runtime events are re-emitted on the main bus. Every message is a plain structured-clone
 * object with a `type`; both sides validate what they receive with the schemas below.
 *
 * A worker is started without a teammate: it loads the bundle, posts `loaded` and waits for one
 * `start` carrying its teammate's config. So a worker can be started ahead of time (the executor's
 * warm spare) and handed its teammate when one is spawned.
 *
 * Worker → main: `loaded`, `heartbeat`, `ready`, `event`, `pty.run` / `pty.abort`, `pty.spawn` /
 * `pty.kill`, `pty.dispose`, `permission.prompt` / `permission.cancel`, `mcp.request` /
 * `mcp.cancel`, `http.request` / `http.abort`, `done`.
 * Main → worker: `start`, `pty.started`, `pty.data`, `pty.result` / `pty.failed`, `pty.exit`,
 * `pty.killed`, `pty.disposed`, `permission.answer`, `mcp.reply`, `http.response`, `http.chunk`,
 * `http.end` / `http.failed`; and, on each spawn's own reply
 * port, one {@link SpawnReply}.
 */

/** Bumped on any incompatible change; the worker refuses workerData of another version. */
export const WORKER_PROTOCOL_VERSION = 4

/** How often a worker posts `heartbeat`, ms. The executor's watchdog allows several missed beats. */
export const HEARTBEAT_INTERVAL_MS = 500

/** Longest delay `setTimeout` honours; PTY timeouts are clamped to it (the host does the same). */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** RPC ids: per worker, positive, unique per kind of request. */
const Id = z.number().int().positive()

/** A {@link import('../executor').TeammateSpawnConfig} as it crosses into the worker. */
export const TeammateSpawnConfigSchema = z.object({
  home: z.string().min(1),
  team: z.string().min(1),
  name: z.string().min(1),
  agentId: z.string().min(1),
  cwd: z.string().min(1),
  color: z.string(),
  model: z.string(),
  mode: PermissionModeSchema,
  planModeRequired: z.boolean(),
  sessionId: z.string(),
  leaderAgentId: z.string(),
  env: z.record(z.string(), z.string())
})

/**
 * `workerData` of a worker teammate's thread (its teammate's config comes later, in `start`).
 * `port` is the worker's end of the RPC channel (transferred);
 * `spawnReplyTimeoutMs` bounds how long `PtyHost.spawn` blocks the worker waiting for the main
 * thread's pid (kept below the heartbeat timeout, so a slow answer never reads as a hang);
 * `nodePtyPath` is node-pty's resolved entry, which the bootstrap replaces by a stub so node-pty
 * never loads in the worker (STACK.md).
 */
export const WorkerDataSchema = z.object({
  protocol: z.literal(WORKER_PROTOCOL_VERSION),
  port: z.instanceof(MessagePort),
  spawnReplyTimeoutMs: z.number().int().positive(),
  /** Absolute path of the bundle the bootstrap loads (or a test's `.mjs` wrapper around it). */
  entryPath: z.string().min(1),
  nodePtyPath: z.string().optional(),
  /** A module the bootstrap imports before the entry (tests' and benchmarks' instrumentation). */
  preludePath: z.string().optional(),
  /** The V8 code cache file of a `.cjs` entry (it may not exist yet); see `codeCache.ts`. */
  codeCachePath: z.string().optional()
})
export type WorkerData = z.infer<typeof WorkerDataSchema>

/** A {@link import('../../tools/types').PtyRunOptions} without the parts that cannot cross threads (signal, onData). */
export const PtyRunRequestSchema = z.object({
  command: z.string(),
  cwd: z.string(),
  env: z.record(z.string(), z.string()).optional(),
  /** ms, at most {@link MAX_TIMER_MS}. */
  timeoutMs: z.number().nonnegative().max(MAX_TIMER_MS),
  cols: z.number().int().positive().optional(),
  rows: z.number().int().positive().optional()
})
export type PtyRunRequest = z.infer<typeof PtyRunRequestSchema>

/** A {@link import('../../tools/types').PtySpawnOptions} without its callbacks (they become `pty.data` / `pty.exit`). */
export const PtySpawnRequestSchema = PtyRunRequestSchema.omit({ timeoutMs: true })
export type PtySpawnRequest = z.infer<typeof PtySpawnRequestSchema>

/** {@link import('../../tools/types').PtyRunResult}. */
export const PtyRunResultSchema = z.object({
  pid: z.number().int().nonnegative(),
  exitCode: z.number().int().nullable(),
  signal: z.number().int().nullable(),
  output: z.string(),
  omittedChars: z.number().int().nonnegative().optional(),
  timedOut: z.boolean(),
  aborted: z.boolean()
})

/** An error as it crosses the port: what a person needs to read. */
export const SerializedErrorSchema = z.object({ name: z.string(), message: z.string(), stack: z.string().optional() })
export type SerializedError = z.infer<typeof SerializedErrorSchema>

/**
 * Which servers an MCP request is for: `session`, the main process's shared connections (docs/tools.md#mcp-servers), or the
 * number an `open` answered with, the servers started for this teammate alone.
 */
const McpScopeSchema = z.union([z.literal('session'), Id])

/**
 * One MCP request of a worker teammate, served by the main process (its connections live there,
 * as its terminals do): `tools` lists the tools of a scope's servers (the session's as listed at
 * its start); `changes` answers the session's listing when it changed since the version `since` (`-1`:
 * always), with its version (none when the session's lists never change: it has no servers);
 * `open` starts servers for the teammate and answers with their scope and listing;
 * `close` stops them; `call`, `resources` and `read` are a server's `tools/call`,
 * `resources/list` and `resources/read`.
 */
export const McpRequestSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('tools'), scope: McpScopeSchema }),
  z.object({ op: z.literal('changes'), since: z.number().int().min(-1) }),
  z.object({
    op: z.literal('open'),
    servers: z.array(z.object({ name: z.string().min(1), config: McpServerConfigSchema }))
  }),
  z.object({ op: z.literal('close'), scope: Id }),
  z.object({
    op: z.literal('call'),
    scope: McpScopeSchema,
    server: z.string(),
    tool: z.string(),
    args: z.record(z.string(), z.unknown())
  }),
  z.object({ op: z.literal('resources'), scope: McpScopeSchema, server: z.string() }),
  z.object({ op: z.literal('read'), scope: McpScopeSchema, server: z.string(), uri: z.string() })
])
export type McpRequest = z.infer<typeof McpRequestSchema>

/** An MCP server's failure as it crosses the port: enough to make the same McpServerError again. */
export const McpFailureSchema = z.object({ server: z.string(), detail: z.string(), stderr: z.string() })

/** The answer to one `mcp.request`: its value (shaped by the op), or the failure. */
export const McpReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), failure: McpFailureSchema })
])
export type McpReply = z.infer<typeof McpReplySchema>

/** A model request a worker asks the main thread to make (httpClient.ts / httpServer.ts): headers as [name, value] pairs. */
export const HttpRequestSchema = z.object({
  url: z.string().min(1),
  method: z.string().min(1),
  headers: z.array(z.tuple([z.string(), z.string()])),
  body: z.union([z.string(), z.instanceof(Uint8Array)]).optional()
})
export type HttpRequest = z.infer<typeof HttpRequestSchema>

/** The main thread's `fetch` error, as it crosses the port: its name and message, and its cause's. */
export const HttpFailureSchema = z.object({
  name: z.string(),
  message: z.string(),
  cause: z.object({ name: z.string(), message: z.string(), code: z.string().optional() }).optional()
})
export type HttpFailure = z.infer<typeof HttpFailureSchema>

/** How a worker's teammate ended, as the worker saw it. */
export const DoneOutcomeSchema = z.enum(['shutdown', 'aborted', 'crashed'])
export type DoneOutcome = z.infer<typeof DoneOutcomeSchema>

/** Every message a worker posts to the main thread. */
export const WorkerToMainSchema = z.discriminatedUnion('type', [
  /** Posted once, when the bundle is loaded and the worker waits for its `start`. */
  z.object({ type: z.literal('loaded') }),
  /** Every {@link HEARTBEAT_INTERVAL_MS} from the worker's start; silence past the timeout is a hang. */
  z.object({ type: z.literal('heartbeat') }),
  /** Posted once, when the worker is set up and its teammate's loop is about to start. */
  z.object({ type: z.literal('ready') }),
  /** A runtime event of the worker's bus, as stamped there; the main bus re-stamps seq and time. */
  z.object({ type: z.literal('event'), event: z.unknown() }),
  /** Runs one foreground command (the Bash tool); answered by `pty.started`?, `pty.data`*, then `pty.result` or `pty.failed`. */
  z.object({ type: z.literal('pty.run'), id: Id, options: PtyRunRequestSchema }),
  /** The run's AbortSignal fired: kill its process group (its `pty.result` then says `aborted`). */
  z.object({ type: z.literal('pty.abort'), id: Id }),
  /**
   * Starts a background shell. The main thread answers on `reply` with one {@link SpawnReply},
   * then sets `signal[0]` (an Int32 over the SharedArrayBuffer) to 1 and notifies it, which wakes
   * the worker blocked in `Atomics.wait`; later `pty.data`* and one `pty.exit` follow on the port.
   */
  z.object({
    type: z.literal('pty.spawn'),
    id: Id,
    options: PtySpawnRequestSchema,
    reply: z.instanceof(MessagePort),
    signal: z.instanceof(SharedArrayBuffer)
  }),
  /** Kills a background shell's process group; answered by `pty.killed` once it is verifiably gone. */
  z.object({ type: z.literal('pty.kill'), id: Id }),
  /** Kills every process the worker started (its PTY client is disposed); answered by `pty.disposed`. */
  z.object({ type: z.literal('pty.dispose'), requestId: Id }),
  /** A question the rules and mode left open, for the leader's permission queue (docs/teams.md#permission-requests). */
  z.object({ type: z.literal('permission.prompt'), id: Id, request: PermissionPromptRequestSchema }),
  /** The question's signal fired in the worker (its turn was stopped): withdraw it. */
  z.object({ type: z.literal('permission.cancel'), id: Id }),
  /** An MCP request (see {@link McpRequestSchema}); answered by one `mcp.reply` of its id. */
  z.object({ type: z.literal('mcp.request'), id: Id, request: McpRequestSchema }),
  /** The request's signal fired in the worker: stop its call (the answer is no longer read). */
  z.object({ type: z.literal('mcp.cancel'), id: Id }),
  /** A model request, made by the main thread's fetch; answered by `http.response`, `http.chunk`*, `http.end`, or `http.failed`. */
  z.object({ type: z.literal('http.request'), id: Id, request: HttpRequestSchema }),
  /** The request's signal fired (or its body was cancelled): stop it; nothing more comes for it. */
  z.object({ type: z.literal('http.abort'), id: Id }),
  /**
   * The last message: how the teammate ended. `cleanedUp` is true when its runner's cleanup ran
   * and left it inactive with its tasks released and the leader told (docs/teams.md#teammate-life-cycle); false when the
   * worker is dying without that (an uncaught error): the leader's side must clean up.
   */
  z.object({
    type: z.literal('done'),
    outcome: DoneOutcomeSchema,
    cleanedUp: z.boolean(),
    error: SerializedErrorSchema.optional()
  })
])
export type WorkerToMain = z.infer<typeof WorkerToMainSchema>

/**
 * The first message the main thread posts to a worker, exactly once: the teammate it runs, and
 * the project context of its directory as the main thread read it for the teammates it is
 * starting (git snapshot and instructions, runner/systemPrompt.ts `ProjectContext`); without it
 * the teammate reads its own.
 */
export const StartMessageSchema = z.object({
  type: z.literal('start'),
  config: TeammateSpawnConfigSchema,
  projectContext: z.object({ git: z.string().optional(), instructions: z.string().optional() }).optional()
})
export type StartMessage = z.infer<typeof StartMessageSchema>

/** Every message the main thread posts to a worker (spawn replies go on their own port). */
export const MainToWorkerSchema = z.discriminatedUnion('type', [
  StartMessageSchema,
  /** The pid of a run's process group leader, as soon as the host started it. */
  z.object({ type: z.literal('pty.started'), id: Id, pid: z.number().int().positive() }),
  /** Raw output (ANSI intact) of a run or a background shell, in order. */
  z.object({ type: z.literal('pty.data'), id: Id, data: z.string() }),
  z.object({ type: z.literal('pty.result'), id: Id, result: PtyRunResultSchema }),
  /** The host could not run the command (e.g. it is disposed); `message` says why. */
  z.object({ type: z.literal('pty.failed'), id: Id, message: z.string() }),
  /** A background shell ended (after its group was swept). */
  z.object({
    type: z.literal('pty.exit'),
    id: Id,
    exitCode: z.number().int().nullable(),
    signal: z.number().int().nullable()
  }),
  /** A `pty.kill` is done: the shell's process group is gone (also sent for an id that had already ended). */
  z.object({ type: z.literal('pty.killed'), id: Id }),
  z.object({ type: z.literal('pty.disposed'), requestId: Id }),
  /** The leader's (or a person's) answer; first answer wins, sent at most once per prompt. */
  z.object({ type: z.literal('permission.answer'), id: Id, answer: PermissionPromptAnswerSchema }),
  /** The answer to an `mcp.request` (none after an `mcp.cancel` of it). */
  z.object({ type: z.literal('mcp.reply'), id: Id, reply: McpReplySchema }),
  /** The status and headers of an `http.request`'s response. */
  z.object({
    type: z.literal('http.response'),
    id: Id,
    status: z.number().int(),
    statusText: z.string(),
    url: z.string(),
    headers: z.array(z.tuple([z.string(), z.string()]))
  }),
  /** A piece of its body, in order. */
  z.object({ type: z.literal('http.chunk'), id: Id, chunk: z.instanceof(Uint8Array) }),
  /** Its body is complete. */
  z.object({ type: z.literal('http.end'), id: Id }),
  /** Its `fetch` failed, before or during the body. */
  z.object({ type: z.literal('http.failed'), id: Id, error: HttpFailureSchema }),
  /** A person pressed Esc in the teammate's pane: stop the turn running now (the teammate stays). */
  z.object({ type: z.literal('interrupt') })
])
export type MainToWorker = z.infer<typeof MainToWorkerSchema>

/** The one answer to a `pty.spawn`, on its reply port: the real pid, or why it could not start. */
export const SpawnReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), pid: z.number().int().positive() }),
  z.object({ ok: z.literal(false), message: z.string() })
])
export type SpawnReply = z.infer<typeof SpawnReplySchema>

/** A message that failed its schema: which side sent it and what was wrong. */
export class WorkerProtocolError extends Error {
  override readonly name = 'WorkerProtocolError'
}

/**
 * Parses a message from a worker.
 * @throws WorkerProtocolError naming the message type and the invalid fields.
 */
export function parseWorkerMessage(raw: unknown): WorkerToMain {
  return parse(WorkerToMainSchema, raw, 'worker → main')
}

/**
 * Parses a message from the main thread.
 * @throws WorkerProtocolError naming the message type and the invalid fields.
 */
export function parseMainMessage(raw: unknown): MainToWorker {
  return parse(MainToWorkerSchema, raw, 'main → worker')
}

/**
 * Parses a forwarded runtime event (docs/events.md#event-stream-and-command-line) and drops its `seq`/`time`, ready to re-emit.
 * @returns the event input, or an error message when it is not a valid event.
 */
export function parseForwardedEvent(
  raw: unknown
): { ok: true; event: Omit<z.infer<typeof RuntimeEventSchema>, 'seq' | 'time'> } | { ok: false; message: string } {
  const parsed = RuntimeEventSchema.safeParse(raw)
  if (!parsed.success) return { ok: false, message: describeIssues(parsed.error.issues) }
  const { seq: _seq, time: _time, ...event } = parsed.data
  return { ok: true, event }
}

/** An error (or anything thrown) as it can cross the port. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error)
    return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
  return { name: 'Error', message: String(error) }
}

function parse<T>(schema: z.ZodType<T>, raw: unknown, direction: string): T {
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  const type =
    typeof raw === 'object' && raw !== null && 'type' in raw ? String((raw as { type: unknown }).type) : '(no type)'
  throw new WorkerProtocolError(
    `Invalid ${direction} message '${type}': ${describeIssues(parsed.error.issues)}. The worker bundle and the main process are out of step: rebuild with npm run build.`
  )
}

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ')
}
