import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadMcpConfig, McpConfigError, probeMcpServers, type ResolvedMcpServer } from '../../runtime/mcp'
import { swarmdeskHome } from '../../runtime/storage'
import { flagPath, UsageError } from '../io'

/** One server as `mcp list --json` prints it (docs/events.md#the-command-line). */
export interface McpListEntry {
  name: string
  source: 'user' | 'project' | 'local' | 'flag'
  file: string
  transport: 'stdio' | 'http' | 'sse'
  /** `connected` (it started and listed its tools), `failed` (with `error`), `awaiting-approval`, `disabled`. */
  state: 'connected' | 'failed' | 'awaiting-approval' | 'disabled'
  tools?: string[]
  error?: string
}

/** `--cwd` made absolute (default: the shell's directory). Throws UsageError when it is not a directory. */
export function workspaceFlag(command: string, value: string | undefined, usage: string): string {
  const cwd = resolve(flagPath(value) ?? process.cwd())
  if (!isDirectory(cwd)) throw new UsageError(`swarmdesk ${command}: --cwd ${cwd} is not a directory. ${usage}`)
  return cwd
}

/** Every configured server of `cwd`; a malformed file is a UsageError naming file and field. */
export async function loadServers(
  command: string,
  cwd: string,
  flagFiles: string[] | undefined
): Promise<ResolvedMcpServer[]> {
  try {
    return await loadMcpConfig({ home: swarmdeskHome(), cwd, flagFiles: (flagFiles ?? []).map((f) => flagPath(f)) })
  } catch (error) {
    if (error instanceof McpConfigError) throw new UsageError(`swarmdesk ${command}: ${error.message}`)
    throw error
  }
}

/**
 * Starts each approved one of `servers`, lists its tools and closes it again (every process it
 * started has exited on return): the state of each, in `servers`' order, tools by name.
 */
export async function probeServers(servers: readonly ResolvedMcpServer[]): Promise<McpListEntry[]> {
  return (await probeMcpServers(servers)).map(({ tools, ...rest }) =>
    tools ? { ...rest, tools: tools.map((t) => t.name) } : rest
  )
}

/** A server's state in one line: `connected, 3 tools`, `failed: why`, `awaiting-approval`. */
export function stateLine(e: McpListEntry): string {
  return e.state === 'connected'
    ? `connected, ${e.tools!.length} tools`
    : e.state === 'failed'
      ? `failed: ${e.error!.split('\n')[0]}`
      : e.state
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
