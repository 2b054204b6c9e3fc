/**
 * Adding and removing MCP servers in the files Swarmdesk reads them from (docs/tools.md#mcp-servers),
 * as `claude mcp add|remove` does: a scope names one file, which is read, changed in its
 * `mcpServers` alone (every other key kept) and written whole by rename, so a reader never sees a
 * torn file.
 */
import { mkdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { writeFileAtomicSync } from '../locks'
import { McpConfigError, parseMcpServers, type McpServerConfig } from './config'

/** The files a server can be written to: `.swarmdesk/settings.local.json`, `.mcp.json`, `<home>/settings.json`. */
export type McpScope = 'local' | 'project' | 'user'
/** Every scope, in the order a name is looked up when none is given (Claude Code's order). */
export const MCP_SCOPES: readonly McpScope[] = ['local', 'project', 'user']

/** Where the scopes live. */
export interface McpScopeRoots {
  /** Swarmdesk's home (user settings). */
  home: string
  /** The workspace (`.mcp.json`, local settings). */
  cwd: string
}

/** The file of `scope`. */
export function mcpScopeFile(scope: McpScope, roots: McpScopeRoots): string {
  if (scope === 'user') return path.join(roots.home, 'settings.json')
  if (scope === 'project') return path.join(roots.cwd, '.mcp.json')
  return path.join(roots.cwd, '.swarmdesk', 'settings.local.json')
}

/** An edit refused (duplicate name, unknown name, several scopes): the message says what to do. */
export class McpEditError extends Error {
  override readonly name = 'McpEditError'
}

/** One definition of a name, as written in one scope's file (`${VAR}` not expanded). */
export interface McpDefinition {
  scope: McpScope
  file: string
  /** The entry under `mcpServers.NAME`, as in the file. */
  raw: Record<string, unknown>
}

/**
 * A copy the schema can check without the environment: every `${VAR}` becomes its default or `0`,
 * so a definition naming a variable that is set only later is still checked for its shape.
 */
function checkable(json: unknown): unknown {
  if (typeof json === 'string')
    return json.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*(?::-([^}]*))?\}/g, (_m, fallback?: string) => fallback ?? '0')
  if (Array.isArray(json)) return json.map(checkable)
  if (json !== null && typeof json === 'object')
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, checkable(v)]))
  return json
}

/** The file as an object (undefined when it does not exist). Throws McpConfigError when it is not a JSON object. */
async function readObject(file: string): Promise<Record<string, unknown> | undefined> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new McpConfigError(file, '(file)', `cannot be read: ${(error as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new McpConfigError(file, '(file)', `is not valid JSON: ${(error as Error).message}. Fix it first.`)
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new McpConfigError(file, '(file)', 'must be a JSON object. Fix it first.')
  // a malformed mcpServers is refused before anything is written next to it
  parseMcpServers(checkable(json), file, {})
  return json as Record<string, unknown>
}

function serversOf(json: Record<string, unknown> | undefined): Record<string, Record<string, unknown>> {
  return (json?.mcpServers ?? {}) as Record<string, Record<string, unknown>>
}

/** Every scope's definition of `name`, in {@link MCP_SCOPES} order. Throws McpConfigError for a malformed file. */
export async function mcpDefinitionsOf(name: string, roots: McpScopeRoots): Promise<McpDefinition[]> {
  const out: McpDefinition[] = []
  for (const scope of MCP_SCOPES) {
    const file = mcpScopeFile(scope, roots)
    const servers = serversOf(await readObject(file))
    if (Object.hasOwn(servers, name)) out.push({ scope, file, raw: servers[name]! })
  }
  return out
}

/**
 * The entry written for `config`: stdio as `{type: "stdio", command, args, env}`, a remote one as
 * `{type, url}` with `headers` only when there are some (the shapes `.mcp.json` files carry).
 */
export function mcpEntryOf(config: McpServerConfig): Record<string, unknown> {
  if ('command' in config) return { type: 'stdio', command: config.command, args: config.args, env: config.env }
  return {
    type: config.type,
    url: config.url,
    ...(Object.keys(config.headers).length ? { headers: config.headers } : {})
  }
}

/**
 * Writes `name` into `scope`'s file. The entry is checked by the same schema as when it is read
 * (a name of letters, digits, `_` and `-`; a valid URL).
 * @throws McpEditError when `scope` already defines `name`; McpConfigError when the file or the
 *   entry is malformed (naming file and field).
 * @returns the file written.
 */
export async function addMcpServer(
  opts: McpScopeRoots & { scope: McpScope; name: string; entry: Record<string, unknown> }
): Promise<string> {
  const file = mcpScopeFile(opts.scope, opts)
  const json = (await readObject(file)) ?? {}
  const servers = serversOf(json)
  if (Object.hasOwn(servers, opts.name))
    throw new McpEditError(
      `an MCP server named '${opts.name}' already exists in ${opts.scope} scope (${file}). Remove it first: swarmdesk mcp remove ${opts.name} --scope ${opts.scope}`
    )
  parseMcpServers(checkable({ mcpServers: { [opts.name]: opts.entry } }), file, {})
  write(file, { ...json, mcpServers: { ...servers, [opts.name]: opts.entry } })
  return file
}

/**
 * Removes `name` from `scope`'s file, or, with no scope, from the one scope that defines it.
 * @throws McpEditError when no scope (or not `scope`) defines it, or several do and no scope is given.
 * @returns the scope and file changed.
 */
export async function removeMcpServer(
  opts: McpScopeRoots & { name: string; scope?: McpScope }
): Promise<{ scope: McpScope; file: string }> {
  const found = await mcpDefinitionsOf(opts.name, opts)
  const where = found.map((d) => `${d.scope} (${d.file})`).join(', ')
  let target: McpDefinition | undefined
  if (opts.scope) {
    target = found.find((d) => d.scope === opts.scope)
    if (!target)
      throw new McpEditError(
        `no MCP server named '${opts.name}' in ${opts.scope} scope (${mcpScopeFile(opts.scope, opts)})${found.length ? `; it is defined in ${where}` : ''}.`
      )
  } else if (found.length === 0) {
    throw new McpEditError(`no MCP server named '${opts.name}' in any scope (local, project, user).`)
  } else if (found.length > 1) {
    throw new McpEditError(
      `the MCP server '${opts.name}' is defined in several scopes: ${where}. Say which with --scope ${found.map((d) => d.scope).join('|')}.`
    )
  } else target = found[0]!
  const json = (await readObject(target.file))!
  const servers = { ...serversOf(json) }
  delete servers[opts.name]
  write(target.file, { ...json, mcpServers: servers })
  return { scope: target.scope, file: target.file }
}

/**
 * Approves the project server `name` (Claude Code's per-server approval): its name goes into
 * `enabledMcpjsonServers` of the local settings (`.swarmdesk/settings.local.json`) and out of
 * `disabledMcpjsonServers`, every other key kept.
 * @throws McpConfigError when the local settings file is malformed (or those keys are no list of names).
 * @returns the file written.
 */
export async function approveProjectMcpServer(opts: McpScopeRoots & { name: string }): Promise<string> {
  const file = mcpScopeFile('local', opts)
  const json = (await readObject(file)) ?? {}
  const names = (key: string): string[] => {
    const value = json[key] ?? []
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
      throw new McpConfigError(file, key, 'must be a list of server names. Fix it first.')
    return value as string[]
  }
  const enabled = names('enabledMcpjsonServers')
  const disabled = names('disabledMcpjsonServers').filter((n) => n !== opts.name)
  write(file, {
    ...json,
    enabledMcpjsonServers: enabled.includes(opts.name) ? enabled : [...enabled, opts.name],
    ...(json.disabledMcpjsonServers !== undefined ? { disabledMcpjsonServers: disabled } : {})
  })
  return file
}

function write(file: string, json: Record<string, unknown>): void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileAtomicSync(file, `${JSON.stringify(json, null, 2)}\n`)
}
