/**
 * The `process` teammate backend (docs/design.md#process-model, docs/teams.md#spawning-a-teammate): a teammate as a separate Node process in a
 * terminal of the PTY host, its events followed through its transcript.
 */
export {
  ProcessTeammateExecutor,
  TEAMMATE_EXIT_CODES,
  TEAMMATE_RUN_TAG_VARIABLE,
  type ProcessTeammateExecutorOptions
} from './executor'
export { DEFAULT_TAIL_POLL_MS, TranscriptTail, tailTranscript, type TranscriptTailOptions } from './transcriptTail'
export {
  DEFAULT_MAX_FOLLOWED_SUBAGENTS,
  SubagentFollower,
  type SubagentFollowerOptions,
  type SubagentOrphaning
} from './subagentFollower'
