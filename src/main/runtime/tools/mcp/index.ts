export {
  createMcpTool,
  mcpToolName,
  mcpToolsOf,
  normaliseMcpName,
  parseMcpToolName,
  type McpTool,
  type McpToolFacts
} from './mcpTools'
export {
  createMcpResourceTools,
  LIST_MCP_RESOURCES,
  READ_MCP_RESOURCE,
  resourceRoutesOf,
  resourceRoutesOfTool,
  withMcpTools,
  type McpResourceRoute,
  type McpResourceTool
} from './resourceTools'
export { DEFAULT_MCP_OUTPUT_TOKENS, mcpOutputTokens, toToolResult, type McpCallResult } from './result'
export { McpToolPool, type McpListing } from './pool'
