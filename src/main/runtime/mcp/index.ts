/**
 * MCP servers (docs/tools.md#mcp-servers): their configuration in Claude Code's shapes, with
 * `${VAR}` expansion, source precedence and project-server approval.
 */
export {
  expandVars,
  loadMcpConfig,
  McpConfigError,
  McpServerConfigSchema,
  parseMcpServers,
  type LoadMcpConfigOptions,
  type McpApprovalSettings,
  type McpServerConfig,
  type McpSource,
  type ResolvedMcpServer
} from './config'
export {
  DEFAULT_MCP_CALL_TIMEOUT_MS,
  DEFAULT_MCP_START_TIMEOUT_MS,
  McpConnection,
  McpServerError,
  type McpTimeouts
} from './connection'
