/** The person's own Claude Code sessions in panes (docs/claude-code.md#sessions-in-panes). */
export {
  ClaudeSessions,
  ClaudeSessionError,
  CLAUDE_AGENT_TYPE,
  STATUS_POLL_MS,
  type ClaudeSessionsOptions
} from './controller'
export { ClaudeNotFoundError, findClaude } from './binary'
export { claudeConfigDir, readSessionRecord, stateOfStatus, ClaudeSessionRecordSchema } from './record'
export { readSavedSessions, savedSessionsPath, type SavedClaudeSession } from './saved'
