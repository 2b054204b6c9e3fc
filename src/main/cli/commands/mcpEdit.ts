import {
  addMcpServer,
  MCP_SCOPES,
  McpConfigError,
  mcpDefinitionsOf,
  McpEditError,
  mcpEntryOf,
  removeMcpServer,
  type McpScope,
  type McpServerConfig
} from '../../runtime/mcp'
import { swarmdeskHome } from '../../runtime/storage'
import { parseCommandArgs, UsageError } from '../io'
import { loadServers, probeServers, stateLine, workspaceFlag, type McpListEntry } from './mcpProbe'

const GET_USAGE = 'Use: swarmdesk mcp get NAME [--cwd DIR] [--mcp-config FILE]… [--json]'
const ADD_USAGE =
  "Use: swarmdesk mcp add [--scope local|project|user] [-e KEY=VAL]… NAME -- COMMAND [ARGS…], or swarmdesk mcp add --transport http|sse [-H 'Header: value']… NAME URL"
const REMOVE_USAGE = 'Use: swarmdesk mcp remove NAME [--scope local|project|user] [--cwd DIR] [--json]'

/** What `mcp get NAME --json` prints: the list entry, the definition as written, and every scope defining the name. */
export interface McpGetEntry extends McpListEntry {
  /** The winning definition as its file has it (`${VAR}` not expanded, so no secret of the environment is printed). */
  definition: Record<string, unknown>
  /** Every local/project/user file defining the name (the winner's among them unless it came from --mcp-config). */
  definedIn: Array<{ scope: McpScope; file: string }>
}

/**
 * `swarmdesk mcp get NAME [--cwd DIR] [--mcp-config FILE]… [--json]` (`claude mcp get`): one
 * server's source, definition and state (started, listed and closed when approved).
 * @throws UsageError (exit 2) for no NAME, an unknown NAME (listing the configured ones) or a malformed file.
 */
export async function mcpGetCommand(rest: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'mcp get',
    rest,
    { cwd: { type: 'string' }, 'mcp-config': { type: 'string', multiple: true }, json: { type: 'boolean' } },
    true
  )
  const name = oneName('mcp get', positionals, GET_USAGE)
  const cwd = workspaceFlag('mcp get', values.cwd, GET_USAGE)
  const servers = await loadServers('mcp get', cwd, values['mcp-config'])
  const server = servers.find((s) => s.name === name)
  if (!server)
    throw new UsageError(
      `swarmdesk mcp get: no MCP server named '${name}' (configured: ${servers.map((s) => s.name).join(', ') || 'none'}). Add one with swarmdesk mcp add.`
    )
  const [entry] = await probeServers([server])
  const defined = await definitions(name, cwd)
  const winner = defined.find((d) => d.file === server.file)
  const out: McpGetEntry = {
    ...entry!,
    definition: winner?.raw ?? mcpEntryOf(server.config),
    definedIn: defined.map(({ scope, file }) => ({ scope, file }))
  }
  process.stdout.write(values.json ? `${JSON.stringify(out)}\n` : renderGet(out))
  return 0
}

function renderGet(e: McpGetEntry): string {
  const d = e.definition
  const lines = [
    `${e.name}:`,
    `  Source: ${e.source} (${e.file})`,
    `  State: ${stateLine(e)}`,
    `  Type: ${e.transport}`
  ]
  if (e.transport === 'stdio') {
    lines.push(`  Command: ${String(d.command)}`, `  Args: ${((d.args as string[] | undefined) ?? []).join(' ')}`)
    const env = Object.entries((d.env as Record<string, string> | undefined) ?? {})
    if (env.length) lines.push(`  Environment:`, ...env.map(([k, v]) => `    ${k}=${v}`))
  } else {
    lines.push(`  URL: ${String(d.url)}`)
    const headers = Object.entries((d.headers as Record<string, string> | undefined) ?? {})
    if (headers.length) lines.push(`  Headers:`, ...headers.map(([k, v]) => `    ${k}: ${v}`))
  }
  if (e.tools?.length) lines.push(`  Tools: ${e.tools.join(', ')}`)
  if (e.state === 'failed') lines.push(`  Error: ${e.error}`)
  const shadowed = e.definedIn.filter((d) => d.file !== e.file)
  if (shadowed.length)
    lines.push(`  Also defined in (not used): ${shadowed.map((d) => `${d.scope} (${d.file})`).join(', ')}`)
  const own = e.definedIn.find((d) => d.file === e.file)
  if (own) lines.push(``, `To remove it: swarmdesk mcp remove ${e.name} --scope ${own.scope}`)
  return `${lines.join('\n')}\n`
}

/**
 * `swarmdesk mcp add [--scope S] [--transport stdio|http|sse] [-e KEY=VAL]… [-H 'Name: value']…
 * [--cwd DIR] [--json] NAME (-- COMMAND [ARGS…] | URL)` (`claude mcp add`): writes the server to
 * the scope's file (default local: `.swarmdesk/settings.local.json`; project: `.mcp.json`; user:
 * `<home>/settings.json`), by rename. Starts nothing.
 * @throws UsageError (exit 2) for a bad flag, a missing command or URL, `-e` on a remote server or
 *   `-H` on a stdio one, a name the scope already has, or a malformed file.
 */
export async function mcpAddCommand(rest: string[]): Promise<number> {
  const { values, positionals } = withDashHint(() =>
    parseCommandArgs(
      'mcp add',
      rest,
      {
        scope: { type: 'string', short: 's' },
        transport: { type: 'string', short: 't' },
        env: { type: 'string', short: 'e', multiple: true },
        header: { type: 'string', short: 'H', multiple: true },
        cwd: { type: 'string' },
        json: { type: 'boolean' }
      },
      true
    )
  )
  const scope = scopeFlag('mcp add', values.scope, ADD_USAGE) ?? 'local'
  const transport = values.transport ?? 'stdio'
  if (transport !== 'stdio' && transport !== 'http' && transport !== 'sse')
    throw new UsageError(`swarmdesk mcp add: --transport must be stdio, http or sse, got '${transport}'. ${ADD_USAGE}`)
  const [name, target, ...args] = positionals
  if (name === undefined) throw new UsageError(`swarmdesk mcp add: give the server's NAME. ${ADD_USAGE}`)
  let config: McpServerConfig
  if (transport === 'stdio') {
    if (values.header?.length)
      throw new UsageError(
        `swarmdesk mcp add: -H/--header is for http and sse servers; a stdio server takes -e KEY=VAL.`
      )
    if (target === undefined)
      throw new UsageError(`swarmdesk mcp add: give the command that starts '${name}' after --. ${ADD_USAGE}`)
    config = { type: 'stdio', command: target, args, env: pairs(values.env ?? []) }
  } else {
    if (values.env?.length)
      throw new UsageError(
        `swarmdesk mcp add: -e/--env is for stdio servers; an ${transport} server takes -H 'Name: value'.`
      )
    if (target === undefined)
      throw new UsageError(`swarmdesk mcp add: give the ${transport} server's URL. ${ADD_USAGE}`)
    if (args.length)
      throw new UsageError(`swarmdesk mcp add: an ${transport} server takes one URL, got also: ${args.join(' ')}.`)
    config = { type: transport, url: target, headers: headers(values.header ?? []) }
  }
  const cwd = workspaceFlag('mcp add', values.cwd, ADD_USAGE)
  const entry = mcpEntryOf(config)
  const file = await edit('mcp add', () => addMcpServer({ home: swarmdeskHome(), cwd, scope, name, entry }))
  if (values.json) process.stdout.write(`${JSON.stringify({ name, scope, file, definition: entry })}\n`)
  else {
    process.stdout.write(`Added ${transport} MCP server ${name} to ${scope} scope (${file}).\n`)
    if (scope === 'project')
      process.stdout.write(
        `A project server starts once approved: enabledMcpjsonServers or enableAllProjectMcpServers in settings, or Settings in the app.\n`
      )
  }
  return 0
}

/**
 * `swarmdesk mcp remove NAME [--scope S] [--cwd DIR] [--json]` (`claude mcp remove`): removes the
 * name from the scope's file; with no scope, from the one scope that defines it.
 * @throws UsageError (exit 2) when no scope (or not the one given) defines NAME, or several do and none is given.
 */
export async function mcpRemoveCommand(rest: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'mcp remove',
    rest,
    { scope: { type: 'string', short: 's' }, cwd: { type: 'string' }, json: { type: 'boolean' } },
    true
  )
  const name = oneName('mcp remove', positionals, REMOVE_USAGE)
  const scope = scopeFlag('mcp remove', values.scope, REMOVE_USAGE)
  const cwd = workspaceFlag('mcp remove', values.cwd, REMOVE_USAGE)
  const done = await edit('mcp remove', () => removeMcpServer({ home: swarmdeskHome(), cwd, name, scope }))
  process.stdout.write(
    values.json
      ? `${JSON.stringify({ name, ...done })}\n`
      : `Removed MCP server ${name} from ${done.scope} scope (${done.file}).\n`
  )
  return 0
}

async function definitions(name: string, cwd: string): ReturnType<typeof mcpDefinitionsOf> {
  return edit('mcp get', () => mcpDefinitionsOf(name, { home: swarmdeskHome(), cwd }))
}

/** Runs a file edit, its refusals and malformed files turned into UsageErrors of `command`. */
async function edit<T>(command: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof McpEditError || error instanceof McpConfigError)
      throw new UsageError(`swarmdesk ${command}: ${error.message}`)
    throw error
  }
}

/** An unknown flag is most often the server command's own: say to put `--` before the command. */
function withDashHint<T>(parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    if (error instanceof UsageError && /Unknown option/i.test(error.message))
      throw new UsageError(
        `${error.message}. If it is the server command's own flag, put -- before the command: swarmdesk mcp add NAME -- COMMAND ARGS…`
      )
    throw error
  }
}

function oneName(command: string, positionals: string[], usage: string): string {
  if (positionals.length !== 1)
    throw new UsageError(
      `swarmdesk ${command}: give exactly one server NAME${positionals.length ? `, got: ${positionals.join(' ')}` : ''}. ${usage}`
    )
  return positionals[0]!
}

function scopeFlag(command: string, value: string | undefined, usage: string): McpScope | undefined {
  if (value === undefined) return undefined
  if (!(MCP_SCOPES as readonly string[]).includes(value))
    throw new UsageError(`swarmdesk ${command}: --scope must be local, project or user, got '${value}'. ${usage}`)
  return value as McpScope
}

/** `KEY=VAL` flags as an object; a KEY is a shell variable name. */
function pairs(list: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const item of list) {
    const at = item.indexOf('=')
    const key = at === -1 ? item : item.slice(0, at)
    if (at === -1 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      throw new UsageError(`swarmdesk mcp add: -e takes KEY=VALUE (KEY of letters, digits and _), got '${item}'.`)
    out[key] = item.slice(at + 1)
  }
  return out
}

/** `Name: value` flags as an object (the header name as a token of HTTP, the value trimmed). */
function headers(list: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const item of list) {
    const at = item.indexOf(':')
    const key = at === -1 ? '' : item.slice(0, at).trim()
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key))
      throw new UsageError(`swarmdesk mcp add: -H takes 'Name: value', got '${item}'.`)
    out[key] = item.slice(at + 1).trim()
  }
  return out
}
