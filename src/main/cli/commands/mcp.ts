import { parseCommandArgs, UsageError } from '../io'
import { mcpAddCommand, mcpGetCommand, mcpRemoveCommand } from './mcpEdit'
import { loadServers, probeServers, stateLine, workspaceFlag, type McpListEntry } from './mcpProbe'

export type { McpListEntry } from './mcpProbe'

const USAGE = 'Use: swarmdesk mcp list|get|add|remove … (swarmdesk mcp --help)'
const LIST_USAGE = 'Use: swarmdesk mcp list [--cwd DIR] [--mcp-config FILE]… [--json]'

/**
 * `swarmdesk mcp list|get|add|remove …` (Claude Code's `claude mcp` verbs). Resolves the exit
 * code; throws UsageError (exit 2) for an unknown subcommand, bad flags or input.
 */
export async function mcpCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  switch (sub) {
    case 'list':
      return mcpListCommand(rest)
    case 'get':
      return mcpGetCommand(rest)
    case 'add':
      return mcpAddCommand(rest)
    case 'remove':
      return mcpRemoveCommand(rest)
    default:
      throw new UsageError(`swarmdesk mcp: unknown subcommand '${sub ?? ''}'. ${USAGE}`)
  }
}

/**
 * `swarmdesk mcp list [--cwd DIR] [--mcp-config FILE]… [--json]` (Claude Code's `claude mcp
 * list`): every server of every source, approved or not. Each approved server is started, its
 * tools listed and closed again, so its state says whether it works. Resolves 0 whatever the
 * servers do; throws UsageError (exit 2) for bad flags, a `--cwd` that is not a directory, or a
 * malformed configuration file (naming file and field).
 */
async function mcpListCommand(rest: string[]): Promise<number> {
  const { values } = parseCommandArgs('mcp list', rest, {
    cwd: { type: 'string' },
    'mcp-config': { type: 'string', multiple: true },
    json: { type: 'boolean' }
  })
  const cwd = workspaceFlag('mcp list', values.cwd, LIST_USAGE)
  const servers = await loadServers('mcp list', cwd, values['mcp-config'])
  const entries = await probeServers(servers)
  process.stdout.write(values.json ? JSON.stringify(entries) + '\n' : render(entries))
  return 0
}

function render(entries: McpListEntry[]): string {
  if (entries.length === 0) return 'No MCP servers configured.\n'
  return entries.map((e) => `${e.name}  ${e.transport}  ${e.source} (${e.file})  ${stateLine(e)}\n`).join('')
}
