/**
 * Teammates of the `process` backend (docs/teams.md#teammate-life-cycle, docs/teams.md#permission-requests, docs/events.md#event-stream-and-command-line `swarmdesk teammate`): one teammate
 * per process, identity from the team config and the environment, messages, tasks and permission
 * requests through the team's files.
 */
export { runTeammate } from './runner'
export { TeammateNotFoundError, type TeammateExit, type TeammateRunOptions } from './runOptions'
export { createMailboxPrompter, type MailboxPrompterOptions } from './mailboxPrompter'
export { teammateRolePrompt } from './prompt'
export { createTeammateBackends } from './backends'
export { teammateHostsSetting, resolveTeammateHost } from './ssh/hosts'
export {
  teammateModelEnv,
  teammateSettingsEnv,
  teammateIdentityEnv,
  TEAMMATE_MCP_CONFIG_ENV,
  readTeammateEnv,
  TeammateEnvSchema,
  type TeammateEnv
} from './env'
export { type TeammateExecutorRegistry } from './executor'
export { ownTeammateMcp, openTeammateMcp, type TeammateMcpHost, type TeammateMcpOpened } from './mcp'
export type { SharedMcp } from './worker/mcpServer'
export {
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  TeammateSpawnError,
  TeammateSupervisor,
  type TeammateSupervisorOptions
} from './supervisor'
export {
  AllowedPathError,
  editAllowedPaths,
  TeammatePermissionEngine,
  teamAllowedPaths,
  type FollowedAllowedPaths
} from './teamAllowedPaths'
export type { TeamWait } from './settling'
