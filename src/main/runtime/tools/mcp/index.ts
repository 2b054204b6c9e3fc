export {
  createMcpTool,
  mcpToolName,
  mcpToolsOf,
  normaliseMcpName,
  parseMcpToolName,
  type McpTool,
  type McpToolFacts
} from './mcpTools'
export { createMcpResourceTools } from './resourceTools'
export { DEFAULT_MCP_OUTPUT_TOKENS, mcpOutputTokens, toToolResult, type McpCallResult } from './result'
export { McpToolPool } from './pool'
