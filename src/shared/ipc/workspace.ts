import { z } from 'zod'
import { UsageSchema } from '../events'
import { PermissionModeSchema } from '../permissions'
import { MemberActivitySchema } from '../memberActivity'
import { MAX_PANE_SCROLLBACK_LINES, MIN_PANE_SCROLLBACK_LINES } from '../paneScrollback'
import { AgentViewSchema } from './agents'
import { Empty, Ok } from './common'
import { PendingPermissionSchema } from './permissions'
import { TeamAllowedPathsSchema } from './team'
import { SandboxStatusSchema } from '../settings'
import { TeamTransportViewSchema } from '../teamConnection'

/**
 * Fork and coordinator mode of the session (docs/agents.md#forks, docs/agents.md#coordinator-mode). `coordinator` wins, so `fork` is false
 * while it is on. `switchable`: they may still change (a new session before its first prompt).
 */
export const OrchestrationSchema = z.object({ fork: z.boolean(), coordinator: z.boolean(), switchable: z.boolean() })
export type Orchestration = z.infer<typeof OrchestrationSchema>

/**
 * Whether the workspace's model can be reached (issue 29: a first run opens without an API key).
 * `noApiKey` is present while no key is set: `message` says how to add one, `fix` where —
 * `settings` (the app: Settings stores it with the OS keychain) or `environment` (the web host:
 * restart `swarmdesk serve` with ANTHROPIC_API_KEY, or enter one in Settings for this run only).
 * Absent for the scripted model, which needs none.
 */
export const ModelAccessSchema = z.object({
  noApiKey: z.object({ message: z.string(), fix: z.enum(['settings', 'environment']) }).optional()
})
export type ModelAccess = z.infer<typeof ModelAccessSchema>

/** Everything a freshly (re)loaded UI needs to draw the workspace. */
export const WorkspaceSnapshotSchema = z.object({
  sessionId: z.string(),
  cwd: z.string(),
  model: z.string(),
  mode: PermissionModeSchema,
  /** True when the model is the scripted model server (docs/model.md#model-access: labelled wherever used). */
  scripted: z.boolean(),
  /** The leader is working on a prompt. */
  busy: z.boolean(),
  agents: z.array(AgentViewSchema),
  permissions: z.array(PendingPermissionSchema),
  usage: UsageSchema,
  costUsd: z.number().nonnegative(),
  /** Highest event `seq` reflected in this snapshot; pushed events with seq ≤ this are already included. */
  lastSeq: z.number().int().nonnegative(),
  /** The session's team (docs/teams.md#team-config), when it leads one. */
  team: z.string().optional(),
  /** Per agent id: last event, last message, context used (docs/ui.md#the-workspace-ui team dashboard). */
  activity: z.record(z.string(), MemberActivitySchema).optional(),
  /** The `stuckAfterMinutes` setting: a running agent silent this long is marked stuck (docs/ui.md#the-workspace-ui). */
  stuckAfterMinutes: z.number().positive().optional(),
  /** The `paneScrollbackLines` setting: lines of scrollback each pane's terminal keeps in the page (src/shared/paneScrollback.ts). */
  paneScrollbackLines: z.number().int().min(MIN_PANE_SCROLLBACK_LINES).max(MAX_PANE_SCROLLBACK_LINES).optional(),
  /** The Bash sandbox as it applies now (docs/sandbox.md): the panes mark their Bash as sandboxed while it is `active`. */
  sandbox: SandboxStatusSchema.optional(),
  /** Fork and coordinator mode (docs/agents.md#forks, docs/agents.md#coordinator-mode); absent when subagents are off. */
  orchestration: OrchestrationSchema.optional(),
  /** Whether the model can be reached (no API key yet); pushed again as `model.access` when it changes. */
  modelAccess: ModelAccessSchema.optional(),
  /** The scripted model's scenario's suggested prompt (its `prompt:` field), for the first screen's button (docs/ui.md#the-first-screen). */
  suggestedPrompt: z.string().optional(),
  /**
   * Where the team lives — the files, or a NATS server's URLs (never a credential) and the state of
   * the connection to it (docs/nats.md#connection-state); pushed again as `team.transport` when the state changes.
   */
  teamTransport: TeamTransportViewSchema.optional(),
  /**
   * The session's team's allowed paths (docs/teams.md#allowed-paths); pushed again as
   * `team.allowedPaths` when they change (from the UI, the CLI, another machine).
   */
  allowedPaths: TeamAllowedPathsSchema.optional(),
  /** The leader's conversation has begun (a prompt, or a message that woke it): the first screen's hints are gone. */
  leaderStarted: z.boolean().optional()
})
export type WorkspaceSnapshot = z.infer<typeof WorkspaceSnapshotSchema>

/** Requests about the workspace as a whole and its leader: the snapshot, prompts, stop, modes. */
export const workspaceChannels = {
  /** State of the whole workspace, for first paint and after a reload. */
  'workspace.snapshot': { request: Empty, response: WorkspaceSnapshotSchema },
  /** A person's message to the leader. Rejected while the leader is busy. */
  'leader.prompt': { request: z.object({ text: z.string().trim().min(1).max(200_000) }).strict(), response: Ok },
  /** Stops the leader's current turn (its tools and sync subagents). */
  'leader.stop': { request: Empty, response: Ok },
  /**
   * Stop all (docs/ui.md#the-workspace-ui top bar): stops the leader's turn, every running subagent, and kills every
   * live teammate at once — an emergency brake, not a graceful end (a row's Shut down is that);
   * a killed teammate's unfinished tasks return to pending (docs/teams.md#teammate-life-cycle). Returns who was stopped.
   */
  'workspace.stopAll': {
    request: Empty,
    response: z.object({
      ok: z.literal(true),
      subagents: z.number().int().nonnegative(),
      teammates: z.array(z.string())
    })
  },
  /**
   * Switches fork and coordinator mode before the session's first prompt (docs/agents.md#coordinator-mode's session
   * switch); coordinator wins. Refused once the leader has history or is working.
   */
  'workspace.setOrchestration': {
    request: z.object({ fork: z.boolean(), coordinator: z.boolean() }).strict(),
    response: OrchestrationSchema
  },
  /** The person changed the permission mode. */
  'workspace.setMode': { request: z.object({ mode: PermissionModeSchema.exclude(['bubble']) }).strict(), response: Ok }
} as const
