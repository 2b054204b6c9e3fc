import { ASYNC_ALLOWED_TOOL_NAMES, CORE_TOOLS } from '../tools'

/**
 * Every tool name Swarmdesk knows (docs/tools.md#tools): the core tools, then the coordination tools. A
 * definition naming anything else gets a warning and the name is ignored.
 */
export const KNOWN_TOOL_NAMES: readonly string[] = [
  ...CORE_TOOLS.map((t) => t.name),
  'Agent',
  'SendMessage',
  'TaskStop',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'TeamCreate',
  'TeamDelete',
  'EnterPlanMode',
  'ExitPlanMode',
  'AskUserQuestion'
]

/** Tools no subagent may have (docs/agents.md#agent-definitions), except `Agent` when a definition lists it (nesting is opt-in). */
export const SUBAGENT_FORBIDDEN_TOOLS: readonly string[] = [
  'Agent',
  'AskUserQuestion',
  'EnterPlanMode',
  'ExitPlanMode',
  'TaskStop',
  'TeamCreate',
  'TeamDelete'
]

/**
 * Depth at which `Agent` is no longer offered (docs/agents.md#agent-definitions: nesting up to depth 5, a hard runtime
 * cap). The main agent is depth 0; an agent at depth 4 may still spawn one at depth 5.
 */
export const MAX_AGENT_DEPTH = 5

/** What a teammate gets on top of the async allow list (docs/agents.md#agent-definitions). */
const TEAMMATE_EXTRA_TOOLS: readonly string[] = [
  'SendMessage',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'Agent'
]

/** Claude Code's older names still found in its definitions, read as the current name. */
const LEGACY_TOOL_NAMES: Readonly<Record<string, string>> = { Task: 'Agent' }

/** How a tool name written in a definition reads (see {@link classifyToolName}). */
export type ToolNameReading =
  | { kind: 'known'; name: string; legacy?: string }
  | { kind: 'mcp'; name: string }
  | { kind: 'specifier'; name: string }
  | { kind: 'unknown'; name: string }

/**
 * Reads one tool name from a definition. `Task` is Claude Code's old name of `Agent`; `mcp__*`
 * tools are out of scope (docs/tools.md#tools); `Tool(spec)` entries (Claude Code lets `Agent(x)` limit the
 * types an agent may spawn) are not supported and are not granted, so a restriction the author
 * wrote never turns into the whole tool.
 */
export function classifyToolName(raw: string): ToolNameReading {
  if (raw.startsWith('mcp__')) return { kind: 'mcp', name: raw }
  if (raw.includes('(')) return { kind: 'specifier', name: raw }
  const legacy = LEGACY_TOOL_NAMES[raw]
  if (legacy) return { kind: 'known', name: legacy, legacy: raw }
  return KNOWN_TOOL_NAMES.includes(raw) ? { kind: 'known', name: raw } : { kind: 'unknown', name: raw }
}

/**
 * The tools of a teammate (docs/agents.md#agent-definitions): the async allow list, SendMessage, the shared task list
 * tools, Agent (the runtime lets it spawn sync subagents only, never teammates), and ExitPlanMode
 * when it was spawned plan-required (its ExitPlanMode becomes a plan approval request).
 */
export function resolveTeammateTools(options: { planModeRequired: boolean }): string[] {
  return [...ASYNC_ALLOWED_TOOL_NAMES, ...TEAMMATE_EXTRA_TOOLS, ...(options.planModeRequired ? ['ExitPlanMode'] : [])]
}
