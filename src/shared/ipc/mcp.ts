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
  error: z.string().optional()
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
   * Every server of every source, approved or not, each approved one checked: started, its tools
   * listed, closed again (a server's last check is kept until `mcp.reconnect` or a change of its
   * definition).
   */
  'mcp.list': { request: Empty, response: McpListSchema },
  /**
   * Approves a project (`.mcp.json`) server: its name goes into `enabledMcpjsonServers` of the
   * local settings (out of `disabledMcpjsonServers`), then it is checked. Refused for a name that
   * is no project server.
   */
  'mcp.approve': { request: ServerName, response: McpListSchema },
  /** Checks one server again (a new start); refused for an unknown name. */
  'mcp.reconnect': { request: ServerName, response: McpListSchema }
} as const
