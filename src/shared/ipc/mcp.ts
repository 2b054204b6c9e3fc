import { z } from 'zod'
import { Empty } from './common'

/** One MCP server as Settings lists it (docs/tools.md#mcp-servers, docs/ui.md#the-workspace-ui). */
export const McpServerViewSchema = z.object({
  name: z.string(),
  /** Where its winning definition is: `--mcp-config` (flag), local settings, the project's `.mcp.json`, user settings. */
  source: z.enum(['flag', 'local', 'project', 'user']),
  file: z.string(),
  transport: z.enum(['stdio', 'http', 'sse']),
  /** `connected`: it started and listed its tools; `failed`: with `error`; a project server not yet approved; disabled by `disabledMcpjsonServers`. */
  state: z.enum(['connected', 'failed', 'awaiting-approval', 'disabled']),
  tools: z.array(z.object({ name: z.string(), description: z.string().optional() })).optional(),
  /** Why it failed, the server's stderr included. */
  error: z.string().optional(),
  /**
   * Whether the state is the session's own connection (`session`: the agents use it; Reconnect
   * restarts it and they get its new tools) or a check on a connection of its own (`check`: a
   * server the session did not start — approved, added or changed since it opened — used from
   * the next session on).
   */
  of: z.enum(['session', 'check']).optional()
})
export type McpServerView = z.infer<typeof McpServerViewSchema>

/** Every configured server of the workspace, or why the configuration cannot be read. */
export const McpListSchema = z.object({
  servers: z.array(McpServerViewSchema),
  /** A malformed configuration file (`FILE: FIELD: what is wrong`); `servers` is then empty. */
  problem: z.string().optional()
})
export type McpList = z.infer<typeof McpListSchema>

const ServerName = z.object({ name: z.string().min(1).max(200) }).strict()

/** The Settings view's MCP requests (docs/tools.md#mcp-servers; src/main/app/mcpControl.ts answers them). */
export const mcpChannels = {
  /**
   * Every server of every source, approved or not. A server the session started shows the state of
   * the session's connection (its tools as the agents have them now); any other approved one is
   * checked: started, its tools listed, closed again (that check is kept until `mcp.reconnect` or a
   * change of its definition).
   */
  'mcp.list': { request: Empty, response: McpListSchema },
  /**
   * Approves a project (`.mcp.json`) server: its name goes into `enabledMcpjsonServers` of the
   * local settings (out of `disabledMcpjsonServers`), then it is checked. Refused for a name that
   * is no project server.
   */
  'mcp.approve': { request: ServerName, response: McpListSchema },
  /** Starts one server again: the session's connection when it has one (its agents get the new tools), else a new check; refused for an unknown name. */
  'mcp.reconnect': { request: ServerName, response: McpListSchema }
} as const
