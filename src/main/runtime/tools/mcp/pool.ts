import type { McpManager, McpServerTools } from '../../mcp'
import type { Tool } from '../types'
import { mcpToolsOf } from './mcpTools'
import { createMcpResourceTools, resourceRoutesOf } from './resourceTools'

/**
 * The MCP tools of a session, kept current (docs/tools.md#mcp-servers): when a server sends
 * `notifications/tools/list_changed`, its tools are listed again and {@link takeChange} hands the
 * new list to the next model request of the leader, never to one under way. The list is rebuilt
 * only on a change (a notification with the same list changes nothing), so the cached prompt
 * prefix stays valid until a list really changes.
 */
export class McpToolPool {
  private readonly lists = new Map<string, McpServerTools>()
  private built: Tool[]
  private version = 0
  private taken = 0
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

  /** The `mcp__…` tools of every listed server, then ListMcpResources/ReadMcpResource when one has resources. */
  get tools(): Tool[] {
    return this.built
  }

  /**
   * The tools anew when a server's list changed since the last call, else undefined. A listing a
   * notification already started is waited for first, so a change the server announced before
   * this call (as a tool it just added, in the same answer) is never missed.
   */
  async takeChange(): Promise<Tool[] | undefined> {
    await this.settled()
    if (this.taken === this.version) return undefined
    this.taken = this.version
    return this.built
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
