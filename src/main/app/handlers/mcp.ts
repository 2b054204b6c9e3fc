import type { mcpChannels } from '../../../shared/ipc'
import { McpRefusedError } from '../mcpControl'
import { refusing } from '../requestError'
import type { FeatureHandlers, HandlerContext } from './context'

/** The Settings view's MCP requests (src/shared/ipc/mcp.ts), answered by mcpControl.ts; a refusal is the request's error. */
export function mcpHandlers(ctx: HandlerContext): FeatureHandlers<typeof mcpChannels> {
  return {
    'mcp.list': () => ctx.mcp.list(),
    'mcp.approve': (payload) => refusing([McpRefusedError], () => ctx.mcp.approve(payload.name)),
    'mcp.reconnect': (payload) => refusing([McpRefusedError], () => ctx.mcp.reconnect(payload.name))
  }
}
