import { McpManager, type McpServerEntry, type McpServerSet, type McpServerTools, type McpTimeouts } from '../mcp'
import {
  createMcpResourceTools,
  LIST_MCP_RESOURCES,
  mcpToolsOf,
  normaliseMcpName,
  resourceRoutesOf,
  resourceRoutesOfTool,
  withMcpTools,
  type Tool
} from '../tools'
import type { EventBus } from '../events'
import type { SubagentDefinition } from './types'

/** An agent's own MCP tools and how to release what was started for it. */
export interface AgentMcpTools {
  tools: Tool[]
  /** Servers that are missing or failed, each said once as the agent's notice. */
  warnings: string[]
  /**
   * Stops the servers started for this agent alone (its inline ones); the shared ones stay. Its
   * tools keep working: a later call (the agent resumed by SendMessage) starts them again, and
   * the next release stops them again.
   */
  release(): Promise<void>
}

/**
 * Starts the inline servers of one agent as a set: in this process ({@link inProcessServers}), or
 * in the main process for a worker teammate's subagents (docs/tools.md#mcp-servers). The set starts
 * nothing until used; its `closeAll` stops what it started.
 */
export type AgentServerStarter = (entries: readonly McpServerEntry[]) => McpServerSet

/** An {@link AgentServerStarter} of this process: a manager of the entries with `timeouts`. */
export function inProcessServers(timeouts: McpTimeouts = {}): AgentServerStarter {
  return (entries) => new McpManager(entries, timeouts)
}

/**
 * The inline servers of one agent: a set made on first use, closed by {@link release} and
 * made again on the next use, so a resumed agent's tools start their servers again; after
 * {@link closeAll} (the session ends) nothing starts.
 */
class AgentServers implements McpServerSet {
  private set: McpServerSet | undefined
  private ended = false

  constructor(
    private readonly entries: readonly McpServerEntry[],
    private readonly start: AgentServerStarter
  ) {}

  get names(): string[] {
    return this.entries.map((e) => e.name).sort()
  }

  private live(): McpServerSet {
    if (this.ended) throw new Error(`the MCP servers of this agent are closed: its session ended`)
    return (this.set ??= this.start(this.entries))
  }

  connection(name: string): ReturnType<McpServerSet['connection']> {
    return this.live().connection(name)
  }

  listTools(names?: readonly string[]): Promise<McpServerTools[]> {
    return this.live().listTools(names)
  }

  /** Stops the servers now; a later use starts them again. */
  async release(): Promise<void> {
    const m = this.set
    this.set = undefined
    await m?.closeAll()
  }

  async closeAll(): Promise<void> {
    this.ended = true
    await this.release()
  }
}

/**
 * The MCP servers of subagents (docs/agents.md#agent-definitions `mcpServers`): a named server
 * is the session's shared connection (its tools from the session's pool: one connection per
 * server per process); an inline server is started for that agent and stopped when its run
 * ends (started again if it is resumed). As in Claude Code, these tools join the agent's tools
 * whatever its `tools` list says. An agent with inline servers offering resources gets one
 * ListMcpResources/ReadMcpResource pair over those and the session's.
 */
export class AgentMcp {
  private readonly started = new Set<AgentServers>()

  /**
   * `sessionTools`: the session's MCP tools now (read when an agent opens its servers): the
   * `mcp__…` tools of the configured servers, and the resource tools naming the session's servers
   * with resources. `start`: how inline servers start (default in this process, default timeouts;
   * docs/tools.md#mcp-servers).
   */
  constructor(
    private readonly sessionTools: () => readonly Tool[],
    private readonly start: AgentServerStarter = inProcessServers()
  ) {}

  /** Opens `definition`'s servers. Never throws: a server that is missing or fails to start is a warning. */
  async open(definition: Pick<SubagentDefinition, 'name' | 'mcpServers'>): Promise<AgentMcpTools> {
    const entries = definition.mcpServers ?? []
    const sessionTools = this.sessionTools()
    const tools: Tool[] = []
    const warnings: string[] = []
    for (const name of entries.filter((e): e is string => typeof e === 'string')) {
      const prefix = `mcp__${normaliseMcpName(name)}__`
      const own = sessionTools.filter((t) => t.name.startsWith(prefix))
      if (own.length === 0)
        warnings.push(
          `Agent type ${definition.name} names the MCP server '${name}' in mcpServers, but the session has no such server running (not configured, not approved, or it failed to start); it goes on without it.`
        )
      tools.push(...own)
    }
    const inline = entries.filter((e): e is Exclude<typeof e, string> => typeof e !== 'string')
    if (inline.length === 0) return { tools, warnings, release: async () => undefined }
    const servers = new AgentServers(inline, this.start)
    this.started.add(servers)
    const listed = await servers.listTools()
    const made = mcpToolsOf(servers, listed)
    warnings.push(...made.failures)
    const own = resourceRoutesOf(servers, listed)
    const session = resourceRoutesOfTool(sessionTools.find((t) => t.name === LIST_MCP_RESOURCES))
    for (const r of own)
      if (session.some((s) => s.server === r.server))
        warnings.push(
          `Agent type ${definition.name} defines its own MCP server '${r.server}', which is also a server of the session: for this agent '${r.server}' is its own one.`
        )
    // its own servers first: of one name, the agent's own is the one its resource tools reach
    const resources = own.length ? createMcpResourceTools([...own, ...session]) : []
    tools.push(...made.tools, ...resources)
    // stopped after each run, started again on use (a resume); ended for good by closeAll
    return { tools, warnings, release: () => servers.release() }
  }

  /** Closes every agent's servers still open (the session ends). */
  async closeAll(): Promise<void> {
    const all = [...this.started]
    this.started.clear()
    await Promise.all(all.map((m) => m.closeAll()))
  }
}

/**
 * `tools` with the agent's MCP tools joined ({@link withMcpTools}): each name once, the agent's
 * own tool of a name replacing the one it had (its inline server over a session server of that
 * name, its resource tools over the session's).
 */
export function withAgentMcp(tools: readonly Tool[], mcp: AgentMcpTools | undefined): Tool[] {
  return withMcpTools(tools, mcp?.tools ?? [])
}

/** The part of an agent's run config its MCP servers make: its tools with theirs joined, and their release. */
export function mcpRunConfig(
  tools: readonly Tool[],
  mcp: AgentMcpTools | undefined
): { tools: Tool[]; release?: () => Promise<void> } {
  return { tools: withAgentMcp(tools, mcp), ...(mcp ? { release: mcp.release } : {}) }
}

/** Each warning of an agent's MCP servers (missing, failed to start, shadowing) as the agent's notice. */
export function mcpNotices(
  bus: EventBus,
  who: { agentId: string; agentName: string },
  mcp: AgentMcpTools | undefined
): void {
  for (const message of mcp?.warnings ?? [])
    bus.emit({ type: 'notice', level: 'warning', message, agentId: who.agentId, agentName: who.agentName })
}

/**
 * Stops an agent's inline servers once its run has ended, unless it runs again already (a message
 * that came during its cleanup resumed it): that run's own end stops them.
 */
export async function releaseIdle(task: { status: string; config?: { release?: () => Promise<void> } }): Promise<void> {
  if (task.status !== 'running') await task.config?.release?.()
}
