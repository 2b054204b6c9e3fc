import type { McpConnection } from './connection'
import type { McpServerTools } from './manager'

/**
 * One server as agents' tools use it: tool calls, resource lists and reads. An
 * {@link McpConnection} is one; a worker teammate's proxy of the main process's connection
 * (docs/tools.md#mcp-servers) is another.
 */
export type McpServerHandle = Pick<McpConnection, 'callTool' | 'listResources' | 'readResource'>

/**
 * A set of servers the MCP tools of an agent call into: the process's {@link McpManager}, the
 * servers started for one agent, or a worker teammate's view of the main process's servers
 * over its port. `connection` never starts anything; the first request on it does.
 */
export interface McpServerSet {
  /** Names of the servers, sorted. */
  readonly names: string[]
  /** The one handle of `name`. @throws Error when `name` is not a server of the set, or the set is closed. */
  connection(name: string): McpServerHandle
  /** Starts each named server (all when omitted) and lists its tools; a failure is an entry with its error, never a throw. */
  listTools(names?: readonly string[]): Promise<McpServerTools[]>
  /** Closes what the set started and waits for each server process to exit. Idempotent. */
  closeAll(): Promise<void>
}
