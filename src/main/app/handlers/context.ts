import type { TeamTransportView } from '../../../shared/teamConnection'
import type { AllowedPathsControl } from '../allowedPathsControl'
import type { ParsedRequestOf, RequestChannel, ResponseOf } from '../../../shared/ipc'
import type { PermissionMode } from '../../../shared/permissions'
import type { EventBus } from '../../runtime/events'
import type { ModelConnection } from '../../runtime/runner'
import type { Session } from '../../runtime/session'
import type { ClaudeTeamsControl } from '../claudeCode'
import type { ClaudeSessions } from '../claudeSessions'
import type { LeaderControl } from '../leader'
import type { LiveSettings } from '../liveSettings'
import type { MailboxFeed } from '../mailboxFeed'
import type { McpControl } from '../mcpControl'
import type { KeyFix } from '../modelAccess'
import type { PaneOutput } from '../paneOutput'
import type { WorkspaceProjection } from '../projection'
import type { RestoreController } from '../restore'
import type { SettingsControl } from '../settingsControl'
import type { UiPrompter } from '../uiPrompter'

/**
 * What the request handlers reach of one open workspace: its parts, as the service assembled
 * them (service.ts). `session()` and `mailbox()` are functions because a new session replaces both.
 */
export interface HandlerContext {
  session(): Session
  /** The service's bus: notices emitted here are stamped, projected, rendered and pushed. */
  readonly bus: Pick<EventBus, 'emit'>
  readonly leader: LeaderControl
  readonly projection: WorkspaceProjection
  readonly panes: PaneOutput
  readonly prompter: UiPrompter
  readonly settings: LiveSettings
  readonly settingsControl: SettingsControl
  /** The workspace's MCP servers as Settings lists them. */
  readonly mcp: McpControl
  readonly restore: RestoreController
  /** The person's own Claude Code sessions in panes. */
  readonly claude: ClaudeSessions
  /** The team's mailboxes as the inspector shows them; undefined only while a new session is adopted. */
  mailbox(): MailboxFeed | undefined
  readonly model: ModelConnection
  /** Where a person adds an API key here. */
  readonly keyFix: KeyFix
  /** The model the leader uses, as resolved at start. */
  readonly modelName: string
  /** Claude Code's teams under its config folder (claudeCode/control.ts); watching starts on first use. */
  readonly claudeTeams: ClaudeTeamsControl
  /** The session's team's allowed paths: read, pushed on change, edited (allowedPathsControl.ts). */
  readonly allowedPaths: AllowedPathsControl
  /** Where the team lives and the state of the connection to its server, now (teamTransportView.ts). */
  teamTransport(): TeamTransportView
  /** The permission mode as the person last set it (`workspace.setMode`). */
  mode: PermissionMode
}

/** The handler of one request channel: gets the payload the contract parsed, resolves to the channel's response. */
export type RequestHandler<C extends RequestChannel> = (payload: ParsedRequestOf<C>) => Promise<ResponseOf<C>>

/**
 * One feature's handler table: a handler for every channel of that feature's contract module
 * (src/shared/ipc/<feature>.ts), so a channel added there fails to typecheck here until it has one.
 */
export type FeatureHandlers<Channels> = { [C in keyof Channels & RequestChannel]: RequestHandler<C> }

/** Every request channel's handler; assembled from the feature tables in handlers/index.ts. */
export type RequestHandlers = { [C in RequestChannel]: RequestHandler<C> }
