import type { McpList, McpServerView } from '../../shared/ipc'
import {
  approveProjectMcpServer,
  loadMcpConfig,
  McpConfigError,
  probeMcpServers,
  type ResolvedMcpServer
} from '../runtime/mcp'

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
}

/**
 * The MCP servers of the open workspace as Settings shows them (docs/tools.md#mcp-servers): the
 * configuration is read anew for every request; each approved server is checked once (started,
 * its tools listed, closed again, so no server process stays behind) and that check is kept until
 * the person asks for a reconnect or the server's definition changes.
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
    const key = (s: ResolvedMcpServer): string => JSON.stringify([s.source, s.file, s.config, s.approval])
    const stale = servers.filter((s) => this.checked.get(s.name)?.definition !== key(s))
    const fresh = await probeMcpServers(stale)
    for (const [i, s] of stale.entries()) this.checked.set(s.name, { definition: key(s), view: fresh[i]! })
    return { servers: servers.map((s) => this.checked.get(s.name)!.view) }
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
   * Checks `name` again: a new start, its tools listed anew.
   * @throws McpRefusedError for an unknown name.
   */
  async reconnect(name: string): Promise<McpList> {
    if (!this.checked.has(name)) await this.list()
    if (!this.checked.has(name)) throw new McpRefusedError(`There is no MCP server named '${name}' in this workspace.`)
    this.checked.delete(name)
    return this.list()
  }
}
