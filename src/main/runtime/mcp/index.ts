/**
 * MCP servers (docs/tools.md#mcp-servers): their configuration in Claude Code's shapes, with
 * `${VAR}` expansion, source precedence and project-server approval; connections over the SDK's
 * client; the manager holding one connection per server per process.
 */
export {
  checkServerDefinition,
  expandVars,
  loadMcpConfig,
  McpConfigError,
  McpServerConfigSchema,
  RemoteServerSchema,
  StdioServerSchema,
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
  MCP_CALL_TIMEOUT_ENV,
  MCP_START_TIMEOUT_ENV,
  McpConnection,
  McpServerError,
  mcpTimeoutsFromEnv,
  type McpPromptInfo,
  type McpPromptResult,
  type McpResourceInfo,
  type McpTimeouts,
  type McpToolInfo
} from './connection'
export {
  addMcpServer,
  approveProjectMcpServer,
  MCP_SCOPES,
  mcpDefinitionsOf,
  McpEditError,
  mcpEntryOf,
  mcpScopeFile,
  removeMcpServer,
  type McpDefinition,
  type McpScope,
  type McpScopeRoots
} from './edit'
export { McpManager, startableServers, type McpServerEntry, type McpServerTools } from './manager'
export type { McpServerHandle, McpServerSet } from './serverSet'
export {
  expandMcpPrompt,
  listMcpPromptCommands,
  McpPromptError,
  parsePromptCommand,
  promptArguments,
  type McpPromptCommand
} from './prompts'
export { probeMcpServers, type McpServerState } from './probe'
