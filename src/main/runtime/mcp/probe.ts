import type { McpSource, ResolvedMcpServer } from './config'
import type { McpTimeouts } from './connection'
import { McpManager, startableServers } from './manager'

/** One server's state as `mcp list` and Settings show it (docs/tools.md#mcp-servers). */
export interface McpServerState {
  name: string
  source: McpSource
  file: string
  transport: 'stdio' | 'http' | 'sse'
  /** `connected` (it started and listed its tools), `failed` (with `error`), `awaiting-approval`, `disabled`. */
  state: 'connected' | 'failed' | 'awaiting-approval' | 'disabled'
  /** Its tools, when connected: name and description as the server lists them. */
  tools?: Array<{ name: string; description?: string }>
  /** Why it failed (its stderr included), when failed. */
  error?: string
}

/**
 * Starts each approved one of `servers`, lists its tools and closes it again, in parallel: the
 * state of each, in `servers`' order. Every server process it started has exited on return.
 * Never throws for a server's failure (that is its state).
 */
export async function probeMcpServers(
  servers: readonly ResolvedMcpServer[],
  timeouts: McpTimeouts = {}
): Promise<McpServerState[]> {
  const manager = new McpManager(startableServers(servers).start, timeouts)
  let listed
  try {
    listed = await manager.listTools()
  } finally {
    await manager.closeAll()
  }
  return servers.map((s) => {
    const base = {
      name: s.name,
      source: s.source,
      file: s.file,
      transport: 'command' in s.config ? ('stdio' as const) : s.config.type
    }
    if (s.approval !== 'approved') return { ...base, state: s.approval }
    const got = listed.find((l) => l.server === s.name)!
    return got.ok
      ? {
          ...base,
          state: 'connected' as const,
          tools: got.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}) }))
        }
      : { ...base, state: 'failed' as const, error: got.error.message }
  })
}
