import { z } from 'zod'
import { RuntimeEventSchema } from '../events'
import { agentChannels } from './agents'
import { ClaudeTeamsSchema, claudeTeamsChannels } from './claudeTeams'
import { claudeChannels } from './claude'
import { MailboxChangeSchema, mailboxChannels } from './mailbox'
import { mcpChannels } from './mcp'
import { paneChannels } from './panes'
import { PendingPermissionSchema, permissionChannels } from './permissions'
import { restoreChannels } from './restore'
import { sessionsChannels } from './sessions'
import { settingsChannels } from './settings'
import { taskChannels } from './tasks'
import { TeamAllowedPathsSchema, teamChannels } from './team'
import { ModelAccessSchema, workspaceChannels } from './workspace'
import { TeamTransportViewSchema } from '../teamConnection'
import { SettingsChangedSchema } from '../settings'
import { workspacesChannels } from './workspaces'

export * from './agents'
export * from './claudeTeams'
export * from './claude'
export * from './mailbox'
export * from './mcp'
export * from './panes'
export * from './permissions'
export * from './restore'
export * from './sessions'
export * from './settings'
export * from './tasks'
export * from './team'
export * from './wire'
export * from './workspace'
export * from './workspaces'

/**
 * The one contract between the workspace runtime and any UI (docs/design.md#process-model, STYLE.md 2): every
 * request channel with its request and response schemas, and every pushed event with its payload
 * schema. The Electron IPC handlers, the preload API, the web host's WebSocket bridge and the
 * renderer's client are all typed from this object; nobody types a channel string twice.
 *
 * Payloads are validated with these schemas on the receiving side of every hop (main validates
 * what the renderer sends; the renderer validates what it receives).
 *
 * Each feature declares its channels in its own module of this folder (workspace, agents,
 * permissions, team, panes, mailbox, tasks, workspaces, settings, restore, sessions, claudeTeams); this file assembles
 * permissions, team, panes, mailbox, tasks, workspaces, settings, restore, sessions, mcp); this file assembles
 * them into the one contract. A new channel goes into its feature's module; nothing else here
 * changes, and the service's handler table (src/main/app/handlers/) fails to typecheck until the
 * channel has a handler.
 */

/** Request channels: name → request payload schema and response schema. */
export const requestChannels = {
  ...workspaceChannels,
  ...teamChannels,
  ...permissionChannels,
  ...paneChannels,
  ...agentChannels,
  ...mailboxChannels,
  ...taskChannels,
  ...workspacesChannels,
  ...settingsChannels,
  ...restoreChannels,
  ...sessionsChannels,
  ...claudeTeamsChannels,
  ...mcpChannels,
  ...claudeChannels
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
  'model.access': ModelAccessSchema,
  /** The connection to the team's NATS server changed state (docs/nats.md#connection-state): the transport as it is now. */
  'team.transport': TeamTransportViewSchema,
  /** The session's team's allowed paths changed, or the session's team did (docs/teams.md#allowed-paths): the paths now. */
  'team.allowedPaths': TeamAllowedPathsSchema,
  /** Claude Code's teams changed (docs/claude-code-teams.md): every team seen, after the change. */
  'claudeTeams.changed': ClaudeTeamsSchema,
  /** A settings reload ran (docs/permissions.md#reloading-while-it-runs): the values that apply now, or why it was refused. */
  'settings.changed': SettingsChangedSchema
} as const

export type RequestChannel = keyof typeof requestChannels
export type PushChannel = keyof typeof pushChannels
export type RequestOf<C extends RequestChannel> = z.input<(typeof requestChannels)[C]['request']>
export type ResponseOf<C extends RequestChannel> = z.infer<(typeof requestChannels)[C]['response']>
/** A request's payload as its handler gets it: after the contract's schema parsed it (defaults applied). */
export type ParsedRequestOf<C extends RequestChannel> = z.output<(typeof requestChannels)[C]['request']>
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
