import { z } from 'zod'

/**
 * Hook events Swarmdesk runs (docs/hooks.md#hooks). Names and payload keys are Claude Code's, so hook
 * scripts written for Claude Code work unchanged.
 */
export const SUPPORTED_HOOK_EVENTS = [
  'SubagentStart',
  'SubagentStop',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted'
] as const
export type HookEvent = (typeof SUPPORTED_HOOK_EVENTS)[number]

/**
 * Claude Code's other hook events: accepted in settings (a settings file shared with Claude Code
 * must load) but reported as "not supported yet" and never run.
 */
export const UNSUPPORTED_CLAUDE_CODE_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
  'Notification',
  'UserPromptSubmit',
  'Stop',
  'StopFailure',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'SessionEnd',
  'Setup',
  'ConfigChange',
  'CwdChanged',
  'FileChanged',
  'InstructionsLoaded',
  'Elicitation',
  'ElicitationResult',
  'WorktreeCreate',
  'WorktreeRemove'
] as const

/**
 * What exit code 2 (or `{"decision":"block"}` on stdout) means per event (docs/hooks.md#hooks):
 * - SubagentStop: the subagent keeps working, the reason is its next instruction (at most
 *   {@link SUBAGENT_STOP_MAX_BLOCKS} times; the caller counts, see `SubagentHookPairing`);
 * - TeammateIdle: the teammate keeps working, the reason is fed back to it;
 * - TaskCreated: the creation is refused with the reason;
 * - TaskCompleted: the completion is refused with the reason.
 * SubagentStart cannot block (as in Claude Code): exit 2 there is reported as a warning.
 */
export const BLOCKING_EVENTS: ReadonlySet<HookEvent> = new Set([
  'SubagentStop',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted'
])

/**
 * Events whose `matcher` selects hooks, and the payload field it is matched against. For the
 * other events the matcher is ignored (Claude Code: TeammateIdle, TaskCreated and TaskCompleted
 * have no matcher; every entry runs).
 */
export const MATCHER_FIELD: Partial<Record<HookEvent, 'agent_type'>> = {
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type'
}

/** docs/hooks.md#hooks: a SubagentStop hook may keep a subagent working at most 3 times; the 4th stop ends it. */
export const SUBAGENT_STOP_MAX_BLOCKS = 3

/** Keys every payload carries, filled by the runner. `transcript_path` is the session's transcript. */
export const HookCommonInputSchema = z.object({
  hook_event_name: z.enum(SUPPORTED_HOOK_EVENTS),
  session_id: z.string(),
  cwd: z.string(),
  transcript_path: z.string().optional()
})

/** SubagentStart: a subagent was spawned (or resumed). `agent_type` is what matchers see. */
export const SubagentStartPayloadSchema = z.object({ agent_id: z.string(), agent_type: z.string() })
/**
 * SubagentStop: a subagent is about to stop. `stop_hook_active` is true when this stop follows a
 * stop a hook blocked — a script uses it to avoid keeping the agent busy forever.
 */
export const SubagentStopPayloadSchema = z.object({
  agent_id: z.string(),
  agent_type: z.string(),
  agent_transcript_path: z.string(),
  last_assistant_message: z.string(),
  stop_hook_active: z.boolean()
})
/** TeammateIdle: a teammate is about to go idle. */
export const TeammateIdlePayloadSchema = z.object({ teammate_name: z.string(), team_name: z.string() })
/** TaskCreated / TaskCompleted: a task of the shared list is being created / completed. */
export const TaskPayloadSchema = z.object({
  task_id: z.string(),
  task_subject: z.string(),
  task_description: z.string().optional(),
  teammate_name: z.string().optional(),
  team_name: z.string()
})

/** Event-specific keys the caller supplies, per event (snake_case: they go on the hook's stdin as is). */
export interface HookPayloads {
  SubagentStart: z.infer<typeof SubagentStartPayloadSchema>
  SubagentStop: z.infer<typeof SubagentStopPayloadSchema>
  TeammateIdle: z.infer<typeof TeammateIdlePayloadSchema>
  TaskCreated: z.infer<typeof TaskPayloadSchema>
  TaskCompleted: z.infer<typeof TaskPayloadSchema>
}
export type SubagentStartPayload = HookPayloads['SubagentStart']
export type SubagentStopPayload = HookPayloads['SubagentStop']
export type TeammateIdlePayload = HookPayloads['TeammateIdle']
export type TaskHookPayload = HookPayloads['TaskCreated']

/**
 * The whole stdin object per event, strict (no other keys): what a hook script can rely on.
 * Used by tests and by readers of recorded hook inputs.
 */
export const HookInputSchemas = {
  SubagentStart: HookCommonInputSchema.extend({
    hook_event_name: z.literal('SubagentStart'),
    ...SubagentStartPayloadSchema.shape
  }).strict(),
  SubagentStop: HookCommonInputSchema.extend({
    hook_event_name: z.literal('SubagentStop'),
    ...SubagentStopPayloadSchema.shape
  }).strict(),
  TeammateIdle: HookCommonInputSchema.extend({
    hook_event_name: z.literal('TeammateIdle'),
    ...TeammateIdlePayloadSchema.shape
  }).strict(),
  TaskCreated: HookCommonInputSchema.extend({
    hook_event_name: z.literal('TaskCreated'),
    ...TaskPayloadSchema.shape
  }).strict(),
  TaskCompleted: HookCommonInputSchema.extend({
    hook_event_name: z.literal('TaskCompleted'),
    ...TaskPayloadSchema.shape
  }).strict()
} as const satisfies Record<HookEvent, z.ZodType>

/** The JSON object written on a hook's stdin: common keys plus the event's own. */
export type HookInput<E extends HookEvent = HookEvent> = z.infer<typeof HookCommonInputSchema> & {
  hook_event_name: E
} & HookPayloads[E]

/** True for the five events Swarmdesk runs. */
export function isSupportedHookEvent(name: string): name is HookEvent {
  return (SUPPORTED_HOOK_EVENTS as readonly string[]).includes(name)
}
