import { z } from 'zod'
import { SandboxMarkSchema } from './events'

/**
 * Permission modes (docs/permissions.md#permissions). `bubble` is internal: the agent's prompts go to its parent's queue.
 */
export const PermissionModeSchema = z.enum(['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions', 'bubble'])
export type PermissionMode = z.infer<typeof PermissionModeSchema>

/** Modes a person may choose (everything but the internal `bubble`). */
export const USER_PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const

/**
 * What a tool call touches, as far as permissions care. Each tool maps its input to one subject
 * (`Tool.permissionSubject`); the engine decides on the subject, so it never needs to know a
 * tool's input shape.
 * - `read`: the tool reads `path` (Read, Glob, Grep): governed by `Read(...)` rules.
 * - `edit`: the tool writes `path` (Write, Edit): governed by `Edit(...)` rules.
 * - `bash`: a shell command, analysed subcommand by subcommand.
 * - `tool`: decided by `Tool`/`Tool(specifier)` rules and the mode (e.g. Agent(Explore)); `tool` is the
 *   tool's name (optional: the engine also takes it from the decide context).
 *   `grantsMode`: the call would start an agent in this permission mode (a teammate spawned with
 *   `mode`); unless the caller already runs in a mode at least as permissive, that escalation asks
 *   (refused in `plan` and `dontAsk`) whatever the allow rules say — a rule allows starting the
 *   agent, not handing it more than its spawner has.
 *   `reachesNetwork`: the call fetches from the network (WebFetch): unless a rule decides, it asks in
 *   every mode but bypassPermissions — even in plan mode, since it only reads.
 * - `none`: always allowed (the agent's own bookkeeping: BashOutput, KillShell of its shells).
 */
export type PermissionSubject =
  | { kind: 'read'; path: string }
  | { kind: 'edit'; path: string }
  | { kind: 'bash'; command: string }
  | {
      kind: 'tool'
      tool?: string
      specifier?: string
      readOnly: boolean
      grantsMode?: 'acceptEdits' | 'bypassPermissions'
      reachesNetwork?: boolean
    }
  | { kind: 'none' }

/**
 * The engine's answer for one tool call (docs/permissions.md#permissions): a discriminated union, never flags.
 * `reason` is written for a person and for the model (a denial's reason is sent back to it);
 * `rule` is the rule that decided, as written in its settings file (`Bash(npm run test:*)`),
 * with the file it came from.
 */
export type PermissionDecision = {
  decision: 'allow' | 'deny' | 'ask'
  reason: string
  rule?: { rule: string; source: string }
}

/**
 * A question put to a person (or to `--approve`) because the engine answered `ask`: the one
 * permission-request shape (docs/teams.md#permission-requests). Every surface derives from it:
 * the worker bridge's `permission.prompt` carries it as is, the UI's pending permission
 * (`PendingPermissionSchema` in src/shared/ipc/permissions.ts) extends it, and a process teammate's
 * `permission_request` mailbox body is its mapping onto Claude Code's field names
 * (`permissionRequestBody` / `permissionPromptOf` in src/shared/mailbox.ts).
 */
export const PermissionPromptRequestSchema = z.object({
  /** `perm-{16 hex}` (see `newRequestId` in src/main/runtime/mailbox); any non-empty id is read. */
  requestId: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  tool: z.string(),
  input: z.unknown(),
  /** The engine's reason for asking, shown with the question. */
  reason: z.string(),
  /** Rules the person could add with "Always allow", e.g. `Bash(npm test:*)`. */
  suggestions: z.array(z.string()),
  /**
   * The asking agent's working directory (its worktree when isolated), where a command runs and
   * a relative path points; absent when the asker does not know it.
   */
  cwd: z.string().optional(),
  /**
   * A Bash command's, while the sandbox is on: how it would run if allowed — sandboxed, or outside
   * and why (docs/sandbox.md#the-pane-mark); the card shows it.
   */
  sandbox: SandboxMarkSchema.optional()
})
export type PermissionPromptRequest = z.infer<typeof PermissionPromptRequestSchema>

/** A person's (or the `--approve` flag's) answer to a {@link PermissionPromptRequest}. */
export const PermissionPromptAnswerSchema = z.discriminatedUnion('decision', [
  z.object({
    decision: z.literal('allow'),
    by: z.enum(['user', 'approve-flag']),
    alwaysAllowRule: z.string().optional()
  }),
  z.object({
    decision: z.literal('deny'),
    by: z.enum(['user', 'approve-flag', 'cancelled']),
    reason: z.string().optional()
  })
])
export type PermissionPromptAnswer = z.infer<typeof PermissionPromptAnswerSchema>

/**
 * The tool name of a sandbox network question (docs/sandbox.md#network): a permission request with
 * input `{host}`, whose one "always allow" rule is the host, kept in the local settings.
 */
export const SANDBOX_NETWORK_TOOL = 'SandboxNetwork'
