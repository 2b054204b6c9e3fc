import { RunUsageError } from '../base'
import {
  loadMcpConfig,
  McpConfigError,
  McpManager,
  mcpTimeoutsFromEnv,
  startableServers,
  type McpServerTools,
  type ResolvedMcpServer
} from '../mcp'
import { createMcpResourceTools, mcpToolsOf, McpToolPool, resourceRoutesOf, type Tool } from '../tools'

/** A session's MCP servers: the process's manager and the tools they give its agents. */
export interface SessionMcp {
  manager: McpManager
  /** Every configured server, approved or not (for `mcp list` and the report). */
  servers: ResolvedMcpServer[]
  /** The servers that started, with their tools, as listed at the start (worker teammates get the same). */
  listed: McpServerTools[]
  /** `mcp__…` tools of every server that started, then ListMcpResources/ReadMcpResource when one has resources. */
  tools: Tool[]
  /** The same tools kept current on the servers' list-changed notifications (undefined when none started). */
  pool?: McpToolPool
}

/**
 * Loads the MCP configuration (docs/tools.md#mcp-servers), starts every approved server and
 * lists its tools. Each server not started (awaiting approval, disabled) and each one that
 * failed to start (with its stderr) is reported once through `notice`; the agents go on without
 * it. Start and call timeouts come from `MCP_TIMEOUT` / `MCP_TOOL_TIMEOUT` in `env`. The caller
 * owns `manager` and closes it when the session ends.
 * @throws RunUsageError for a malformed configuration file (the message names file and field)
 *   or a timeout variable that is not a number of milliseconds.
 */
export async function openSessionMcp(options: {
  home: string
  cwd: string
  flagFiles?: string[]
  env?: NodeJS.ProcessEnv
  notice: (level: 'info' | 'warning', message: string) => void
}): Promise<SessionMcp> {
  let servers: ResolvedMcpServer[]
  try {
    servers = await loadMcpConfig({
      home: options.home,
      cwd: options.cwd,
      flagFiles: options.flagFiles,
      env: options.env
    })
  } catch (error) {
    if (error instanceof McpConfigError) throw new RunUsageError(`MCP configuration: ${error.message}`)
    throw error
  }
  const timeouts = mcpTimeoutsFromEnv(options.env ?? process.env)
  const { start, skipped } = startableServers(servers)
  for (const s of skipped) options.notice('warning', s.message)
  const manager = new McpManager(start, timeouts)
  if (start.length === 0) return { manager, servers, listed: [], tools: [] }
  const listed = await manager.listTools()
  const { tools, failures } = mcpToolsOf(manager, listed)
  for (const f of failures) options.notice('warning', f)
  const pool = new McpToolPool(manager, listed)
  return {
    manager,
    servers,
    listed: listed.filter((l) => l.ok),
    tools: [...tools, ...createMcpResourceTools(resourceRoutesOf(manager, listed))],
    pool
  }
}

/**
 * The leader's base tools, `core` then the session's MCP tools, as `Session.open`'s `tools` and
 * `currentTools` take them (docs/tools.md#mcp-servers): `currentTools` answers the same array until
 * a server's list changes (waiting for a listing a notification started), then a new one.
 */
export function leaderToolSource(
  core: readonly Tool[],
  mcp: Pick<SessionMcp, 'tools' | 'pool'>
): { tools: Tool[]; currentTools: () => Promise<Tool[]> } {
  let from = mcp.pool?.tools
  let tools = [...core, ...mcp.tools]
  return {
    tools,
    currentTools: async () => {
      await mcp.pool?.settled()
      const now = mcp.pool?.tools
      if (now && now !== from) tools = [...core, ...(from = now)]
      return tools
    }
  }
}
