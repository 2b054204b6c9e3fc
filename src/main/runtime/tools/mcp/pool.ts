import type { McpManager, McpServerTools } from '../../mcp'
import type { Tool } from '../types'
import { mcpToolsOf } from './mcpTools'
import { createMcpResourceTools, resourceRoutesOf } from './resourceTools'

/** The servers' listing at one version: `version` grows by one with each real change of a list. */
export interface McpListing {
  version: number
  /** Every server of the first listing, in its order: the ones that failed with their error. */
  listed: McpServerTools[]
}

/**
 * The MCP tools of a session, kept current (docs/tools.md#mcp-servers): when a server sends
 * `notifications/tools/list_changed`, its tools are listed again and {@link tools} is a new array,
 * which the leader takes at its next model request, never inside one (after {@link settled});
 * teammates follow the same listing by its version ({@link latest}). The list is rebuilt only on a change (a
 * notification with the same list changes nothing), so the cached prompt prefix stays valid until
 * a list really changes.
 */
export class McpToolPool {
  private readonly lists = new Map<string, McpServerTools>()
  private built: Tool[]
  private version = 0
  private readonly relisting = new Set<Promise<void>>()
  private readonly stop: () => void

  /** `listed`: the servers' first listing, in the order their tools are offered. */
  constructor(
    private readonly manager: McpManager,
    listed: readonly McpServerTools[]
  ) {
    for (const entry of listed) this.lists.set(entry.server, entry)
    this.built = this.build()
    this.stop = manager.onToolsChanged((server) => {
      // a server that failed at the start stays out: its first listing said why
      if (!this.lists.get(server)?.ok) return
      const job = this.relist(server).finally(() => this.relisting.delete(job))
      this.relisting.add(job)
    })
  }

  /**
   * The `mcp__…` tools of every listed server, then ListMcpResources/ReadMcpResource when one has
   * resources: the same array until a list really changes.
   */
  get tools(): Tool[] {
    return this.built
  }

  /**
   * The listing as it is once every listing a notification started has finished, so a change the
   * server announced before this call (a tool it just added, in the same answer) is never missed.
   */
  async latest(): Promise<McpListing> {
    await this.settled()
    return { version: this.version, listed: [...this.lists.values()] }
  }

  /** The listing now, without waiting (what Settings shows of the session's connections). */
  get listing(): McpListing {
    return { version: this.version, listed: [...this.lists.values()] }
  }

  /**
   * Starts `server` anew on the session's connection (closed first, its process gone) and lists
   * its tools: a server that failed at the start gets its tools now, and every agent gets the new
   * list from its next model request on. Its state after, ok or failed.
   * @throws Error when `server` is not one of the pool's servers.
   */
  async reconnect(server: string): Promise<McpServerTools> {
    if (!this.lists.has(server)) throw new Error(`no MCP server named '${server}' in this session`)
    await this.manager.restart(server)
    const [entry] = await this.manager.listTools([server])
    const before = this.lists.get(server)
    this.lists.set(server, entry!)
    if (JSON.stringify(stateOf(before)) !== JSON.stringify(stateOf(entry))) {
      this.built = this.build()
      this.version++
    }
    return entry!
  }

  /** Resolves once every listing that a notification started has finished. */
  async settled(): Promise<void> {
    while (this.relisting.size > 0) await Promise.all([...this.relisting])
  }

  /** Stops following the servers' notifications. */
  dispose(): void {
    this.stop()
  }

  private async relist(server: string): Promise<void> {
    const [entry] = await this.manager.listTools([server])
    // a listing that failed (the server went away) keeps the last good list; the next call restarts it
    if (!entry?.ok) return
    const before = this.lists.get(server)
    if (before?.ok && JSON.stringify(before.tools) === JSON.stringify(entry.tools)) return
    this.lists.set(server, entry)
    this.built = this.build()
    this.version++
  }

  private build(): Tool[] {
    const listed = [...this.lists.values()]
    return [
      ...mcpToolsOf(this.manager, listed).tools,
      ...createMcpResourceTools(resourceRoutesOf(this.manager, listed))
    ]
  }
}

/** What of a listing entry changes the tools: its tools when ok, else nothing. */
function stateOf(entry: McpServerTools | undefined): unknown {
  return entry?.ok ? [entry.tools, entry.resources] : null
}
