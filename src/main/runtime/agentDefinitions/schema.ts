import { z } from 'zod'
import { PermissionModeSchema } from '../../../shared/permissions'
import { McpServerConfigSchema } from '../mcp'

/**
 * Where a definition came from. `builtin` ones ship with Swarmdesk; `project` ones live under the
 * workspace (`.swarmdesk/agents/` or `.claude/agents/`), `user` ones under the person's home
 * (`<SWARMDESK_HOME>/agents/` or `~/.claude/agents/`). `path` is the file, absent for built-ins.
 */
export const AgentSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('builtin') }).strict(),
  z.object({ kind: z.enum(['project', 'user']), path: z.string() }).strict()
])
export type AgentSource = z.infer<typeof AgentSourceSchema>

/** Agent names of custom definitions: lowercase words joined by hyphens (docs/agents.md#agent-definitions), e.g. `code-reviewer`. */
export const AGENT_NAME_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/

/** Colours a definition may give its pane (Claude Code's set, so its definitions keep theirs). */
export const AgentColorSchema = z.enum(['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan'])

/**
 * One agent definition, built-in or loaded from a Markdown file (docs/agents.md#agent-definitions).
 *
 * - `tools`: the exact tools the agent asks for; `undefined` = inherit everything the parent
 *   offers. Never holds `!X` entries: the loader moves exclusions into `disallowedTools`.
 * - `model`: `inherit`, an alias of MODEL_ALIASES, or a model id; `undefined` behaves as `inherit`.
 * - `permissionMode`: never `bubble` (internal to the runtime).
 * - `maxTurns`: model requests (turns) before the agent is stopped; `undefined` = no own limit.
 * - `background`: always run async (docs/agents.md#sync-and-background-runs).
 * - `omitClaudeMd`: no project instructions and no git status snapshot (docs/agents.md#project-instructions-and-trimming).
 * - `mcpServers`: servers the agent gets besides its parent's tools: names of configured servers,
 *   or inline `{name, config}` servers started for it (docs/agents.md#agent-definitions).
 * - `systemPrompt`: the role text; the runtime adds environment context around it.
 */
export const AgentDefinitionSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().min(1),
    tools: z.array(z.string()).optional(),
    disallowedTools: z.array(z.string()),
    model: z.string().min(1).optional(),
    mcpServers: z
      .array(z.union([z.string(), z.object({ name: z.string(), config: McpServerConfigSchema }).strict()]))
      .optional(),
    permissionMode: PermissionModeSchema.exclude(['bubble']).optional(),
    maxTurns: z.number().int().positive().optional(),
    background: z.boolean(),
    isolation: z.literal('worktree').optional(),
    omitClaudeMd: z.boolean(),
    color: AgentColorSchema.optional(),
    systemPrompt: z.string(),
    source: AgentSourceSchema
  })
  .strict()
export type AgentDefinition = z.infer<typeof AgentDefinitionSchema>

/** A finding about one field of a definition file. `field` is a frontmatter key, or `frontmatter`/`file`/`body`. */
export const FileIssueSchema = z.object({ field: z.string(), message: z.string() }).strict()
export type FileIssue = z.infer<typeof FileIssueSchema>

/**
 * One definition file as `swarmdesk agents list --json` reports it (docs/events.md#event-stream-and-command-line).
 *
 * - `name`: as written; `null` when the file has none that is a string.
 * - `source`: the file's absolute path.
 * - `tools`: the declared list, parsed (split on commas, trimmed, `!X` kept), before any
 *   filtering; `null` when omitted.
 * - `model`: as written, `null` when omitted.
 * - `overriddenBy`: the path of the file that won a name clash (absent when this file wins).
 * - `warnings`: the file is used, but something in it is ignored or odd (unknown tools, unknown
 *   model, extra fields, clashes). `problems`: the file cannot be used; each names its field.
 */
export const AgentFileReportSchema = z
  .object({
    name: z.string().nullable(),
    source: z.string(),
    tools: z.array(z.string()).nullable(),
    model: z.string().nullable(),
    overriddenBy: z.string().optional(),
    warnings: z.array(FileIssueSchema),
    problems: z.array(FileIssueSchema)
  })
  .strict()
export type AgentFileReport = z.infer<typeof AgentFileReportSchema>
