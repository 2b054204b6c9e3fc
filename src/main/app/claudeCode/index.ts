// Claude Code's agent teams in the workspace (docs/claude-code-teams.md).
export { ClaudeTeamsControl } from './control'
export { ClaudeTeamsRecorder, type ClaudeTeamsRecorderOptions } from './recorder'
export { appendToInbox, ClaudeWriteError, inboxPath, taskPath, updateTask, type OutgoingMessage } from './writer'
export { readMessageText, CLAUDE_LEAD_NAME } from './protocol'
export { renderTranscript } from './transcript'
export { claudeConfigDir } from './configDir'
export { claudeMailboxEntries, claudeMailboxEntry } from './mailboxEntries'
