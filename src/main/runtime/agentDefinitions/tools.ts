import { ASYNC_ALLOWED_TOOL_NAMES } from '../tools'
import type { AgentDefinition } from './schema'
import { MAX_AGENT_DEPTH, SUBAGENT_FORBIDDEN_TOOLS } from './toolNames'

/**
 * Splits a declared tool list into what it grants and what it excludes (`!X`). `allow` is
 * `undefined` when no entry grants anything (omitted, or only exclusions: "everything but X").
 */
export function splitToolList(entries: readonly string[] | undefined): {
  allow: string[] | undefined
  exclude: string[]
} {
  if (entries === undefined) return { allow: undefined, exclude: [] }
  const exclude = entries.filter((e) => e.startsWith('!')).map((e) => e.slice(1).trim())
  const allow = entries.filter((e) => !e.startsWith('!'))
  const onlyExclusions = allow.length === 0 && exclude.length > 0
  return { allow: onlyExclusions ? undefined : allow, exclude }
}

/** Why {@link resolveSubagentTools} left a tool out. */
export type ToolDropReason =
  /** the parent does not offer it, so the definition cannot grant it */
  | 'unavailable'
  /** not in the definition's explicit list */
  | 'not-listed'
  /** `!X` in `tools`, or in `disallowedTools` */
  | 'disallowed'
  /** no subagent may have it (docs/agents.md#agent-definitions) */
  | 'subagent-only-main'
  /** `Agent` at the depth cap */
  | 'depth-cap'
  /** not on the async allow list */
  | 'async'

/** Input of {@link resolveSubagentTools}. */
export interface ResolveSubagentToolsInput {
  definition: Pick<AgentDefinition, 'tools' | 'disallowedTools'>
  /** The parent's tool names, in the order they are offered (the order is kept: it is part of the cached prefix). */
  available: readonly string[]
  /** The subagent will run in the background. */
  async: boolean
  /** The subagent's own depth (its parent's + 1; the main agent is 0). */
  depth: number
}

/**
 * The tools a **subagent** is offered (docs/agents.md#agent-definitions), in the parent's order:
 * 1. the definition's list (omitted = everything the parent has), minus `!X` and `disallowedTools`;
 * 2. minus the tools no subagent may have — except `Agent` when the definition lists it
 *    explicitly (nesting is opt-in), while `depth` < {@link MAX_AGENT_DEPTH};
 * 3. for async agents, only the async allow list — and an explicitly listed `Agent` under the cap.
 *
 * Reading of docs/agents.md#agent-definitions on step 3: "nesting is opt-in: a definition that lists Agent explicitly
 * keeps it" is the exception to both filters. Otherwise nesting would depend on a session setting
 * (with forks enabled or in coordinator mode every spawn is async) and a `background: true`
 * definition could never nest, although its author asked for `Agent`.
 *
 * Pure; `dropped` lists each tool of `available` (and each listed tool the parent lacks) once,
 * with the first reason that removed it.
 */
export function resolveSubagentTools(input: ResolveSubagentToolsInput): {
  tools: string[]
  dropped: Array<{ tool: string; reason: ToolDropReason }>
} {
  const { allow, exclude } = splitToolList(input.definition.tools)
  const disallowed = new Set([...exclude, ...input.definition.disallowedTools])
  const listed = allow === undefined ? undefined : new Set(allow)
  const nests = listed?.has('Agent') === true
  const dropped: Array<{ tool: string; reason: ToolDropReason }> = []
  const tools: string[] = []
  for (const tool of input.available) {
    const reason = dropReason(tool, listed, disallowed, nests, input)
    if (reason) dropped.push({ tool, reason })
    else tools.push(tool)
  }
  for (const tool of listed ?? []) if (!input.available.includes(tool)) dropped.push({ tool, reason: 'unavailable' })
  return { tools, dropped }
}

function dropReason(
  tool: string,
  listed: Set<string> | undefined,
  disallowed: Set<string>,
  nests: boolean,
  input: ResolveSubagentToolsInput
): ToolDropReason | undefined {
  if (listed && !listed.has(tool)) return 'not-listed'
  if (disallowed.has(tool)) return 'disallowed'
  if (tool === 'Agent' && nests) return input.depth >= MAX_AGENT_DEPTH ? 'depth-cap' : undefined
  if (SUBAGENT_FORBIDDEN_TOOLS.includes(tool)) return 'subagent-only-main'
  if (input.async && !ASYNC_ALLOWED_TOOL_NAMES.includes(tool)) return 'async'
  return undefined
}
