import type { McpList, McpServerView } from '../../shared/ipc'
import {
  approveProjectMcpServer,
  loadMcpConfig,
  McpConfigError,
  probeMcpServers,
  type McpServerTools,
  type ResolvedMcpServer
} from '../runtime/mcp'
import type { McpToolPool } from '../runtime/tools'

/** A Settings MCP request refused: the message names what was wrong; nothing was changed. */
export class McpRefusedError extends Error {
  override readonly name = 'McpRefusedError'
}

/** Inputs of {@link McpControl}. */
export interface McpControlOptions {
  /** The workspace, canonical. */
  cwd: string
  home: string
  env?: NodeJS.ProcessEnv
  /** `--mcp-config` files the workspace was opened with, if any. */
  flagFiles?: string[]
  /** The session's servers: as configured when it opened, and the pool of those that started (absent when none did). */
  session?: { servers: readonly ResolvedMcpServer[]; pool?: McpToolPool }
}

/**
 * The MCP servers of the open workspace as Settings shows them (docs/tools.md#mcp-servers): the
 * configuration is read anew for every request. A server the session started, defined as it is
 * now, shows the session's own connection: connected with the tools its agents have, or failed
 * with why. Any other approved server is checked once (started, its tools listed, closed again, so
 * no server process stays behind) and that check is kept until the person asks for a reconnect or
 * the server's definition changes.
 */
export class McpControl {
  /** The last check of each server, with the definition it was made with (as JSON). */
  private readonly checked = new Map<string, { definition: string; view: McpServerView }>()

  constructor(private readonly options: McpControlOptions) {}

  /** Every server of every source, approved ones checked (unchecked or changed ones now, in parallel). */
  async list(): Promise<McpList> {
    let servers: ResolvedMcpServer[]
    try {
      servers = await loadMcpConfig({ ...this.options, env: this.options.env ?? process.env })
    } catch (error) {
      if (error instanceof McpConfigError) return { servers: [], problem: error.message }
      throw error
    }
    const live = new Map(servers.flatMap((s) => this.sessionEntry(s)).map((e) => [e.server, e]))
    const stale = servers.filter((s) => !live.has(s.name) && this.checked.get(s.name)?.definition !== keyOf(s))
    const fresh = await probeMcpServers(stale)
    for (const [i, s] of stale.entries())
      this.checked.set(s.name, {
        definition: keyOf(s),
        view: { ...fresh[i]!, ...(s.approval === 'approved' ? { of: 'check' as const } : {}) }
      })
    return {
      servers: servers.map((s) => {
        const entry = live.get(s.name)
        return entry ? sessionView(s, entry) : this.checked.get(s.name)!.view
      })
    }
  }

  /** The session's connection to `s` as listed now, when the session started `s` as it is defined now. */
  private sessionEntry(s: ResolvedMcpServer): McpServerTools[] {
    const { session } = this.options
    const then = session?.servers.find((t) => t.name === s.name)
    if (!session?.pool || !then || keyOf(then) !== keyOf(s)) return []
    return session.pool.listing.listed.filter((l) => l.server === s.name)
  }

  /**
   * Approves the project server `name` in the local settings, then lists (it is checked now).
   * @throws McpRefusedError when `name` is no project server, or the local settings are malformed.
   */
  async approve(name: string): Promise<McpList> {
    const now = await this.list()
    const server = now.servers.find((s) => s.name === name)
    if (!server || server.source !== 'project')
      throw new McpRefusedError(
        server
          ? `The MCP server '${name}' comes from ${server.source} settings (${server.file}), which need no approval; only .mcp.json servers do.`
          : `There is no MCP server named '${name}' in this workspace.`
      )
    try {
      await approveProjectMcpServer({ home: this.options.home, cwd: this.options.cwd, name })
    } catch (error) {
      if (error instanceof McpConfigError) throw new McpRefusedError(error.message)
      throw error
    }
    return this.list()
  }

  /**
   * Starts `name` again: the session's connection when the session has it (closed, started, its
   * tools listed anew; every agent gets them from its next model request on), else a new check.
   * @throws McpRefusedError for an unknown name.
   */
  async reconnect(name: string): Promise<McpList> {
    const { session } = this.options
    if (session?.pool?.listing.listed.some((l) => l.server === name)) {
      const now = await this.list()
      if (now.servers.find((s) => s.name === name)?.of === 'session') {
        await session.pool.reconnect(name)
        return this.list()
      }
    }
    if (!this.checked.has(name)) await this.list()
    if (!this.checked.has(name)) throw new McpRefusedError(`There is no MCP server named '${name}' in this workspace.`)
    this.checked.delete(name)
    return this.list()
  }
}

/** What a server's check depends on: its source, file, definition and approval. */
function keyOf(s: ResolvedMcpServer): string {
  return JSON.stringify([s.source, s.file, s.config, s.approval])
}

/** A server as the session's connection to it has it. */
function sessionView(s: ResolvedMcpServer, entry: McpServerTools): McpServerView {
  const base = {
    name: s.name,
    source: s.source,
    file: s.file,
    transport: 'command' in s.config ? ('stdio' as const) : s.config.type,
    of: 'session' as const
  }
  return entry.ok
    ? {
        ...base,
        state: 'connected',
        tools: entry.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}) }))
      }
    : { ...base, state: 'failed', error: entry.error.message }
}
