import { RunUsageError } from '../base'
import { AgentMcp } from '../subagents'
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
import {
  createMcpResourceTools,
  mcpToolsOf,
  McpToolPool,
  normaliseMcpName,
  resourceRoutesOf,
  type McpListing,
  type Tool
} from '../tools'

/** A set of servers and their tools as listed when it was opened. */
export interface TeammateMcpOpened {
  servers: McpServerSet
  listed: McpServerTools[]
  /** The session's listing's version, when its lists may change (see {@link TeammateMcpHost.sessionChanges}). */
  version?: number
}

/**
 * Where a teammate's MCP servers come from (docs/tools.md#mcp-servers): a worker teammate's are
 * the main process's (the session's shared connections, and its own servers started there),
 * reached over its port; a `process` teammate connects its own ({@link ownTeammateMcp}).
 */
export interface TeammateMcpHost {
  /** The session's servers that started, with their tools. */
  session(): Promise<TeammateMcpOpened>
  /**
   * The session's servers that listed, when a server's tool list changed since `version` (its
   * `tools/list_changed`, docs/tools.md#mcp-servers), else undefined. A listing a notification
   * started is waited for first.
   */
  sessionChanges(version: number): Promise<McpListing | undefined>
  /** Starts `servers` (its definition's inline ones) for this teammate alone and lists their tools. */
  open(servers: readonly McpServerEntry[]): Promise<TeammateMcpOpened>
  /**
   * A set of `servers` for one of its subagents (its definition's inline ones), started where the
   * teammate's own are, on first use; its `closeAll` stops them, and so does {@link close}.
   * @throws Error after {@link close}.
   */
  starter(servers: readonly McpServerEntry[]): McpServerSet
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
  /** Read in place of the user and local settings (a teammate on another host). */
  sources?: { userFile?: string; localFile?: string }
}): TeammateMcpHost {
  const managers = new Set<McpManager>()
  let closed = false
  let session: Promise<TeammateMcpOpened & { pool?: McpToolPool }> | undefined
  const manage = (entries: readonly McpServerEntry[]): McpManager => {
    if (closed) throw new Error('the teammate has ended: its MCP servers are closed')
    const manager = new McpManager(entries, options.timeouts)
    managers.add(manager)
    return manager
  }
  const start = async (entries: readonly McpServerEntry[]): Promise<TeammateMcpOpened> => {
    const manager = manage(entries)
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
        const entries = startableServers(loaded).start
        const manager = manage(entries)
        if (entries.length === 0) return { servers: manager, listed: [] }
        const listed = await manager.listTools()
        // its own connections' list changes, followed as the leader's pool follows the leader's
        const pool = new McpToolPool(manager, listed)
        return { servers: manager, listed, pool, version: pool.listing.version }
      })()
      return session
    },
    async sessionChanges(version) {
      const pool = (await session)?.pool
      const now = await pool?.latest()
      return now && now.version !== version ? { ...now, listed: now.listed.filter((l) => l.ok) } : undefined
    },
    open: start,
    starter(entries) {
      const manager = manage(entries)
      return {
        get names() {
          return manager.names
        },
        connection: (name) => manager.connection(name),
        listTools: (names) => manager.listTools(names),
        async closeAll() {
          managers.delete(manager)
          await manager.closeAll()
        }
      }
    },
    async close() {
      closed = true
      ;(await session?.catch(() => undefined))?.pool?.dispose()
      const all = [...managers]
      managers.clear()
      await Promise.all(all.map((m) => m.closeAll()))
    }
  }
}

/** A teammate's MCP tools as {@link openTeammateMcp} builds them. */
export interface TeammateMcpTools {
  /** Its `mcp__…` tools and resource pair, after its own tools. */
  tools: Tool[]
  /** Servers missing or failed, name clashes: each said once as its notice. */
  warnings: string[]
  /** The session's part of them (no inline server of its own): what its subagents' named `mcpServers` use. */
  sessionTools: Tool[]
  /**
   * The tools anew when a session server's list changed since the last call (docs/tools.md#mcp-servers),
   * else undefined; called before each model request of the teammate, never inside one.
   */
  refresh(): Promise<{ tools: Tool[]; sessionTools: Tool[] } | undefined>
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
): Promise<TeammateMcpTools> {
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
  const build = (listed: readonly McpServerTools[]) => {
    const taken = new Map<string, string>()
    const mine = own ? mcpToolsOf(own.servers, own.listed, taken) : { tools: [], failures: [] }
    const shared = mcpToolsOf(session.servers, listed, taken)
    const sessionRoutes = resourceRoutesOf(session.servers, listed)
    const routes = [...(own ? resourceRoutesOf(own.servers, own.listed) : []), ...sessionRoutes]
    return {
      tools: [...shared.tools, ...mine.tools, ...createMcpResourceTools(routes)],
      sessionTools: [...shared.tools, ...createMcpResourceTools(sessionRoutes)],
      failures: [...mine.failures, ...shared.failures]
    }
  }
  const first = build(session.listed)
  warnings.push(...first.failures)
  let version = session.version
  return {
    tools: first.tools,
    sessionTools: first.sessionTools,
    warnings,
    async refresh() {
      if (version === undefined) return undefined
      const change = await host.sessionChanges(version)
      if (!change) return undefined
      version = change.version
      const { tools, sessionTools } = build(change.listed)
      return { tools, sessionTools }
    }
  }
}

/**
 * A teammate's MCP side (docs/tools.md#mcp-servers): its tools ({@link openTeammateMcp}), kept
 * current on the session servers' list changes, and its subagents' own servers (their
 * definitions' `mcpServers`), whose inline ones start where the teammate's do — the main process
 * for a worker, its own process for a `process` teammate — and whose named ones are the session's
 * tools the teammate has when the subagent starts.
 */
export class TeammateMcp {
  /** Its subagents' servers: give it to their runtime; `closeAll` when the teammate ends. */
  readonly agents: AgentMcp
  private opened: TeammateMcpTools | undefined
  private sessionTools: Tool[] = []

  constructor(private readonly host: TeammateMcpHost) {
    this.agents = new AgentMcp(
      () => this.sessionTools,
      (entries) => host.starter(entries)
    )
  }

  /** Opens its servers (see {@link openTeammateMcp}): its MCP tools and the warnings to say. */
  async open(definition: Parameters<typeof openTeammateMcp>[1]): Promise<{ tools: Tool[]; warnings: string[] }> {
    this.opened = await openTeammateMcp(this.host, definition)
    this.sessionTools = this.opened.sessionTools
    return this.opened
  }

  /** Its MCP tools anew when a session server's list changed since the last call, else undefined. */
  async refresh(): Promise<Tool[] | undefined> {
    const fresh = await this.opened?.refresh()
    if (!fresh) return undefined
    this.sessionTools = fresh.sessionTools
    return fresh.tools
  }
}
