/**
 * Hooks (docs/hooks.md#hooks): Claude Code's `hooks` settings, run as `bash -c` commands with Claude Code's
 * JSON on stdin and its exit-code contract, for SubagentStart, SubagentStop, TeammateIdle,
 * TaskCreated and TaskCompleted.
 *
 * Choices where docs/hooks.md#hooks leaves room:
 * - Claude Code's other events (PreToolUse, Stop, SessionStart…) and hook types (`prompt`,
 *   `agent`, `http`, `mcp_tool`) load with a warning naming file and field, and never run; an
 *   unknown event name is a warning too (a settings file shared with a newer Claude Code must
 *   load). Anything malformed under a supported event is a HookConfigError (fails closed).
 * - Matchers apply to SubagentStart/SubagentStop (against the agent type) with Claude Code's
 *   rules (see `compileMatcher`); for TeammateIdle, TaskCreated and TaskCompleted they are ignored.
 * - Matching commands of all sources run in parallel, identical command strings once; the block
 *   reported is the first in settings order (lowest precedence source first).
 * - Default timeout 60 s; a timeout or an abort kills the hook's whole process group.
 * - Exit 0 with `{"decision":"block","reason":"…"}` on stdout blocks like exit 2 (Claude Code's
 *   JSON output); its other JSON fields are ignored for now.
 * - SubagentStart cannot block (as in Claude Code); its exit 2 is a warning.
 * - A shutdown wins over a hook: `run(…, {ignoreBlock: true})`, or `stop({endedBy: 'killed'})`
 *   on the pairing.
 */
export { createHookRunner, type HookRunner, type HookRunnerOptions, type HookRunOptions } from './runner'
export type { HookOutcome, HookCommandResult } from './outcome'
export { HOOK_OUTPUT_LIMIT_BYTES, type HookCommandEnd, type HookCommandRun } from './spawnHook'
export {
  createSubagentHookPairing,
  type SubagentEnd,
  type SubagentHookHandle,
  type SubagentHookInfo,
  type SubagentHookPairing,
  type SubagentStopInfo
} from './pairing'
export {
  BLOCKING_EVENTS,
  isSupportedHookEvent,
  SUBAGENT_STOP_MAX_BLOCKS,
  SUPPORTED_HOOK_EVENTS,
  UNSUPPORTED_CLAUDE_CODE_EVENTS,
  HookInputSchemas,
  type HookEvent,
  type HookInput,
  type HookPayloads,
  type SubagentStartPayload,
  type SubagentStopPayload,
  type TaskHookPayload,
  type TeammateIdlePayload
} from './events'
export {
  DEFAULT_HOOK_TIMEOUT_MS,
  HookEventListSchema,
  parseHookSources,
  type HookCommandSpec,
  type HookConfig
} from './config'
export { compileMatcher, type HookMatcher } from './matcher'
export { HookConfigError, HooksError } from './errors'
export { SwappableHookRunner } from './swappable'
