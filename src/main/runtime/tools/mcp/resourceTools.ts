import { z } from 'zod'
import { McpServerError, type McpManager } from '../../mcp'
import { ToolError, type Tool } from '../types'
import { mcpOutputTokens, resourceText, toToolResult } from './result'

const ListInputSchema = z.object({
  server: z.string().optional().describe('Only this server’s resources; every server’s when omitted')
})
const ReadInputSchema = z.object({
  server: z.string().describe('The MCP server that has the resource'),
  uri: z.string().describe('The resource URI, as ListMcpResources gives it')
})

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
 * ListMcpResources and ReadMcpResource (docs/tools.md#mcp-servers), as Claude Code names them,
 * for the `servers` (of `manager`) that offer resources; none when no server does. Both only
 * read: allowed unless a rule denies them. The listing is JSON, one entry per resource with its
 * `server`; a read resource is its text, or an image block for an image blob, under the same
 * output cap as MCP tools.
 */
export function createMcpResourceTools(manager: McpManager, servers: readonly string[]): Tool[] {
  if (servers.length === 0) return []
  const list: Tool<z.infer<typeof ListInputSchema>> = {
    name: 'ListMcpResources',
    description: `List the resources of the MCP servers (${servers.join(', ')}): URI, name, type and description of each, with its server. Read one with ReadMcpResource.`,
    inputSchema: ListInputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    permissionSubject: () => ({ kind: 'tool', readOnly: true }),
    async call(input) {
      if (input.server !== undefined) checkServer(servers, input.server)
      const names = input.server !== undefined ? [input.server] : servers
      try {
        const all = await Promise.all(
          names.map(async (server) => (await manager.connection(server).listResources()).map((r) => ({ ...r, server })))
        )
        const flat = all.flat()
        return { content: flat.length === 0 ? 'No resources found.' : JSON.stringify(flat, null, 2) }
      } catch (error) {
        asToolError(error)
      }
    }
  }
  const read: Tool<z.infer<typeof ReadInputSchema>> = {
    name: 'ReadMcpResource',
    description: `Read one resource of an MCP server (${servers.join(', ')}) by its URI.`,
    inputSchema: ReadInputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    permissionSubject: () => ({ kind: 'tool', readOnly: true }),
    async call(input, ctx) {
      checkServer(servers, input.server)
      try {
        const result = await manager.connection(input.server).readResource(input.uri, ctx.signal)
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
  return [list, read]
}
