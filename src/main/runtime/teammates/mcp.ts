import { RunUsageError } from '../base'
import {
  loadMcpConfig,
  McpConfigError,
  McpManager,
  startableServers,
  type McpServerEntry,
  type McpServerSet,
  type McpServerTools,
  type McpTimeouts
} from '../mcp'
import { createMcpResourceTools, mcpToolsOf, normaliseMcpName, resourceRoutesOf, type Tool } from '../tools'

/** A set of servers and their tools as listed when it was opened. */
export interface TeammateMcpOpened {
  servers: McpServerSet
  listed: McpServerTools[]
}

/**
 * Where a teammate's MCP servers come from (docs/tools.md#mcp-servers): a worker teammate's are
 * the main process's (the session's shared connections, and its own servers started there),
 * reached over its port; a `process` teammate connects its own ({@link ownTeammateMcp}).
 */
export interface TeammateMcpHost {
  /** The session's servers that started, with their tools. */
  session(): Promise<TeammateMcpOpened>
  /** Starts `servers` (its definition's inline ones) for this teammate alone and lists their tools. */
  open(servers: readonly McpServerEntry[]): Promise<TeammateMcpOpened>
  /** Stops every server started for this teammate and waits for each process to exit. Idempotent. */
  close(): Promise<void>
}

/**
 * The MCP servers of a `process` teammate: it loads the configuration as the leader does
 * (`.mcp.json`, settings, and the leader's `--mcp-config` files, which it learns from
 * `SWARMDESK_MCP_CONFIG` or its own `--mcp-config`), starts the approved servers itself and stops
 * them when it ends. Servers not started (awaiting approval, disabled) are the leader's to report.
 * @throws RunUsageError from `session()` for a malformed configuration file.
 */
export function ownTeammateMcp(options: {
  home: string
  cwd: string
  flagFiles: readonly string[]
  env: NodeJS.ProcessEnv
  timeouts: McpTimeouts
}): TeammateMcpHost {
  const managers: McpManager[] = []
  let session: Promise<TeammateMcpOpened> | undefined
  const start = async (entries: readonly McpServerEntry[]): Promise<TeammateMcpOpened> => {
    const manager = new McpManager(entries, options.timeouts)
    managers.push(manager)
    return { servers: manager, listed: entries.length ? await manager.listTools() : [] }
  }
  return {
    session() {
      session ??= (async () => {
        let loaded
        try {
          loaded = await loadMcpConfig({ ...options, flagFiles: [...options.flagFiles] })
        } catch (error) {
          if (error instanceof McpConfigError) throw new RunUsageError(`MCP configuration: ${error.message}`)
          throw error
        }
        return start(startableServers(loaded).start)
      })()
      return session
    },
    open: start,
    async close() {
      await Promise.all(managers.splice(0).map((m) => m.closeAll()))
    }
  }
}

/**
 * A teammate's MCP tools (docs/tools.md#mcp-servers, docs/teams.md#backends): every tool of the
 * session's servers, then those of the inline servers its definition (`agentType`) starts for it,
 * then one ListMcpResources/ReadMcpResource pair over every server with resources. Names are
 * unambiguous: a name of its own servers wins over a session server's tool of that name (left
 * out, with a warning). A named server of `mcpServers` that is not running is a warning.
 * Never throws for a server: one that fails to start is a warning and the teammate goes on.
 */
export async function openTeammateMcp(
  host: TeammateMcpHost,
  definition: { name: string; mcpServers?: ReadonlyArray<string | McpServerEntry> } | undefined
): Promise<{ tools: Tool[]; warnings: string[] }> {
  const session = await host.session()
  const entries = definition?.mcpServers ?? []
  const inline = entries.filter((e): e is McpServerEntry => typeof e !== 'string')
  const warnings: string[] = []
  for (const name of entries.filter((e): e is string => typeof e === 'string'))
    if (!session.listed.some((l) => l.ok && normaliseMcpName(l.server) === normaliseMcpName(name)))
      warnings.push(
        `Agent type ${definition?.name} names the MCP server '${name}' in mcpServers, but the session has no such server running (not configured, not approved, or it failed to start); it goes on without it.`
      )
  const own = inline.length ? await host.open(inline) : undefined
  const taken = new Map<string, string>()
  const mine = own ? mcpToolsOf(own.servers, own.listed, taken) : { tools: [], failures: [] }
  const shared = mcpToolsOf(session.servers, session.listed, taken)
  warnings.push(...mine.failures, ...shared.failures)
  const routes = [
    ...(own ? resourceRoutesOf(own.servers, own.listed) : []),
    ...resourceRoutesOf(session.servers, session.listed)
  ]
  return { tools: [...shared.tools, ...mine.tools, ...createMcpResourceTools(routes)], warnings }
}
