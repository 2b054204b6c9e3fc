import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadMcpConfig, McpConfigError, McpManager, startableServers } from '../../runtime/mcp'
import { swarmdeskHome } from '../../runtime/storage'
import { flagPath, parseCommandArgs, UsageError } from '../io'

const USAGE = 'Use: swarmdesk mcp list [--cwd DIR] [--mcp-config FILE]… [--json]'

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

/**
 * `swarmdesk mcp list [--cwd DIR] [--mcp-config FILE]… [--json]` (Claude Code's `claude mcp
 * list`): every server of every source, approved or not. Each approved server is started, its
 * tools listed and closed again, so its state says whether it works. Resolves 0 whatever the
 * servers do; throws UsageError (exit 2) for bad flags, a `--cwd` that is not a directory, or a
 * malformed configuration file (naming file and field).
 */
export async function mcpCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'list') throw new UsageError(`swarmdesk mcp: unknown subcommand '${sub ?? ''}'. ${USAGE}`)
  const { values } = parseCommandArgs('mcp list', rest, {
    cwd: { type: 'string' },
    'mcp-config': { type: 'string', multiple: true },
    json: { type: 'boolean' }
  })
  const cwd = resolve(flagPath(values.cwd) ?? process.cwd())
  if (!isDirectory(cwd)) throw new UsageError(`swarmdesk mcp list: --cwd ${cwd} is not a directory. ${USAGE}`)
  let servers
  try {
    servers = await loadMcpConfig({
      home: swarmdeskHome(),
      cwd,
      flagFiles: (values['mcp-config'] ?? []).map((f) => flagPath(f))
    })
  } catch (error) {
    if (error instanceof McpConfigError) throw new UsageError(`swarmdesk mcp list: ${error.message}`)
    throw error
  }
  const manager = new McpManager(startableServers(servers).start)
  let listed
  try {
    listed = await manager.listTools()
  } finally {
    await manager.closeAll()
  }
  const entries: McpListEntry[] = servers.map((s) => {
    const base = {
      name: s.name,
      source: s.source,
      file: s.file,
      transport: 'command' in s.config ? ('stdio' as const) : s.config.type
    }
    if (s.approval !== 'approved') return { ...base, state: s.approval }
    const got = listed.find((l) => l.server === s.name)!
    return got.ok
      ? { ...base, state: 'connected' as const, tools: got.tools.map((t) => t.name) }
      : { ...base, state: 'failed' as const, error: got.error.message }
  })
  process.stdout.write(values.json ? JSON.stringify(entries) + '\n' : render(entries))
  return 0
}

function render(entries: McpListEntry[]): string {
  if (entries.length === 0) return 'No MCP servers configured.\n'
  return entries
    .map((e) => {
      const what =
        e.state === 'connected'
          ? `connected, ${e.tools!.length} tools`
          : e.state === 'failed'
            ? `failed: ${e.error!.split('\n')[0]}`
            : e.state
      return `${e.name}  ${e.transport}  ${e.source} (${e.file})  ${what}\n`
    })
    .join('')
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
