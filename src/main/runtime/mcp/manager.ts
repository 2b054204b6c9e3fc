/**
 * The MCP servers of one process (docs/tools.md#mcp-servers): one {@link McpConnection} per
 * server, started on first use and shared by every agent of the process that uses the server
 * (the leader, its subagents and forks), closed together at the session's end.
 */
import type { McpServerConfig, ResolvedMcpServer } from './config'
import { McpConnection, McpServerError, type McpTimeouts, type McpToolInfo } from './connection'

/** A server the manager may start: its name and definition. */
export interface McpServerEntry {
  name: string
  config: McpServerConfig
}

/** The tools of one server, or why there are none. */
export type McpServerTools =
  | { server: string; ok: true; tools: McpToolInfo[]; resources: boolean }
  | { server: string; ok: false; error: McpServerError }

/**
 * Owns the connections of a set of servers. `connection(name)` never starts anything; the first
 * request on it does. After {@link closeAll} every server process the manager started has exited
 * and no new connection is made.
 */
export class McpManager {
  private readonly entries = new Map<string, McpServerEntry>()
  private readonly connections = new Map<string, McpConnection>()
  private closed = false
  private readonly toolListeners = new Set<(server: string) => void>()

  /** `servers`: the servers that may start (approved ones only; see {@link startableServers}). */
  constructor(
    servers: readonly McpServerEntry[],
    private readonly timeouts: McpTimeouts = {}
  ) {
    for (const s of servers) this.entries.set(s.name, s)
  }

  /** Names of the servers, sorted. */
  get names(): string[] {
    return [...this.entries.keys()].sort()
  }

  /** Whether `name` is one of this manager's servers. */
  has(name: string): boolean {
    return this.entries.has(name)
  }

  /**
   * The one connection to `name` (created, not started, on first call).
   * @throws Error when `name` is not a server of this manager, or after {@link closeAll}.
   */
  connection(name: string): McpConnection {
    if (this.closed) throw new Error(`MCP server '${name}': the session's servers are closed`)
    let conn = this.connections.get(name)
    if (!conn) {
      const entry = this.entries.get(name)
      if (!entry) throw new Error(`no MCP server named '${name}' (configured: ${this.names.join(', ') || 'none'})`)
      conn = new McpConnection(name, entry.config, this.timeouts)
      conn.onListChanged((list) => {
        if (list === 'tools') for (const l of [...this.toolListeners]) l(name)
      })
      this.connections.set(name, conn)
    }
    return conn
  }

  /**
   * Starts each named server (all when `names` is omitted) and lists its tools, in parallel. A
   * server that fails to start or to list is returned with its error (stderr included), so the
   * caller can report it and go on without it.
   */
  async listTools(names: readonly string[] = this.names): Promise<McpServerTools[]> {
    return Promise.all(
      names.map(async (server): Promise<McpServerTools> => {
        try {
          const conn = this.connection(server)
          const tools = await conn.listTools()
          return { server, ok: true, tools, resources: await conn.hasResources() }
        } catch (error) {
          const failure =
            error instanceof McpServerError ? error : new McpServerError(server, (error as Error).message, '')
          return { server, ok: false, error: failure }
        }
      })
    )
  }

  /** Calls `listener` with a server's name each time that server says its tool list changed. Returns the remover. */
  onToolsChanged(listener: (server: string) => void): () => void {
    this.toolListeners.add(listener)
    return () => this.toolListeners.delete(listener)
  }

  /**
   * Closes the connection to `name` (waiting for its process to exit), so its next use starts the
   * server anew.
   * @throws Error when `name` is not a server of this manager, or after {@link closeAll}.
   */
  async restart(name: string): Promise<void> {
    if (this.closed) throw new Error(`MCP server '${name}': the session's servers are closed`)
    if (!this.entries.has(name)) throw new Error(`no MCP server named '${name}' (configured: ${this.names.join(', ')})`)
    const conn = this.connections.get(name)
    this.connections.delete(name)
    await conn?.close()
  }

  /** Closes every connection and waits for each server process to exit. Idempotent. */
  async closeAll(): Promise<void> {
    this.closed = true
    const all = [...this.connections.values()]
    this.connections.clear()
    await Promise.all(all.map((c) => c.close()))
  }
}

/**
 * Splits resolved servers into those that may start and those that may not, with the one-line
 * report a headless run prints for each skipped one (docs/tools.md#mcp-servers: an unapproved
 * project server is not started).
 */
export function startableServers(servers: readonly ResolvedMcpServer[]): {
  start: McpServerEntry[]
  skipped: Array<{ name: string; message: string }>
} {
  const start: McpServerEntry[] = []
  const skipped: Array<{ name: string; message: string }> = []
  for (const s of servers) {
    if (s.approval === 'approved') start.push({ name: s.name, config: s.config })
    else
      skipped.push({
        name: s.name,
        message:
          s.approval === 'disabled'
            ? `MCP server '${s.name}' (${s.file}) is disabled by disabledMcpjsonServers; not started.`
            : `MCP server '${s.name}' of the project's .mcp.json (${s.file}) is not approved; not started. Approve it with enabledMcpjsonServers or enableAllProjectMcpServers in settings, or pass the file with --mcp-config.`
      })
  }
  return { start, skipped }
}
