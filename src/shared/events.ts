import { z } from 'zod'
import { TodoListSchema } from './todos'

/**
 * The runtime's event stream (docs/events.md#event-stream-and-command-line): the one contract the CLI's `--json` output, the UI and
 * the web host consume. Every event carries `seq` (strictly increasing per stream), `type`, `time`
 * (ISO 8601), `agentId` and `agentName`. Consumers must ignore unknown `type`s, so parse with
 * {@link parseRuntimeEvent}, which returns `undefined` for them instead of throwing.
 */

/** Liveness states of an agent (docs/teams.md#teammate-life-cycle), shown everywhere an agent is. */
export const AgentStateSchema = z.enum([
  'starting',
  'running',
  'idle',
  'awaiting_permission',
  'awaiting_plan_approval',
  'stopping',
  'exited',
  'crashed',
  // Its last model call failed (after the retries the SDK and the runtime make): `reason` says why.
  // The agent waits; the next prompt or message retries it.
  'error',
  // Restored after a restart: the agent was working when the workspace's process ended; a Resume continues it.
  'interrupted'
])
export type AgentState = z.infer<typeof AgentStateSchema>

/** Token usage of one model response, or a sum of them. Units: tokens. */
export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheCreationInputTokens: z.number().int().nonnegative(),
  cacheReadInputTokens: z.number().int().nonnegative()
})
export type Usage = z.infer<typeof UsageSchema>

/** A zero usage, the identity of {@link addUsage}. */
export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0
})

/** Sums two usages field by field. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens
  }
}

const base = {
  seq: z.number().int().nonnegative(),
  time: z.string(),
  agentId: z.string(),
  agentName: z.string()
}

/** Who settled a permission request (docs/events.md#event-stream-and-command-line). */
export const DecidedBySchema = z.enum(['rule', 'mode', 'user', 'approve-flag', 'hook', 'cancelled'])
export type DecidedBy = z.infer<typeof DecidedBySchema>

export const AgentStartedEventSchema = z.object({
  ...base,
  type: z.literal('agent_started'),
  agentType: z.string(),
  parentId: z.string().optional(),
  /** Teammates only: where it runs (docs/teams.md#spawning-a-teammate). */
  backend: z.enum(['worker', 'process']).optional(),
  /** Teammates on another host only: the host's name in the `teammateHosts` setting (docs/hosts.md). */
  host: z.string().optional(),
  /** Teammates only: its team colour from the team config (`blue`, `green`…, docs/teams.md#spawning-a-teammate). */
  color: z.string().optional(),
  depth: z.number().int().nonnegative(),
  model: z.string().optional(),
  cwd: z.string().optional()
})

export const AgentStateEventSchema = z.object({
  ...base,
  type: z.literal('agent_state'),
  state: AgentStateSchema,
  /** With `error`: why the model call failed and which retries happened (the notice beside it says the same). */
  reason: z.string().optional()
})

export const AssistantTextEventSchema = z.object({
  ...base,
  type: z.literal('assistant_text'),
  text: z.string()
})

export const ToolCallEventSchema = z.object({
  ...base,
  type: z.literal('tool_call'),
  toolUseId: z.string(),
  name: z.string(),
  input: z.unknown()
})

/**
 * How a Bash command ran with respect to the sandbox (docs/sandbox.md#the-pane-mark): `sandboxed`
 * under bubblewrap; outside it because `excludedCommands` names it (`excluded`), a person approved
 * its `dangerouslyDisableSandbox` (`unsandboxed`), or the sandbox cannot start here (`unavailable`).
 */
export const SandboxMarkSchema = z.enum(['sandboxed', 'excluded', 'unsandboxed', 'unavailable'])
export type SandboxMark = z.infer<typeof SandboxMarkSchema>

/** A {@link SandboxMark} in words, as the pane and the CLI show it beside a command's result. */
export function sandboxMarkText(mark: SandboxMark): string {
  switch (mark) {
    case 'sandboxed':
      return 'sandboxed'
    case 'excluded':
      return 'outside the sandbox: excludedCommands'
    case 'unsandboxed':
      return 'outside the sandbox: dangerouslyDisableSandbox'
    case 'unavailable':
      return 'outside the sandbox: it cannot start here'
  }
}

export const ToolResultEventSchema = z.object({
  ...base,
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  isError: z.boolean(),
  output: z.string(),
  /** A Bash command's, while the sandbox is on: whether it ran sandboxed, or outside and why. */
  sandbox: SandboxMarkSchema.optional()
})

/**
 * Raw terminal output of a tool running in a PTY (ANSI intact), for the agent's pane. Not in the
 * CLI's minimum list (docs/events.md#event-stream-and-command-line) but part of the stream the UI consumes; consumers that do not
 * render terminals ignore it.
 */
export const ToolOutputEventSchema = z.object({
  ...base,
  type: z.literal('tool_output'),
  toolUseId: z.string(),
  data: z.string()
})

/**
 * Raw output of an agent whose pane IS a terminal (a `process` teammate, docs/design.md#process-model: its pane shows
 * the terminal it runs in, ANSI intact). The CLI's `--json` stream leaves it out unless asked;
 * consumers that do not render terminals ignore it.
 */
export const TerminalOutputEventSchema = z.object({
  ...base,
  type: z.literal('terminal_output'),
  data: z.string()
})

export const PermissionRequestEventSchema = z.object({
  ...base,
  type: z.literal('permission_request'),
  requestId: z.string(),
  tool: z.string(),
  input: z.unknown(),
  reason: z.string().optional()
})

export const PermissionDecidedEventSchema = z.object({
  ...base,
  type: z.literal('permission_decided'),
  requestId: z.string(),
  decision: z.enum(['allow', 'deny']),
  by: DecidedBySchema,
  reason: z.string().optional(),
  /**
   * An "Always allow" answer: the allow rule it added to the agent's session rules
   * (docs/permissions.md#permissions); for a `SandboxNetwork` question, the host written into the
   * local settings' `sandbox.network.allowedDomains` (docs/sandbox.md#network).
   */
  rule: z.string().optional()
})

/**
 * What the person said to an agent, for its pane to show as theirs (Claude Code's `> prompt`): a
 * prompt to the leader, or a message to a teammate from the UI (shown when the teammate takes it
 * into a turn, in order with its output). `agentId` is the agent spoken to.
 */
export const UserPromptEventSchema = z.object({
  ...base,
  type: z.literal('user_prompt'),
  text: z.string()
})

export const MessageSentEventSchema = z.object({
  ...base,
  type: z.literal('message_sent'),
  from: z.string(),
  to: z.string(),
  kind: z.string()
})

export const TaskNotificationEventSchema = z.object({
  ...base,
  type: z.literal('task_notification'),
  taskId: z.string(),
  status: z.enum(['completed', 'failed', 'killed'])
})

export const TaskUpdatedEventSchema = z.object({
  ...base,
  type: z.literal('task_updated'),
  task: z.record(z.string(), z.unknown())
})

/** An agent's todo list after a TodoWrite that succeeded: the whole list, which replaces the one before (docs/tools.md#todowrite). */
export const TodosUpdatedEventSchema = z.object({
  ...base,
  type: z.literal('todos_updated'),
  todos: TodoListSchema
})

export const UsageEventSchema = z.object({
  ...base,
  type: z.literal('usage'),
  ...UsageSchema.shape,
  model: z.string().optional(),
  costUsd: z.number().nonnegative().optional()
})

export const AgentStoppedEventSchema = z.object({
  ...base,
  type: z.literal('agent_stopped'),
  status: z.enum(['completed', 'failed', 'killed', 'crashed', 'exited']),
  reason: z.string().optional()
})

export const ScenarioErrorEventSchema = z.object({
  ...base,
  type: z.literal('scenario_error'),
  message: z.string()
})

/** Non-fatal notices a person should see (an ignored untrusted setting, a retry, a compaction). */
export const NoticeEventSchema = z.object({
  ...base,
  type: z.literal('notice'),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string()
})

/**
 * A headless run found its team stuck (docs/events.md#event-stream-and-command-line `run`): nothing is in flight, the leader is idle,
 * and each of `waits` waits for an answer that no one in the run can give (a plan the leader left
 * unanswered, with no person asked). The run then shuts the team down and finishes as failed.
 */
export const RunBlockedEventSchema = z.object({
  ...base,
  type: z.literal('run_blocked'),
  /** One line for a person: who waits for what. */
  message: z.string(),
  waits: z.array(
    z.object({
      agentId: z.string(),
      agentName: z.string(),
      state: AgentStateSchema,
      /** Who alone could answer (`team-lead`). */
      waitsFor: z.string(),
      /** What it waits for, in words (`approval of its plan`). */
      what: z.string(),
      requestId: z.string().optional()
    })
  )
})

export const RunFinishedEventSchema = z.object({
  ...base,
  type: z.literal('run_finished'),
  status: z.enum(['ok', 'failed']),
  usage: UsageSchema,
  costUsd: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
  reason: z.string().optional(),
  sessionId: z.string().optional()
})

/** Every event type the runtime emits, discriminated on `type`. */
export const RuntimeEventSchema = z.discriminatedUnion('type', [
  AgentStartedEventSchema,
  AgentStateEventSchema,
  AssistantTextEventSchema,
  ToolCallEventSchema,
  ToolResultEventSchema,
  ToolOutputEventSchema,
  TerminalOutputEventSchema,
  PermissionRequestEventSchema,
  PermissionDecidedEventSchema,
  UserPromptEventSchema,
  MessageSentEventSchema,
  TaskNotificationEventSchema,
  TaskUpdatedEventSchema,
  TodosUpdatedEventSchema,
  UsageEventSchema,
  AgentStoppedEventSchema,
  ScenarioErrorEventSchema,
  NoticeEventSchema,
  RunBlockedEventSchema,
  RunFinishedEventSchema
])
export type RuntimeEvent = z.infer<typeof RuntimeEventSchema>
export type RuntimeEventType = RuntimeEvent['type']

/** The event of one `type`, e.g. `EventOf<'tool_call'>`. */
export type EventOf<T extends RuntimeEventType> = Extract<RuntimeEvent, { type: T }>

/**
 * An event as an emitter hands it to the bus: the bus stamps `seq` and `time`.
 * The distributive conditional keeps the union discriminated.
 */
export type RuntimeEventInput = RuntimeEvent extends infer E
  ? E extends RuntimeEvent
    ? Omit<E, 'seq' | 'time'>
    : never
  : never

const KNOWN_TYPES = new Set<string>(RuntimeEventSchema.options.map((o) => o.shape.type.value))

/**
 * Parses one event from untrusted input (a JSON line, a WebSocket frame).
 * @returns the event; `undefined` for an object whose `type` this version does not know (docs/events.md#event-stream-and-command-line:
 *   consumers ignore unknown types).
 * @throws z.ZodError when a known type is malformed, or the value is not an event object at all.
 */
export function parseRuntimeEvent(value: unknown): RuntimeEvent | undefined {
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    !KNOWN_TYPES.has((value as { type: string }).type)
  ) {
    return undefined
  }
  return RuntimeEventSchema.parse(value)
}
