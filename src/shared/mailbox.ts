import { z } from 'zod'
import {
  PermissionPromptAnswerSchema,
  PermissionPromptRequestSchema,
  type PermissionPromptAnswer,
  type PermissionPromptRequest
} from './permissions'

/**
 * Mailbox messages and the structured team protocol (docs/teams.md#mailbox), shared by the runtime, the CLI
 * and the UI's mailbox inspector. No Node imports: this file is compiled for the renderer too.
 *
 * A message is one JSON file on disk (`<home>/teams/{team}/inboxes/{agent}/{new|cur}/{id}.json`);
 * its read state is the folder it lies in, not a field. Structured protocol messages are ordinary
 * messages whose `text` is a JSON object with a `type` — the envelope stays the same for every
 * kind, as in Claude Code's inbox, so a reader that does not know a type still reads the message.
 */

/** Version of the on-disk message shape; bump and migrate on any incompatible change. */
export const MAILBOX_SCHEMA_VERSION = 1

/** One message as stored in an inbox (docs/teams.md#mailbox). `timestamp` is ISO 8601 (UTC). */
export const MailboxMessageSchema = z.object({
  schemaVersion: z.literal(MAILBOX_SCHEMA_VERSION),
  /** Unique, sortable id; also the file's name without `.json`. */
  id: z.string().regex(/^[0-9a-z-]{1,120}$/, 'id must be the message file name: [0-9a-z-]'),
  /** The sender's agent name (`team-lead`, `alice`, `user`…). */
  from: z.string().min(1).max(200),
  /** The recipient's agent name (the inbox's owner). */
  to: z.string().min(1).max(200),
  /** Plain text, or the JSON body of a structured message. */
  text: z.string(),
  timestamp: z.string().min(1),
  /** The sender's colour in the UI (a palette name or a CSS colour). */
  color: z.string().optional(),
  /** A 5–10 word preview shown in UIs and in the model's `summary` attribute. */
  summary: z.string().optional()
})
export type MailboxMessage = z.infer<typeof MailboxMessageSchema>

/**
 * Summary of a person's message to a teammate (the UI sends it in the leader's name, since the
 * person speaks for the leader's side of the team). The teammate's model sees it as the
 * `summary` attribute (docs/teams.md#mailbox); the teammate's pane shows such a message as the person's.
 */
export const PERSON_MESSAGE_SUMMARY = 'from the person at the workspace'

/** Whether `message` is a person's message from the UI (see {@link PERSON_MESSAGE_SUMMARY}), sent in the name of `leader`. */
export function isPersonMessage(message: Pick<MailboxMessage, 'from' | 'summary'>, leader: string): boolean {
  return message.from === leader && message.summary === PERSON_MESSAGE_SUMMARY
}

// Bodies of the structured messages. Field names follow Claude Code's teammate mailbox
// (`requestId`, `toolName`, `assignedBy`, `idleReason`…). Objects are loose: fields a newer writer
// adds survive a round trip through an older reader.

/** A teammate went idle (its turn ended); sent to the leader with what it did. */
export const IdleNotificationSchema = z.looseObject({
  type: z.literal('idle_notification'),
  from: z.string(),
  summary: z.string().optional(),
  /** Why the turn ended: `available` (done), `interrupted`, `failed`. */
  idleReason: z.enum(['available', 'interrupted', 'failed']).optional(),
  /** With `failed` after a model error: why the model call failed and which retries happened (Claude Code's field). */
  failureReason: z.string().optional(),
  /**
   * Swarmdesk's field beside `failureReason`: `model` when the model call failed, `turn` when the
   * turn failed around it (its transcript could not be written, a tool crashed the loop). Absent
   * (Claude Code's writers) reads as `model`.
   */
  failureKind: z.enum(['model', 'turn']).optional(),
  completedTaskId: z.string().optional()
})

const PromptRequest = PermissionPromptRequestSchema.shape

/**
 * A process teammate asks the leader to decide a tool call (docs/teams.md#permission-requests). Never shown to a model.
 * The {@link PermissionPromptRequest} under Claude Code's field names (`tool` → `toolName`,
 * `reason` → `description`, an object `input`); see {@link permissionRequestBody}.
 */
export const PermissionRequestSchema = z
  .looseObject({
    type: z.literal('permission_request'),
    requestId: PromptRequest.requestId.min(1),
    agentId: PromptRequest.agentId.optional(),
    agentName: PromptRequest.agentName.optional(),
    toolName: PromptRequest.tool.min(1),
    toolUseId: z.string().optional(),
    input: z.record(z.string(), z.unknown()),
    description: PromptRequest.reason.optional()
  })
  .refine((b) => b.agentId !== undefined || b.agentName !== undefined, {
    message: 'permission_request needs agentId or agentName'
  })

/**
 * The leader's answer to a `permission_request`. Claude Code nests it as `{subtype: success|error,
 * response}`; here the decision is a plain `allow | deny` (a discriminated value, not a flag pair),
 * with the updated input on allow and the reason on deny.
 */
export const PermissionResponseSchema = z.looseObject({
  type: z.literal('permission_response'),
  requestId: z.string().min(1),
  decision: z.enum(['allow', 'deny']),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  reason: z.string().optional(),
  /** Who decided: a person (`user`, the default when absent) or the leader's `--approve` flag. */
  by: PermissionPromptAnswerSchema.options[0].shape.by.optional()
})

/**
 * A process teammate's sandboxed command asks to reach a host sandbox.network does not list
 * (docs/sandbox.md#network); the leader puts it to a person. Claude Code's fields: the asker as
 * `workerId`/`workerName`, the host under `hostPattern`, `createdAt` in ms since the epoch.
 */
export const SandboxPermissionRequestSchema = z.looseObject({
  type: z.literal('sandbox_permission_request'),
  requestId: z.string().min(1),
  workerId: z.string().min(1),
  workerName: z.string().min(1),
  workerColor: z.string().optional(),
  hostPattern: z.looseObject({ host: z.string().min(1) }),
  createdAt: z.number().optional()
})

/** The leader's answer to a `sandbox_permission_request`: the host, allowed or not, and when (ISO time). */
export const SandboxPermissionResponseSchema = z.looseObject({
  type: z.literal('sandbox_permission_response'),
  requestId: z.string().min(1),
  host: z.string().min(1),
  allow: z.boolean(),
  timestamp: z.string().optional(),
  /** Why it was refused, when a person said (Swarmdesk's field). */
  reason: z.string().optional()
})

/** A plan-mode teammate's ExitPlanMode: the plan awaits the leader's approval (docs/teams.md#plan-approval). */
export const PlanApprovalRequestSchema = z.looseObject({
  type: z.literal('plan_approval_request'),
  requestId: z.string().min(1),
  plan: z.string(),
  planFilePath: z.string().optional()
})

/** The leader's verdict on a plan; `permissionMode` is the mode granted on approval. */
export const PlanApprovalResponseSchema = z.looseObject({
  type: z.literal('plan_approval_response'),
  requestId: z.string().min(1),
  approve: z.boolean(),
  feedback: z.string().optional(),
  permissionMode: z.string().optional()
})

/** The leader asks a teammate to finish and exit (docs/teams.md#teammate-life-cycle). */
export const ShutdownRequestSchema = z.looseObject({
  type: z.literal('shutdown_request'),
  requestId: z.string().min(1),
  reason: z.string().optional()
})

/** A teammate accepts a shutdown request and exits. */
export const ShutdownApprovedSchema = z.looseObject({
  type: z.literal('shutdown_approved'),
  requestId: z.string().min(1),
  from: z.string().optional()
})

/** A teammate declines a shutdown request, saying why. */
export const ShutdownRejectedSchema = z.looseObject({
  type: z.literal('shutdown_rejected'),
  requestId: z.string().min(1),
  from: z.string().optional(),
  reason: z.string()
})

/** A task of the shared list was assigned to the recipient (docs/teams.md#shared-task-list). */
export const TaskAssignmentSchema = z.looseObject({
  type: z.literal('task_assignment'),
  taskId: z.string().min(1),
  subject: z.string(),
  description: z.string().optional(),
  assignedBy: z.string()
})

/** The leader (or the UI) changes a teammate's permission mode. Never shown to a model. */
export const ModeSetRequestSchema = z.looseObject({
  type: z.literal('mode_set_request'),
  mode: z.string().min(1),
  from: z.string().optional()
})

/** Every structured body, by `type`. */
export const PROTOCOL_SCHEMAS = {
  idle_notification: IdleNotificationSchema,
  permission_request: PermissionRequestSchema,
  permission_response: PermissionResponseSchema,
  sandbox_permission_request: SandboxPermissionRequestSchema,
  sandbox_permission_response: SandboxPermissionResponseSchema,
  plan_approval_request: PlanApprovalRequestSchema,
  plan_approval_response: PlanApprovalResponseSchema,
  shutdown_request: ShutdownRequestSchema,
  shutdown_approved: ShutdownApprovedSchema,
  shutdown_rejected: ShutdownRejectedSchema,
  task_assignment: TaskAssignmentSchema,
  mode_set_request: ModeSetRequestSchema
} as const

/** The structured message types of docs/teams.md#mailbox. */
export type ProtocolType = keyof typeof PROTOCOL_SCHEMAS
export const PROTOCOL_TYPES = Object.keys(PROTOCOL_SCHEMAS) as ProtocolType[]

/** A parsed structured body, discriminated by `type`. */
export type ProtocolBody = { [K in ProtocolType]: z.infer<(typeof PROTOCOL_SCHEMAS)[K]> }[ProtocolType]

/**
 * What a message's `text` is:
 * - `plain`: not a JSON object with a known protocol `type`;
 * - `structured`: a valid protocol body;
 * - `invalid`: claims a protocol `type` but its body does not match the schema (`error` says why).
 */
export type MessageBody =
  | { kind: 'plain'; text: string }
  | { kind: 'structured'; body: ProtocolBody }
  | { kind: 'invalid'; type: ProtocolType; error: string }

/** Whether `type` is one of the protocol types. */
export function isProtocolType(type: unknown): type is ProtocolType {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(PROTOCOL_SCHEMAS, type)
}

/** Classifies a message's `text` (see {@link MessageBody}). Never throws. */
export function parseMessageBody(text: string): MessageBody {
  const trimmed = text.trimStart()
  if (!trimmed.startsWith('{')) return { kind: 'plain', text }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { kind: 'plain', text }
  }
  const type = (json as { type?: unknown }).type
  if (!isProtocolType(type)) return { kind: 'plain', text }
  const parsed = PROTOCOL_SCHEMAS[type].safeParse(json)
  if (!parsed.success) return { kind: 'invalid', type, error: describeIssues(type, parsed.error.issues) }
  return { kind: 'structured', body: parsed.data as ProtocolBody }
}

/** The body of one protocol `type`, as its schema parses it. */
export type ProtocolBodyOf<K extends ProtocolType> = Extract<ProtocolBody, { type: K }>

/** A protocol body's fields without `type`: what {@link protocolBody} takes for that type. */
export type ProtocolFields<K extends ProtocolType> = Omit<z.input<(typeof PROTOCOL_SCHEMAS)[K]>, 'type'>

/** A structured body that fails its type's schema; the message names the type and each bad field. */
export class ProtocolBodyError extends Error {
  override readonly name = 'ProtocolBodyError'
}

/**
 * Builds the structured body of one protocol type, checked by the schema the reader uses
 * (docs/teams.md#mailbox): the only way a protocol body is made, so a writer can never put a
 * field name or value on disk that {@link parseMessageBody} would refuse. Unknown extra fields
 * are kept (the schemas are loose).
 * @throws ProtocolBodyError naming the type and the invalid fields.
 */
export function protocolBody<K extends ProtocolType>(type: K, fields: ProtocolFields<K>): ProtocolBodyOf<K> {
  return checkProtocolBody({ ...fields, type } as unknown as ProtocolBody) as ProtocolBodyOf<K>
}

/**
 * Checks a body against its type's schema and returns it as parsed.
 * @throws ProtocolBodyError for an unknown `type` or a body its schema refuses.
 */
export function checkProtocolBody(body: ProtocolBody): ProtocolBody {
  const type = (body as { type?: unknown }).type
  if (!isProtocolType(type))
    throw new ProtocolBodyError(`'${String(type)}' is not a protocol message type; known: ${PROTOCOL_TYPES.join(', ')}`)
  const parsed = PROTOCOL_SCHEMAS[type].safeParse(body)
  if (!parsed.success) throw new ProtocolBodyError(`invalid ${type}: ${describeIssues(type, parsed.error.issues)}`)
  return parsed.data as ProtocolBody
}

/**
 * The message `text` of a structured body: its JSON, as stored on disk since schema version 1
 * (the field names of docs/teams.md#mailbox). Checked against its schema first.
 * @throws ProtocolBodyError for a body its schema refuses.
 */
export function protocolText(body: ProtocolBody): string {
  return JSON.stringify(checkProtocolBody(body))
}

/**
 * Reads `text` as a body of `type`: the parsed body when `text` is a valid body of that type,
 * undefined for plain text, another type or an invalid body. Never throws.
 */
export function parseProtocolBody<K extends ProtocolType>(text: string, type: K): ProtocolBodyOf<K> | undefined {
  const body = parseMessageBody(text)
  return body.kind === 'structured' && body.body.type === type ? (body.body as ProtocolBodyOf<K>) : undefined
}

function describeIssues(type: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || type}: ${i.message}`).join('; ')
}

/** The `kind` of a `message_sent` event (docs/events.md#event-stream-and-command-line): `plain` or the structured type. */
export function messageKind(text: string): 'plain' | ProtocolType {
  const body = parseMessageBody(text)
  return body.kind === 'structured' ? body.body.type : body.kind === 'invalid' ? body.type : 'plain'
}

/**
 * A permission question as a process teammate's `permission_request` body (docs/teams.md#permission-requests):
 * the same request under the mailbox's field names. `input` that is not an object is wrapped as
 * `{value}` (the body's `input` is an object, as in Claude Code). `suggestions` and `cwd` stay
 * with the asker: the leader's queue does not offer "Always allow" for another process's rules.
 * @throws ProtocolBodyError when the request does not make a valid body (an empty id or tool).
 */
export function permissionRequestBody(request: PermissionPromptRequest): ProtocolBodyOf<'permission_request'> {
  const input =
    typeof request.input === 'object' && request.input !== null && !Array.isArray(request.input)
      ? (request.input as Record<string, unknown>)
      : { value: request.input }
  return protocolBody('permission_request', {
    requestId: request.requestId,
    agentId: request.agentId,
    agentName: request.agentName,
    toolName: request.tool,
    input,
    description: request.reason
  })
}

/**
 * The {@link PermissionPromptRequest} a `permission_request` body asks, for the leader's queue:
 * the asker as the leader knows it (`agentId`, `agentName`: the body's own are the sender's word),
 * no rule suggestions, and `reason` defaulting to "{tool} needs approval".
 */
export function permissionPromptOf(
  body: ProtocolBodyOf<'permission_request'>,
  asker: { agentId: string; agentName: string }
): PermissionPromptRequest {
  return {
    requestId: body.requestId,
    agentId: asker.agentId,
    agentName: asker.agentName,
    tool: body.toolName,
    input: body.input,
    reason: body.description ?? `${body.toolName} needs approval`,
    suggestions: []
  }
}

/**
 * The leader's answer as a `permission_response` body. A `cancelled` answer is never sent (the
 * asker withdrew the question), so it has no body.
 * @throws ProtocolBodyError for a cancelled answer or an empty request id.
 */
export function permissionResponseBody(
  requestId: string,
  answer: PermissionPromptAnswer
): ProtocolBodyOf<'permission_response'> {
  if (answer.by === 'cancelled')
    throw new ProtocolBodyError('a cancelled permission answer is not sent: the question was withdrawn')
  return protocolBody('permission_response', {
    requestId,
    decision: answer.decision,
    by: answer.by,
    ...(answer.decision === 'deny' && answer.reason ? { reason: answer.reason } : {})
  })
}

/** The {@link PermissionPromptAnswer} a `permission_response` body carries (`by` absent: a person, as older leaders wrote it). */
export function permissionAnswerOf(body: ProtocolBodyOf<'permission_response'>): PermissionPromptAnswer {
  const by = body.by ?? 'user'
  return body.decision === 'allow'
    ? { decision: 'allow', by }
    : { decision: 'deny', by, ...(body.reason ? { reason: body.reason } : {}) }
}
