import { McpManager } from '../mcp'
import { createMcpResourceTools, mcpToolsOf, normaliseMcpName, type Tool } from '../tools'
import type { SubagentDefinition } from './types'

/** An agent's own MCP tools and how to release what was started for it. */
export interface AgentMcpTools {
  tools: Tool[]
  /** Servers that are missing or failed, each said once as the agent's notice. */
  warnings: string[]
  /** Closes the servers started for this agent alone (its inline ones); the shared ones stay. */
  release(): Promise<void>
}

/**
 * The MCP servers of subagents (docs/agents.md#agent-definitions `mcpServers`): a named server
 * is the session's shared connection (its tools from the session's pool: one connection per
 * server per process); an inline server is started for that agent and closed when its run
 * ends. As in Claude Code, these tools join the agent's tools whatever its `tools` list says.
 */
export class AgentMcp {
  private readonly started = new Set<McpManager>()

  /** `sessionTools`: the session's tools, whose `mcp__…` ones are the configured servers' tools. */
  constructor(private readonly sessionTools: readonly Tool[]) {}

  /** Opens `definition`'s servers. Never throws: a server that is missing or fails to start is a warning. */
  async open(definition: Pick<SubagentDefinition, 'name' | 'mcpServers'>): Promise<AgentMcpTools> {
    const entries = definition.mcpServers ?? []
    const tools: Tool[] = []
    const warnings: string[] = []
    for (const name of entries.filter((e): e is string => typeof e === 'string')) {
      const prefix = `mcp__${normaliseMcpName(name)}__`
      const own = this.sessionTools.filter((t) => t.name.startsWith(prefix))
      if (own.length === 0)
        warnings.push(
          `Agent type ${definition.name} names the MCP server '${name}' in mcpServers, but the session has no such server running (not configured, not approved, or it failed to start); it goes on without it.`
        )
      tools.push(...own)
    }
    const inline = entries.filter((e): e is Exclude<typeof e, string> => typeof e !== 'string')
    if (inline.length === 0) return { tools, warnings, release: async () => undefined }
    const manager = new McpManager(inline)
    this.started.add(manager)
    const listed = await manager.listTools()
    const made = mcpToolsOf(manager, listed)
    warnings.push(...made.failures)
    const withResources = listed.flatMap((l) => (l.ok && l.resources ? [l.server] : []))
    tools.push(...made.tools, ...createMcpResourceTools(manager, withResources))
    return {
      tools,
      warnings,
      release: async () => {
        this.started.delete(manager)
        await manager.closeAll()
      }
    }
  }

  /** Closes every agent's servers still open (the session ends). */
  async closeAll(): Promise<void> {
    const all = [...this.started]
    this.started.clear()
    await Promise.all(all.map((m) => m.closeAll()))
  }
}

/** `tools` with the agent's MCP tools after them, each name once (the first one kept). */
export function withAgentMcp(tools: readonly Tool[], mcp: AgentMcpTools | undefined): Tool[] {
  const out = [...tools]
  for (const t of mcp?.tools ?? []) if (!out.some((o) => o.name === t.name)) out.push(t)
  return out
}
