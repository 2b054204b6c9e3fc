import { z } from 'zod'
import { McpServerError, type McpServerSet, type McpServerTools, type McpToolInfo } from '../../mcp'
import { ToolError, type Tool } from '../types'
export { parseMcpToolName } from '../../../../shared/mcpNames'
import { mcpOutputTokens, toToolResult, type McpCallResult } from './result'

/**
 * A name as Claude Code writes it into a tool name: every character outside `[A-Za-z0-9_-]` (the
 * API's tool-name alphabet) becomes `_` (Claude Code's `normalizeNameForMCP`).
 */
export function normaliseMcpName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_')
}

/** The tool name of `tool` of `server`: `mcp__<server>__<tool>`, both parts normalised (Claude Code's `buildMcpToolName`). */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normaliseMcpName(server)}__${normaliseMcpName(tool)}`
}

/** The input of every MCP tool: an object, which the server validates against its own schema. */
const McpInputSchema = z.record(z.string(), z.unknown())

/** An MCP tool's extra facts, for the permission card and the panes. */
export interface McpToolFacts {
  server: string
  /** The tool's name on the server, before normalisation. */
  tool: string
}

/** A Tool that is one server tool: the facts ride on it, so the card can name server and tool. */
export type McpTool = Tool<Record<string, unknown>> & { readonly mcp: McpToolFacts }

/**
 * The Tool for one server tool (docs/tools.md#mcp-servers): named `mcp__<server>__<tool>`, its
 * description and JSON Schema as the server sent them (`inputJsonSchema`, passed to the model as
 * is), read-only and concurrency-safe when the server marks it `readOnlyHint`. Every call asks
 * unless a rule allows it (docs/permissions.md#mcp-tools). A server failure (crash, hang past
 * the call timeout) is a tool error naming the server; the next call restarts it.
 */
export function createMcpTool(servers: McpServerSet, server: string, info: McpToolInfo): McpTool {
  const name = mcpToolName(server, info.name)
  const readOnly = info.annotations?.readOnlyHint === true
  const label = `MCP server '${server}' tool '${info.name}'`
  return {
    name,
    mcp: { server, tool: info.name },
    description: info.description ?? `${info.name} of the MCP server ${server}`,
    inputSchema: McpInputSchema,
    inputJsonSchema: info.inputSchema as Record<string, unknown>,
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    permissionSubject: () => ({ kind: 'tool', tool: name, readOnly: false }),
    async call(input, ctx) {
      let result
      try {
        result = await servers.connection(server).callTool(info.name, input, ctx.signal)
      } catch (error) {
        if (error instanceof McpServerError) throw new ToolError(error.message)
        throw new ToolError(`${label}: ${(error as Error).message}`)
      }
      // a server of the 2024-10-07 protocol answers with `toolResult` instead of content
      const compat =
        'toolResult' in result && !('content' in result)
          ? { content: [{ type: 'text', text: JSON.stringify(result.toolResult) }] }
          : result
      return toToolResult(compat as McpCallResult, label, mcpOutputTokens())
    }
  }
}

/**
 * The tools of listed servers, in the servers' order and each server's own order (stable: part of
 * the cached prompt prefix). A server that failed is left out; `failures` names each with why.
 * Names are unambiguous: a tool whose `mcp__…` name is already in `taken` (another server's tool
 * of the same name after normalisation, `a__b`+`c` and `a`+`b__c`, or `x.y` and `x_y`) is left
 * out, with a failure naming both. `taken` is filled with the names given out.
 */
export function mcpToolsOf(
  servers: McpServerSet,
  listed: readonly McpServerTools[],
  taken: Map<string, string> = new Map()
): { tools: McpTool[]; failures: string[] } {
  const tools: McpTool[] = []
  const failures: string[] = []
  for (const entry of listed) {
    if (!entry.ok) {
      failures.push(`${entry.error.message}\nThe agents go on without its tools.`)
      continue
    }
    for (const info of entry.tools) {
      const name = mcpToolName(entry.server, info.name)
      const owner = taken.get(name)
      if (owner !== undefined) {
        failures.push(
          `MCP server '${entry.server}' tool '${info.name}' is left out: its name ${name} is already the name of a tool of the MCP server '${owner}'. Rename one of the servers in its configuration so their tool names differ.`
        )
        continue
      }
      taken.set(name, entry.server)
      tools.push(createMcpTool(servers, entry.server, info))
    }
  }
  return { tools, failures }
}
