/**
 * Agent definitions (docs/agents.md#agent-definitions): the built-ins, custom Markdown definitions, the tool sets of
 * subagents and teammates, model precedence, and the verification agent's report check.
 *
 * Choices where docs/agents.md#agent-definitions leaves room:
 * - Precedence, highest first: `<workspace>/.swarmdesk/agents/` > `<workspace>/.claude/agents/` >
 *   `<home>/agents/` > `~/.claude/agents/` > built-ins. A custom file may replace a built-in by
 *   name (Claude Code allows it); the file gets a warning saying so. `fork` is reserved.
 * - Only files that cannot be used have problems: no readable frontmatter, no or a bad `name`,
 *   no `description`, and fields whose bad value, if ignored, would give the agent more than its
 *   author wrote (`tools`, `disallowedTools`, `permissionMode`, `maxTurns`, `isolation`).
 *   Everything else — unknown tools, `mcp__*` tools, `Tool(spec)` entries, unknown models, unknown
 *   fields, a bad `color`/`background`/`omitClaudeMd`, clashes — is a warning.
 * - Claude Code's definitions load unchanged: `tools` as a comma-separated string or a list,
 *   `Task` read as `Agent`, `tools: *` as every tool, its extra fields tolerated with a warning.
 * - An explicitly listed `Agent` survives the async filter too (see `resolveSubagentTools`).
 */
export {
  AgentDefinitionSchema,
  AgentFileReportSchema,
  AgentSourceSchema,
  AgentColorSchema,
  FileIssueSchema,
  AGENT_NAME_PATTERN,
  type AgentDefinition,
  type AgentFileReport,
  type AgentSource,
  type FileIssue
} from './schema'
export { BUILTIN_AGENTS, RESERVED_AGENT_NAMES } from './builtins'
export {
  KNOWN_TOOL_NAMES,
  SUBAGENT_FORBIDDEN_TOOLS,
  MAX_AGENT_DEPTH,
  classifyToolName,
  resolveTeammateTools,
  type ToolNameReading
} from './toolNames'
export { resolveSubagentTools, splitToolList, type ResolveSubagentToolsInput, type ToolDropReason } from './tools'
export {
  resolveAgentModel,
  subagentModelOverride,
  SUBAGENT_MODEL_ENV,
  type ModelSource,
  type ResolveAgentModelInput
} from './model'
export type { ParsedAgentFile } from './frontmatter'
export {
  loadAgentDefinitions,
  agentDirectories,
  type LoadAgentDefinitionsOptions,
  type LoadedAgentDefinitions
} from './loader'
export { checkVerificationReport, type Verdict, type VerificationCheck } from './verification'
