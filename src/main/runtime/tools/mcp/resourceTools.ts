import { z } from 'zod'
import { McpServerError, type McpServerSet, type McpServerTools } from '../../mcp'
import { ToolError, type Tool } from '../types'
import { mcpOutputTokens, resourceText, toToolResult } from './result'

const ListInputSchema = z.object({
  server: z.string().optional().describe('Only this server’s resources; every server’s when omitted')
})
const ReadInputSchema = z.object({
  server: z.string().describe('The MCP server that has the resource'),
  uri: z.string().describe('The resource URI, as ListMcpResources gives it')
})

/** The name of the tool listing MCP resources (Claude Code's, without its `Tool` suffix). */
export const LIST_MCP_RESOURCES = 'ListMcpResources'
/** The name of the tool reading one MCP resource. */
export const READ_MCP_RESOURCE = 'ReadMcpResource'

/** Where the resource tools find one server: its name and the set it belongs to. */
export interface McpResourceRoute {
  server: string
  servers: McpServerSet
}

/** A resource tool with the routes it serves, so an agent given more servers can be given one pair over all of them. */
export type McpResourceTool = Tool & { readonly mcpResources: readonly McpResourceRoute[] }

/** The routes of the listed servers of `servers` that offer resources, in the listing's order. */
export function resourceRoutesOf(servers: McpServerSet, listed: readonly McpServerTools[]): McpResourceRoute[] {
  return listed.flatMap((l) => (l.ok && l.resources ? [{ server: l.server, servers }] : []))
}

/** The routes a resource tool serves (empty for any other tool). */
export function resourceRoutesOfTool(tool: Tool | undefined): readonly McpResourceRoute[] {
  return (tool as Partial<McpResourceTool> | undefined)?.mcpResources ?? []
}

function checkServer(servers: readonly string[], server: string): void {
  if (!servers.includes(server))
    throw new ToolError(
      `No MCP server '${server}' with resources for this agent. Servers with resources: ${servers.join(', ') || 'none'}.`
    )
}

function asToolError(error: unknown): never {
  if (error instanceof ToolError) throw error
  if (error instanceof McpServerError) throw new ToolError(error.message)
  throw new ToolError((error as Error).message)
}

/**
 * ListMcpResources and ReadMcpResource (docs/tools.md#mcp-servers), as Claude Code names them:
 * one pair per agent, over every server of the agent that offers resources (`routes`, whichever
 * set each belongs to: the session's, or servers started for the agent); none when no server
 * does. A server name appears once: of two routes of one name the first is kept, so a server
 * started for an agent shadows a session server of its name when it comes first. Both only
 * read: allowed unless a rule denies them. The listing is JSON, one entry per resource with its
 * `server`; a read resource is its text, or an image block for an image blob, under the same
 * output cap as MCP tools.
 */
export function createMcpResourceTools(routes: readonly McpResourceRoute[]): McpResourceTool[] {
  const byName = new Map<string, McpServerSet>()
  for (const r of routes) if (!byName.has(r.server)) byName.set(r.server, r.servers)
  if (byName.size === 0) return []
  const kept: McpResourceRoute[] = [...byName].map(([server, servers]) => ({ server, servers }))
  const servers = kept.map((r) => r.server)
  const setOf = (server: string): McpServerSet => byName.get(server)!
  const list: Tool<z.infer<typeof ListInputSchema>> = {
    name: LIST_MCP_RESOURCES,
    description: `List the resources of the MCP servers (${servers.join(', ')}): URI, name, type and description of each, with its server. Read one with ${READ_MCP_RESOURCE}.`,
    inputSchema: ListInputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    permissionSubject: () => ({ kind: 'tool', readOnly: true }),
    async call(input) {
      if (input.server !== undefined) checkServer(servers, input.server)
      const names = input.server !== undefined ? [input.server] : servers
      try {
        const all = await Promise.all(
          names.map(async (server) =>
            (await setOf(server).connection(server).listResources()).map((r) => ({ ...r, server }))
          )
        )
        const flat = all.flat()
        return { content: flat.length === 0 ? 'No resources found.' : JSON.stringify(flat, null, 2) }
      } catch (error) {
        asToolError(error)
      }
    }
  }
  const read: Tool<z.infer<typeof ReadInputSchema>> = {
    name: READ_MCP_RESOURCE,
    description: `Read one resource of an MCP server (${servers.join(', ')}) by its URI.`,
    inputSchema: ReadInputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    permissionSubject: () => ({ kind: 'tool', readOnly: true }),
    async call(input, ctx) {
      checkServer(servers, input.server)
      try {
        const result = await setOf(input.server).connection(input.server).readResource(input.uri, ctx.signal)
        const content = result.contents.map((c) =>
          'blob' in c && typeof c.mimeType === 'string' && c.mimeType.startsWith('image/')
            ? { type: 'image', data: c.blob, mimeType: c.mimeType }
            : { type: 'text', text: `[resource ${c.uri}${c.mimeType ? ` (${c.mimeType})` : ''}]\n${resourceText(c)}` }
        )
        return toToolResult({ content }, `MCP server '${input.server}' resource '${input.uri}'`, mcpOutputTokens())
      } catch (error) {
        asToolError(error)
      }
    }
  }
  return [list, read].map((t) => Object.assign(t as Tool, { mcpResources: kept }))
}

/**
 * `base` with `extra` joined (an agent's own MCP tools over the tools it has): a tool of `extra`
 * replaces the tool of its name in `base` where it stands, the others come after in their order.
 * So every name is one tool, and the agent's own servers win over the session's of their name.
 */
export function withMcpTools(base: readonly Tool[], extra: readonly Tool[]): Tool[] {
  const out = [...base]
  for (const t of extra) {
    const at = out.findIndex((o) => o.name === t.name)
    if (at >= 0) out[at] = t
    else out.push(t)
  }
  return out
}
