/**
 * The team store (docs/nats.md#the-team-store): a team's mailbox, task list, config and liveness
 * behind one port, on the data directory's files (the default) or on NATS JetStream.
 */
export type {
  LeaderLeasePort,
  LivenessPort,
  MailboxPort,
  ServerLeaderLease,
  ServerLeaderStatus,
  MailEvent,
  StoredMessage,
  TaskListPort,
  TeammateEventsPort,
  TeamConfigPort,
  TeamStorePort,
  TeamTransportKind
} from './port'
export { ALWAYS_CONNECTED, followNatsConnection, type TeamConnection } from './connectionState'
export { createFileTeamStore, type FileTeamStore, type TeamFiles } from './files'
export {
  createTeamContext,
  sessionTaskListName,
  WILL_DELETE_TEAM_BOUND_MS,
  type Caller,
  type TeamContext,
  type TeamContextOptions
} from './context'
export {
  DEDUP_WINDOW_MS,
  DEFAULT_LIVENESS_TTL_MS,
  MAIL_STREAM,
  TeamStoreUnavailableError,
  type NatsOpenOptions
} from './nats/shared'
export { createNatsTeamStore, openTeamStore, reapVanished, type VanishedTeammate } from './open'
export { deleteStaleServerTeam, listServerTeams, type ServerTeam } from './serverTeams'
export {
  describeTransport,
  parseTeamTransport,
  TeamTransportError,
  TeamTransportSettingSchema,
  TRANSPORT_ENV,
  transportEnv,
  transportFromEnv,
  type NatsAuth,
  type TeamTransport,
  type TeamTransportSetting
} from './transport'
