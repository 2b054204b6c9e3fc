import { z } from 'zod'
import { AgentStateSchema, RuntimeEventSchema, UsageSchema } from './events'
import { PermissionModeSchema } from './permissions'
import { MemberActivitySchema } from './memberActivity'
import { PROTOCOL_TYPES, type ProtocolType } from './mailbox'
import { TaskIdSchema, TaskSchema, TaskStatusSchema } from './tasks'
import { ApiKeyStatusSchema, SettingsPatchSchema, SettingsViewSchema } from './settings'
import { TerminalSizeSchema } from './terminalSize'
import { MAX_PANE_SCROLLBACK_LINES, MIN_PANE_SCROLLBACK_LINES } from './paneScrollback'
import { OpenSessionSchema, SessionListSchema } from './sessions'

/**
 * The one contract between the workspace runtime and any UI (docs/design.md#process-model, STYLE.md 2): every
 * request channel with its request and response schemas, and every pushed event with its payload
 * schema. The Electron IPC handlers, the preload API, the web host's WebSocket bridge and the
 * renderer's client are all typed from this object; nobody types a channel string twice.
 *
 * Payloads are validated with these schemas on the receiving side of every hop (main validates
 * what the renderer sends; the renderer validates what it receives).
 */

/** An agent as the UI shows it. */
export const AgentViewSchema = z.object({
  agentId: z.string(),
  agentName: z.string(),
  agentType: z.string(),
  parentId: z.string().optional(),
  depth: z.number().int().nonnegative(),
  state: AgentStateSchema,
  /** While `state` is `error`: why its last model call failed and which retries happened. */
  error: z.string().optional(),
  model: z.string().optional(),
  /** Hex colour (`#rrggbb`) for the agent's badge and pane header. */
  color: z.string(),
  usage: UsageSchema,
  costUsd: z.number().nonnegative(),
  /** When it started and ended (ISO), and how it ended, so a reloaded UI shows the same. */
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  endStatus: z.enum(['completed', 'failed', 'killed', 'crashed', 'exited']).optional(),
  /**
   * Teammates only (docs/teams.md#spawning-a-teammate): where it runs. A `process` teammate's pane is its real terminal
   * (its `terminal_output`); a `worker` teammate's pane shows its events like any agent's. Absent
   * for the leader and subagents — its presence is what makes an agent a teammate in the UI.
   */
  backend: z.enum(['worker', 'process']).optional(),
  /**
   * The task it works on now (docs/teams.md#shared-task-list, docs/ui.md#the-workspace-ui "task in its header"): the one it owns with status
   * `in_progress`. `id` is the task id as text (`"3"`). Absent when it has none.
   */
  currentTask: z.object({ id: z.string(), subject: z.string() }).optional()
})
export type AgentView = z.infer<typeof AgentViewSchema>

/** A permission request waiting for a person (docs/ui.md#the-workspace-ui permission bubbles). */
export const PendingPermissionSchema = z.object({
  requestId: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  tool: z.string(),
  input: z.unknown(),
  /** Why the engine asked. */
  reason: z.string(),
  /** Rules "Always allow" may add, most specific first. */
  suggestions: z.array(z.string()),
  /** For Edit/Write: the change as a unified diff of the file, computed in main. */
  diff: z.string().optional(),
  /**
   * The asking agent's working directory (absolute): where a Bash command would run, and what
   * relative paths in the input are relative to. Absent when main does not know the agent.
   */
  cwd: z.string().optional(),
  createdAt: z.string()
})
export type PendingPermission = z.infer<typeof PendingPermissionSchema>

/**
 * A teammate spawned by a person from the team dashboard (docs/teams.md#spawning-a-teammate, docs/ui.md#the-workspace-ui): the same inputs as the
 * Agent tool's teammate path. `planRequired` means plan approval first (the teammate starts in
 * `plan` mode whatever `mode` says); `backend` absent = the `teammateBackend` setting.
 */
export const TeammateSpawnRequestSchema = z
  .object({
    name: z.string().trim().min(1, 'give the teammate a name').max(64),
    prompt: z.string().trim().min(1, 'give the teammate something to do').max(200_000),
    /** An agent type from the loaded definitions (docs/agents.md#agent-definitions); default `general-purpose`. */
    agentType: z.string().min(1).max(200).optional(),
    backend: z.enum(['worker', 'process']).optional(),
    mode: PermissionModeSchema.exclude(['bubble', 'plan']).optional(),
    planRequired: z.boolean().optional(),
    /** Short description: the summary of its first message. */
    description: z.string().max(200).optional()
  })
  .strict()

/**
 * A team under `<home>/teams/` whose leader session is gone (a crash, a new session): its name
 * blocks no one once deleted. `reason`: how it was judged stale; `members`: how many it lists.
 */
export const StaleTeamSchema = z.object({ name: z.string(), description: z.string(), members: z.number().int().nonnegative(), reason: z.string() })
export type StaleTeam = z.infer<typeof StaleTeamSchema>

/** What the dashboard's spawn form may offer: the agent types (docs/agents.md#agent-definitions) and the default backend. */
export const SpawnOptionsSchema = z.object({
  agentTypes: z.array(z.object({ name: z.string(), description: z.string() })),
  defaultBackend: z.enum(['worker', 'process']),
  /** The session's team, when it has one: spawning needs it. */
  team: z.string().optional(),
  /** Why spawning is impossible here (subagents or teammates off), when it is. */
  unavailable: z.string().optional()
})
export type SpawnOptions = z.infer<typeof SpawnOptionsSchema>

/**
 * Fork and coordinator mode of the session (docs/agents.md#forks, docs/agents.md#coordinator-mode). `coordinator` wins, so `fork` is false
 * while it is on. `switchable`: they may still change (a new session before its first prompt).
 */
export const OrchestrationSchema = z.object({ fork: z.boolean(), coordinator: z.boolean(), switchable: z.boolean() })
export type Orchestration = z.infer<typeof OrchestrationSchema>

/** Everything a freshly (re)loaded UI needs to draw the workspace. */
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
  /** Fork and coordinator mode (docs/agents.md#forks, docs/agents.md#coordinator-mode); absent when subagents are off. */
  orchestration: OrchestrationSchema.optional(),
  /** Whether the model can be reached (no API key yet); pushed again as `model.access` when it changes. */
  modelAccess: ModelAccessSchema.optional(),
  /** The scripted model's scenario's suggested prompt (its `prompt:` field), for the first screen's button. */
  suggestedPrompt: z.string().optional(),
  /** The leader's conversation has begun (a prompt, or a message that woke it): the first screen's hints are gone. */
  leaderStarted: z.boolean().optional()
})
export type WorkspaceSnapshot = z.infer<typeof WorkspaceSnapshotSchema>

/** One pane's acknowledgement in a `pane.ack` request: its `pane.data` chunks up to `chunk` are processed. */
export const PaneAckSchema = z.object({ agentId: z.string().min(1), chunk: z.number().int().nonnegative() }).strict()
export type PaneAck = z.infer<typeof PaneAckSchema>

/** Most acknowledgements one `pane.ack` request carries (one per pane; a page shows far fewer panes). */
export const MAX_PANE_ACKS = 1024

/** A `pane.mute` request: the agent whose pane's live output the asking page stops (`muted: true`) or resumes taking. */
export const PaneMuteSchema = z.object({ agentId: z.string().min(1, 'name the agent whose pane to mute').max(200), muted: z.boolean() }).strict()
export type PaneMute = z.infer<typeof PaneMuteSchema>

/** A pane's scrollback as kept in main: the serialized headless terminal, and the last chunk number it includes. */
export const PaneScrollbackSchema = z.object({
  agentId: z.string(),
  data: z.string(),
  /** Number of the last `pane.data` chunk included; apply only later chunks after writing `data`. */
  chunk: z.number().int().nonnegative(),
  /**
   * Size in cells of main's copy of the pane when `data` was serialized: the size the pane last
   * reported (`pane.resize`), else 120 × 40. `data` ends with cursor moves counted at this size,
   * so write it at this size, then fit the pane (PaneOwner.restore).
   */
  cols: z.number().int().positive(),
  rows: z.number().int().positive()
})
export type PaneScrollback = z.infer<typeof PaneScrollbackSchema>

/** Most messages of one team the mailbox inspector's feed keeps in main; older ones are dropped and counted. */
export const MAILBOX_FEED_MAX = 20_000
/** Most messages one `mailbox.list` page returns. */
export const MAILBOX_PAGE_MAX = 5_000

/** What a message is: `plain` text, or the `type` of its structured body (docs/teams.md#mailbox). */
export const MailboxKindSchema = z.enum(['plain', ...PROTOCOL_TYPES] as ['plain', ...ProtocolType[]])
export type MailboxKind = z.infer<typeof MailboxKindSchema>

/**
 * One message of the team's mailboxes as the inspector shows it (docs/teams.md#mailbox, docs/ui.md#the-workspace-ui). A broadcast
 * (`to: "*"`, docs/teams.md#sendmessage-between-teammates) is delivered as one message per recipient inbox, each with its own id and
 * read state; the inspector shows each copy as its own row and marks it with `broadcast` (every
 * recipient of that broadcast), so filtering by recipient and per-recipient read state stay exact.
 */
export const MailboxEntrySchema = z.object({
  /** `{to}/{id}`: unique within the team. */
  key: z.string(),
  id: z.string(),
  from: z.string(),
  /** The inbox the message lies in. */
  to: z.string(),
  /** ISO 8601 (UTC), as the sender stamped it. */
  timestamp: z.string(),
  /** The sender's team colour (palette name or CSS colour), when it gave one. */
  color: z.string().optional(),
  kind: MailboxKindSchema,
  /** The sender's summary, else a one-line description of the body made in main; never JSON. */
  summary: z.string(),
  /** Read by its recipient (the maildir `cur/` folder). */
  read: z.boolean(),
  /** The message's raw `text`: plain text or the structured body's JSON (shown only on request). */
  text: z.string(),
  /** Set when the body claims a protocol type but does not match its schema: why. */
  invalid: z.string().optional(),
  /** For a copy of a broadcast: every recipient of that broadcast, sorted. */
  broadcast: z.array(z.string()).optional(),
  /** Revision: grows with every change of this entry, so an older copy never overwrites a newer one. */
  rev: z.number().int().positive()
})
export type MailboxEntry = z.infer<typeof MailboxEntrySchema>

/** The team whose mailboxes the inspector follows; `deleted` once TeamDelete removed it (what was seen stays). */
export const MailboxTeamSchema = z.object({ team: z.string().nullable(), deleted: z.boolean() })
export type MailboxTeam = z.infer<typeof MailboxTeamSchema>

/** A page of `mailbox.list`. */
export const MailboxPageSchema = MailboxTeamSchema.extend({
  /** Messages `[offset, offset + entries.length)` of the feed, oldest first. */
  entries: z.array(MailboxEntrySchema),
  offset: z.number().int().nonnegative(),
  /** Messages the feed holds now. */
  total: z.number().int().nonnegative(),
  /** Older messages dropped past {@link MAILBOX_FEED_MAX}. */
  dropped: z.number().int().nonnegative()
})
export type MailboxPage = z.infer<typeof MailboxPageSchema>

/**
 * A change of the mailbox feed: `messages` — new messages and changed ones (read state, broadcast
 * marks), to upsert by `key` keeping the higher `rev`; `team` — the feed follows another team
 * (TeamCreate: start empty and list again) or its team was deleted (keep what was shown, marked).
 */
export const MailboxChangeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('messages'), team: z.string(), entries: z.array(MailboxEntrySchema) }),
  MailboxTeamSchema.extend({ type: z.literal('team') })
])
export type MailboxChange = z.infer<typeof MailboxChangeSchema>

/**
 * The task board's view of the shared task list (docs/teams.md#shared-task-list, docs/ui.md#the-workspace-ui task board): the list it shows
 * (`name`: the team's, or the session's own list before a team exists) and every task in it.
 * Live changes come as `task_updated` runtime events.
 */
export const TaskBoardListSchema = z.object({ name: z.string(), team: z.string().optional(), tasks: z.array(TaskSchema) })
export type TaskBoardList = z.infer<typeof TaskBoardListSchema>

// ---- Workspaces (docs/ui.md#the-workspace-ui: open a folder, the recent list, one window per workspace) ----------
// Answered by the app host (the Electron main's workspace registry, or the web host's workspace
// set), never by a WorkspaceService: they are about which workspaces are open, not inside one.

/** A folder of the recent list (`<home>/recent.json`), most recently opened first. */
export const RecentWorkspaceSchema = z.object({
  /** Canonical absolute path (symlinks resolved when it was opened). */
  path: z.string(),
  /** Last path segment, for the menu. */
  name: z.string(),
  /** When it was last opened (ISO 8601). */
  openedAt: z.string(),
  /** The folder no longer exists (or is no longer a directory): shown as missing, removable. */
  missing: z.boolean()
})
export type RecentWorkspace = z.infer<typeof RecentWorkspaceSchema>

/**
 * What the workspace menu shows: this window's (or tab's) folder, the recent list, and how the
 * host lets a person pick another folder — `dialog`: main shows the OS folder picker; `path`:
 * the person types an absolute path (the web host, which has no dialog). `problem`: why the
 * recent list could not be read (a corrupt file), when it could not.
 */
export const WorkspacesMenuSchema = z.object({
  current: z.string(),
  recent: z.array(RecentWorkspaceSchema),
  picker: z.enum(['dialog', 'path']),
  problem: z.string().optional()
})
export type WorkspacesMenu = z.infer<typeof WorkspacesMenuSchema>

/**
 * The folder was opened (or was already open and is focused): `path` canonical; `url`, on the
 * web host, the page to open in a new tab for it (same origin, no token: the cookie carries it);
 * `opened: false` when the person cancelled the folder picker.
 */
export const WorkspaceOpenedSchema = z.union([
  z.object({ opened: z.literal(true), path: z.string(), alreadyOpen: z.boolean(), url: z.string().optional() }),
  z.object({ opened: z.literal(false) })
])
export type WorkspaceOpened = z.infer<typeof WorkspaceOpenedSchema>

const workspacesChannels = {
  /** The workspace menu's content ({@link WorkspacesMenuSchema}). */
  'workspaces.menu': { request: z.object({}).strict(), response: WorkspacesMenuSchema },
  /**
   * Opens a folder as a workspace, or focuses it when it is already open; recorded in the recent
   * list. Without `path`, main asks the person with the OS folder picker (Electron only; the web
   * host refuses and asks for a path). A path that does not exist or is not a directory is refused
   * with a message saying so.
   */
  'workspaces.open': { request: z.object({ path: z.string().trim().min(1, 'type the folder to open').max(4096).optional() }).strict(), response: WorkspaceOpenedSchema },
  /** Removes a folder from the recent list (e.g. one shown as missing); returns the new list. */
  'workspaces.forget': { request: z.object({ path: z.string().min(1).max(4096) }).strict(), response: z.object({ recent: z.array(RecentWorkspaceSchema) }) }
} as const

/** The request channels a host answers itself rather than passing to the workspace's service. */
export const WORKSPACES_CHANNELS = Object.keys(workspacesChannels) as Array<keyof typeof workspacesChannels>
// ---- end of workspaces ------------------------------------------------------------------------

const Empty = z.object({}).strict()
const Ok = z.object({ ok: z.literal(true) })

/** Request channels: name → request payload schema and response schema. */
/** The task board's limits in words (the forms show them beside the field). */
const TASK_SUBJECT_TOO_LONG = 'a subject is at most 500 characters long'
const TASK_DESCRIPTION_TOO_LONG = 'a description is at most 20,000 characters long'
const TASK_WAITS_TOO_MANY = 'a task waits for at most 100 others'

export const requestChannels = {
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
  'workspace.stopAll': { request: Empty, response: z.object({ ok: z.literal(true), subagents: z.number().int().nonnegative(), teammates: z.array(z.string()) }) },
  /**
   * Switches fork and coordinator mode before the session's first prompt (docs/agents.md#coordinator-mode's session
   * switch); coordinator wins. Refused once the leader has history or is working.
   */
  'workspace.setOrchestration': { request: z.object({ fork: z.boolean(), coordinator: z.boolean() }).strict(), response: OrchestrationSchema },
  /** What the spawn form offers (agent types, default backend, the team). */
  'team.spawnOptions': { request: Empty, response: SpawnOptionsSchema },
  /** Creates the session's team as TeamCreate does (docs/teams.md#team-config), for a person who wants to spawn teammates. */
  'team.create': { request: z.object({ name: z.string().trim().min(1, 'give the team a name').max(64), description: z.string().max(500).optional() }).strict(), response: z.object({ team: z.string() }) },
  /** The stale teams of this data directory (their leader session is gone), for the dashboard to offer their removal. */
  'teams.stale': { request: Empty, response: z.object({ teams: z.array(StaleTeamSchema) }) },
  /**
   * Deletes a stale team as `swarmdesk team delete` does: its config, inboxes, task list, and its
   * teammates' leftover processes (`killed`: how many). Refused while its leader session lives,
   * in this process or another.
   */
  'teams.deleteStale': { request: z.object({ team: z.string().min(1) }).strict(), response: z.object({ team: z.string(), killed: z.number().int().nonnegative() }) },
  /** Spawns a teammate as the Agent tool does (docs/teams.md#spawning-a-teammate). Refused without a team or with a taken name. */
  'teammate.spawn': { request: TeammateSpawnRequestSchema, response: z.object({ name: z.string(), agentId: z.string(), backend: z.enum(['worker', 'process']) }) },
  /**
   * A person's plain message to a teammate (docs/ui.md#the-workspace-ui: typing into a teammate pane messages it).
   * Sent as SendMessage from `team-lead` would be, with the summary "from the person at the
   * workspace": the person speaks with the leader's authority, and the teammate's reply goes to
   * the leader's inbox, where the person reads it in the leader's pane and the teammate's row.
   */
  'teammate.message': { request: z.object({ name: z.string().min(1), text: z.string().trim().min(1, 'the message is empty').max(100_000) }).strict(), response: Ok },
  /** Asks a teammate to shut down: a `shutdown_request` from `team-lead` (docs/teams.md#teammate-life-cycle); it may reject, the timeout kills it. Answers once the request is sent. */
  'teammate.shutdown': { request: z.object({ name: z.string().min(1), reason: z.string().max(2000).optional() }).strict(), response: Ok },
  /** Kills a teammate at once and waits until it is gone (docs/teams.md#teammate-life-cycle, docs/ui.md#the-workspace-ui). */
  'teammate.kill': { request: z.object({ name: z.string().min(1) }).strict(), response: Ok },
  /** Answers a permission request; the first answer wins, later ones get `ok: false`. */
  'permission.respond': {
    request: z
      .object({
        requestId: z.string().min(1),
        decision: z.enum(['allow', 'deny']),
        /**
         * With allow: also add this rule for the rest of the session, to the asking agent only
         * ("Always allow", docs/permissions.md#permissions session approvals). Must be one of the request's `suggestions`.
         */
        alwaysAllowRule: z.string().min(1).max(1000).optional(),
        /** With deny: sent to the agent with the denial. */
        reason: z.string().max(4000).optional()
      })
      .strict(),
    response: z.object({ ok: z.boolean() })
  },
  /** A pane's scrollback, to restore it after a reload. */
  'pane.scrollback': {
    /**
     * `lines`: most lines of scrollback wanted above the screen (the page's own scrollback length,
     * so a restore carries no more than its terminal keeps); main sends at most the 10,000 it keeps
     * (src/main/app/panes.ts), all of them when `lines` is left out.
     */
    request: z.object({ agentId: z.string().min(1), lines: z.number().int().min(0).max(MAX_PANE_SCROLLBACK_LINES).optional() }).strict(),
    response: PaneScrollbackSchema
  },
  /**
   * The renderer has processed panes' `pane.data` chunks up to `chunk` (cumulative per pane), for
   * one or more panes at once (the renderer gathers them every 50 ms into one request). Main
   * pauses a pane's PTYs while more than 1 MiB of it, or 2 MiB over all panes, is unacknowledged
   * (src/main/app/paneBatcher.ts); the web host acknowledges only as far as its
   * slowest open page (src/main/host/paneAcks.ts).
   */
  'pane.ack': { request: z.object({ acks: z.array(PaneAckSchema).min(1).max(MAX_PANE_ACKS) }).strict(), response: Ok },
  /**
   * Stops (`muted: true`) or resumes (`false`) live `pane.data` of one agent's pane for the page
   * that asks, and only for it: other pages on the workspace are unaffected. A page mutes an agent
   * none of its panes shows (hidden, collapsed, another layout) and an off-screen pane that has
   * dropped the output it held (PaneOwner's `restoreOnShow`): either restores from
   * `pane.scrollback` when shown, so that output stops crossing the wire; it unmutes before
   * that fetch, which then counts as its acknowledgement (src/main/host/paneAcks.ts: main does not
   * wait for a muted page). Mutes belong to the connection: a new one starts with none. Applied
   * by the web host's bridge per socket and by the app per window (src/main/electron/workspaces.ts);
   * the service alone, with no page to tell apart, answers it and does nothing.
   */
  'pane.mute': { request: PaneMuteSchema, response: Ok },
  /**
   * The size of an agent's pane in character cells after the renderer fitted it (sent debounced,
   * only for panes on screen; src/renderer/src/features/panes/PaneOwner.ts). A running `process`
   * teammate's terminal is resized to it (its program gets SIGWINCH, docs/design.md#process-model, docs/ui.md#the-workspace-ui); for any other
   * agent, or one not started yet, main remembers it: a process teammate starts at its pane's last
   * size. Bounds: src/shared/terminalSize.ts. With several pages on one workspace the last wins.
   */
  'pane.resize': { request: z.object({ agentId: z.string().min(1).max(200) }).extend(TerminalSizeSchema.shape).strict(), response: Ok },
  /**
   * Interrupts an agent's current turn, as Esc does in Claude Code: the model stream and its
   * running tools stop, the agent says it was interrupted and takes the next message. The leader
   * and teammates go idle; a subagent, whose turn is its whole task, ends (its parent hears it was
   * killed, and SendMessage resumes it). An agent with no turn running is left alone.
   */
  'agent.interrupt': { request: z.object({ agentId: z.string().min(1).max(200) }).strict(), response: z.object({ ok: z.literal(true), interrupted: z.boolean() }) },
  /** Stops a running subagent and everything it owns (docs/agents.md#stopping-an-agent: TaskStop from its pane). */
  'agent.stop': { request: z.object({ agentId: z.string().min(1) }).strict(), response: Ok },
  /** Moves a running sync subagent to the background (docs/agents.md#auto-background: "the UI can background a running subagent by hand"). */
  'agent.background': { request: z.object({ agentId: z.string().min(1) }).strict(), response: Ok },
  /** The person changed the permission mode. */
  'workspace.setMode': { request: z.object({ mode: PermissionModeSchema.exclude(['bubble']) }).strict(), response: Ok },
  /**
   * The current team's messages across every inbox (docs/ui.md#the-workspace-ui mailbox inspector), oldest first, a
   * page at a time: `offset` (default 0) and `limit` (1–5,000, default 5,000). Live changes come as
   * `mailbox.changed` pushes; a page reflects every change pushed before it was answered.
   */
  'mailbox.list': {
    request: z.object({ offset: z.number().int().nonnegative().optional(), limit: z.number().int().min(1).max(MAILBOX_PAGE_MAX).optional() }).strict(),
    response: MailboxPageSchema
  },
  /** The task board's list (docs/ui.md#the-workspace-ui): every task of the session's task list. */
  'tasks.list': { request: Empty, response: TaskBoardListSchema },
  /** Creates a task from the board, as TaskCreate does (TaskCreated hooks may refuse it); `blockedBy`: tasks it waits for. */
  'tasks.create': {
    request: z.object({ subject: z.string().trim().min(1, 'give the task a subject').max(500, TASK_SUBJECT_TOO_LONG), description: z.string().max(20_000, TASK_DESCRIPTION_TOO_LONG).optional(), blockedBy: z.array(TaskIdSchema).max(100, TASK_WAITS_TOO_MANY).optional() }).strict(),
    response: TaskSchema
  },
  /**
   * Edits a task from the board as TaskUpdate does in the leader's name: subject, description,
   * status (a drag between columns; completing runs the TaskCompleted hooks), and tasks it waits
   * for (`addBlockedBy`). Returns the task after the change.
   */
  'tasks.update': {
    request: z
      .object({
        taskId: TaskIdSchema,
        subject: z.string().trim().min(1, 'the subject is empty').max(500, TASK_SUBJECT_TOO_LONG).optional(),
        description: z.string().max(20_000, TASK_DESCRIPTION_TOO_LONG).optional(),
        status: TaskStatusSchema.optional(),
        addBlockedBy: z.array(TaskIdSchema).max(100, TASK_WAITS_TOO_MANY).optional()
      })
      .strict(),
    response: TaskSchema
  },
  /**
   * Assigns a task to a teammate (a card dropped on its dashboard row or pane header, docs/teams.md#shared-task-list,
   * docs/ui.md#the-workspace-ui): the owner is set and `task_assignment` sent exactly as TaskUpdate does when the leader
   * assigns. Refused for an unknown teammate, a completed task, or a task still blocked.
   */
  'tasks.assign': { request: z.object({ taskId: TaskIdSchema, owner: z.string().min(1).max(64) }).strict(), response: TaskSchema },
  ...workspacesChannels,

  // ── Settings view (docs/permissions.md#permissions, docs/ui.md#the-workspace-ui, docs/storage.md#layout; src/shared/settings.ts) ──────────────────────────────
  /** The user settings, the API key's status (never the key), the data directory and project trust. */
  'settings.get': { request: Empty, response: SettingsViewSchema },
  /**
   * Changes the user settings file `<home>/settings.json`: each key set, or removed with `null`.
   * Every rule is checked with the runtime's rule parser first; an invalid rule (or any invalid
   * value) is refused with a message naming it, and nothing is saved. Keys the view does not know
   * are kept. Returns the view after the change.
   */
  'settings.update': { request: z.object({ values: SettingsPatchSchema }).strict(), response: SettingsViewSchema },
  /**
   * Grants (`true`) or revokes (`false`) trust of the open workspace in `<home>/trusted.json`
   * (docs/permissions.md#permissions), then reloads the settings: the project's hooks run from then on (or stop).
   */
  'settings.trust': { request: z.object({ trusted: z.boolean() }).strict(), response: SettingsViewSchema },
  /**
   * Stores the API key with the OS keychain (Electron safeStorage; the app only: the web host
   * refuses). On Linux's `basic_text` backend the key is not encrypted and is stored only with
   * `acceptUnencrypted: true` after the person saw that warning. The response never holds the key.
   */
  'settings.setApiKey': {
    request: z.object({ apiKey: z.string().trim().min(1, 'the API key is empty').max(1000), acceptUnencrypted: z.boolean().optional() }).strict(),
    response: ApiKeyStatusSchema
  },
  /** Removes the stored API key (the app only). */
  'settings.clearApiKey': { request: Empty, response: ApiKeyStatusSchema },
  /**
   * A key for this run only (the web host, whose key otherwise comes from the environment): kept
   * in the process's memory, never written to disk, never answered back; the leader starts with it at once.
   */
  'settings.setRunApiKey': {
    request: z.object({ apiKey: z.string().trim().min(1, 'the API key is empty').max(1000) }).strict(),
    response: ApiKeyStatusSchema
  },

  // --- Restore after restart (issue 8): src/main/app/restore/ ---
  /**
   * Continues an agent shown `interrupted` (it was working when the workspace's process ended) from
   * its transcript: the leader continues its turn, a teammate is started again with its
   * conversation, a subagent is resumed as SendMessage resumes a stopped one. Refused for an agent
   * that is not interrupted.
   */
  'agent.resume': { request: z.object({ agentId: z.string().min(1) }).strict(), response: Ok },
  /**
   * Ends the current session (its agents are stopped, its transcript kept) and opens a new, empty
   * one in the same workspace; the next start reopens the new one. Answers its id; the UI reloads.
   */
  'workspace.newSession': { request: Empty, response: z.object({ sessionId: z.string() }) },
  /** The workspace's sessions for the top bar's Sessions menu, most recently active first (src/shared/sessions.ts). */
  'sessions.list': { request: Empty, response: SessionListSchema },
  /**
   * Ends the current session (as New session does) and reopens `sessionId` of this workspace: its
   * leader from its transcript, its panes with their scrollback, its team; agents that were working
   * shown `interrupted`. Refused while the leader works, for an unknown session, or one another
   * process has open. Answers its id; the UI reloads.
   */
  'workspace.openSession': { request: OpenSessionSchema, response: z.object({ sessionId: z.string() }) }
} as const

/** Pushed events: name → payload schema. */
export const pushChannels = {
  /**
   * Every runtime event (docs/events.md#event-stream-and-command-line), in seq order. Over the web host's bridge, `tool_output` and
   * `terminal_output` come at most once a second per agent with `data` empty: their bytes are the
   * pane's, delivered as `pane.data` under flow control (src/main/host/eventThinner.ts).
   */
  'runtime.event': RuntimeEventSchema,
  /** The whole list of permission requests waiting for a person, after every change. */
  'permissions.changed': z.object({ permissions: z.array(PendingPermissionSchema) }),
  /** Terminal output for an agent's pane (ANSI), numbered per pane from 1. */
  'pane.data': z.object({ agentId: z.string(), data: z.string(), chunk: z.number().int().positive() }),
  /** The team's mailboxes changed: new messages, read-state changes, or another (or deleted) team. */
  'mailbox.changed': MailboxChangeSchema,
  /** The model became reachable or not (an API key was set or removed while the workspace runs). */
  'model.access': ModelAccessSchema
} as const

export type RequestChannel = keyof typeof requestChannels
export type PushChannel = keyof typeof pushChannels
export type RequestOf<C extends RequestChannel> = z.input<(typeof requestChannels)[C]['request']>
export type ResponseOf<C extends RequestChannel> = z.infer<(typeof requestChannels)[C]['response']>
export type PushOf<C extends PushChannel> = z.infer<(typeof pushChannels)[C]>

/** Every request channel name, for transports that register handlers by iterating. */
export const REQUEST_CHANNELS = Object.keys(requestChannels) as RequestChannel[]
export const PUSH_CHANNELS = Object.keys(pushChannels) as PushChannel[]

/**
 * The API a UI uses, derived from the contract: one method for requests, one subscription per
 * push channel. Implemented by the preload bridge (Electron) and the WebSocket client (browser).
 */
export interface WorkspaceApi {
  request<C extends RequestChannel>(channel: C, payload: RequestOf<C>): Promise<ResponseOf<C>>
  /** Subscribes to a push channel; returns the unsubscribe function. */
  on<C extends PushChannel>(channel: C, listener: (payload: PushOf<C>) => void): () => void
}

/** An error answered over a transport: `name` and `message` survive serialisation. */
export const IpcErrorSchema = z.object({ name: z.string(), message: z.string() })
export type IpcError = z.infer<typeof IpcErrorSchema>

/**
 * Wire frames of the WebSocket bridge (web host ⇄ browser). The host sends the pushes made in one
 * of its macrotasks as one frame: `push` for a single one, `pushes` for several, in the order they
 * were made (src/main/host/bridge.ts).
 */
export const BridgeFrameSchema = z.union([
  z.object({ kind: z.literal('request'), id: z.number().int(), channel: z.string(), payload: z.unknown() }),
  z.object({ kind: z.literal('response'), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ kind: z.literal('response'), id: z.number().int(), ok: z.literal(false), error: IpcErrorSchema }),
  z.object({ kind: z.literal('push'), channel: z.string(), payload: z.unknown() }),
  z.object({ kind: z.literal('pushes'), pushes: z.array(z.object({ channel: z.string(), payload: z.unknown() })).min(1) })
])
export type BridgeFrame = z.infer<typeof BridgeFrameSchema>
