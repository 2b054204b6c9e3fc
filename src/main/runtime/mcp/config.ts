/**
 * MCP server configuration in Claude Code's file shapes (docs/tools.md#mcp-servers): a project's
 * `.mcp.json`, `mcpServers` in the user and local settings, and `--mcp-config FILE` files. A name
 * defined in several places is one server, the highest source winning:
 * `--mcp-config` > local settings > project `.mcp.json` > user settings.
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'

/** A stdio server: a command started with its arguments and extra environment. */
export const StdioServerSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({})
})

/** A remote server over streamable HTTP (`http`) or server-sent events (`sse`). */
export const RemoteServerSchema = z.strictObject({
  type: z.enum(['http', 'sse']),
  url: z.string().url(),
  headers: z.record(z.string(), z.string()).default({})
})

/** One server's definition, as written under `mcpServers.NAME`. */
export const McpServerConfigSchema = z.union([StdioServerSchema, RemoteServerSchema])
/** A parsed server definition (after `${VAR}` expansion). */
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>

const McpFileSchema = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()).default({}) })

/** Where a server's definition came from, lowest precedence first. */
export type McpSource = 'user' | 'project' | 'local' | 'flag'
const PRECEDENCE: Record<McpSource, number> = { user: 0, project: 1, local: 2, flag: 3 }

/** Project-server approval, as in Claude Code's settings. */
export interface McpApprovalSettings {
  enableAllProjectMcpServers?: boolean
  enabledMcpjsonServers?: string[]
  disabledMcpjsonServers?: string[]
}

/** One configured server with its winning source and whether it may start. */
export interface ResolvedMcpServer {
  name: string
  source: McpSource
  file: string
  config: McpServerConfig
  /** `approved` starts; `awaiting-approval` (project, not yet approved) and `disabled` do not. */
  approval: 'approved' | 'awaiting-approval' | 'disabled'
}

/** A configuration file that is malformed: the message names the file and the field. */
export class McpConfigError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    detail: string
  ) {
    super(`${file}: ${field}: ${detail}`)
    this.name = 'McpConfigError'
  }
}

/**
 * Expands `${VAR}` and `${VAR:-default}` in a string from `env`. A variable that is unset and has
 * no default is an error naming it, since a server started with a literal `${VAR}` fails later
 * and less clearly.
 */
export function expandVars(text: string, env: NodeJS.ProcessEnv, where: () => McpConfigError): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback?: string) => {
    const value = env[name]
    if (value !== undefined && value !== '') return value
    if (fallback !== undefined) return fallback
    const error = where()
    throw new McpConfigError(
      error.file,
      error.field,
      `environment variable ${name} is not set and has no default (\${${name}:-default})`
    )
  })
}

function expandDeep(value: unknown, env: NodeJS.ProcessEnv, file: string, field: string): unknown {
  if (typeof value === 'string') return expandVars(value, env, () => new McpConfigError(file, field, ''))
  if (Array.isArray(value)) return value.map((v, i) => expandDeep(v, env, file, `${field}[${i}]`))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandDeep(v, env, file, `${field}.${k}`)]))
  }
  return value
}

/** The fields each kind of server takes, for messages. */
const STDIO_FIELDS = '"command" (required), "args", "env", and optionally "type": "stdio"'
const REMOTE_FIELDS = '"type" ("http" or "sse"), "url" (required) and "headers"'

/** How to write a server, said when its shape cannot be told. */
const SHAPES =
  'write {"command": "…", "args": […]} for a stdio server, or {"type": "http", "url": "https://…"} (or "type": "sse") for a remote one'

/**
 * Checks one server definition (after `${VAR}` expansion) against the shape its keys say it is
 * (a stdio server has `command`; a remote one `type` `http`/`sse` and `url`), so a problem
 * names the field that is wrong and what to write instead, never just "Invalid input".
 * `field` is the path under the server (`url`, `args`, `env.TOKEN`), empty for the whole entry.
 */
export function checkServerDefinition(
  raw: unknown
): { ok: true; config: McpServerConfig } | { ok: false; field: string; message: string } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, field: '', message: `must be an object, not ${JSON.stringify(raw)}: ${SHAPES}` }
  const entry = raw as Record<string, unknown>
  const type = entry.type
  let schema: typeof StdioServerSchema | typeof RemoteServerSchema
  let fields: string
  if (type === 'http' || type === 'sse') [schema, fields] = [RemoteServerSchema, REMOTE_FIELDS]
  else if (type === undefined || type === 'stdio') {
    if (!('command' in entry))
      return 'url' in entry
        ? {
            ok: false,
            field: 'type',
            message: 'is missing: a server with a "url" needs "type": "http" (streamable HTTP) or "type": "sse"'
          }
        : { ok: false, field: 'command', message: `is missing: ${SHAPES}` }
    ;[schema, fields] = [StdioServerSchema, STDIO_FIELDS]
  } else return { ok: false, field: 'type', message: `must be "stdio", "http" or "sse", not ${JSON.stringify(type)}` }
  const parsed = schema.safeParse(raw)
  if (parsed.success) return { ok: true, config: parsed.data }
  const issue = parsed.error.issues[0]!
  const field = issue.path.map(String).join('.')
  if (issue.code === 'unrecognized_keys')
    return {
      ok: false,
      field,
      message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: this kind of server takes ${fields}`
    }
  const expected: Record<string, string> = {
    command: 'a non-empty string, the program to start',
    args: 'a list of strings, like ["--port", "8080"]',
    env: 'an object of string values, like {"TOKEN": "${TOKEN}"}',
    url: 'an absolute URL, like "https://example.com/mcp"',
    headers: 'an object of string values, like {"Authorization": "Bearer ${TOKEN}"}'
  }
  const top = String(issue.path[0] ?? '')
  const hint = expected[top] ? `; it must be ${expected[top]}` : ''
  return { ok: false, field, message: `${issue.message}${hint}` }
}

/**
 * Parses the `mcpServers` of one file's JSON value. Throws McpConfigError naming the file and
 * the field (`mcpServers.NAME.url`), what is wrong and what to write, for anything malformed.
 */
export function parseMcpServers(json: unknown, file: string, env: NodeJS.ProcessEnv): Map<string, McpServerConfig> {
  const top = McpFileSchema.safeParse(json)
  if (!top.success)
    throw new McpConfigError(
      file,
      'mcpServers',
      'must be an object of server definitions by name, like {"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}'
    )
  const out = new Map<string, McpServerConfig>()
  for (const [name, raw] of Object.entries(top.data.mcpServers)) {
    if (!/^[A-Za-z0-9_-]+$/.test(name)) {
      throw new McpConfigError(file, `mcpServers.${name}`, 'a server name may hold only letters, digits, _ and -')
    }
    const expanded = expandDeep(raw, env, file, `mcpServers.${name}`)
    const checked = checkServerDefinition(expanded)
    if (!checked.ok)
      throw new McpConfigError(file, `mcpServers.${name}${checked.field ? `.${checked.field}` : ''}`, checked.message)
    out.set(name, checked.config)
  }
  return out
}

async function readJson(file: string, required: boolean): Promise<unknown> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new McpConfigError(file, '(file)', `cannot be read: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new McpConfigError(file, '(file)', `is not valid JSON: ${(error as Error).message}`)
  }
}

/** Inputs of loadMcpConfig. */
export interface LoadMcpConfigOptions {
  /** Swarmdesk's home (user settings at `<home>/settings.json`). */
  home: string
  /** The workspace: `.mcp.json` and `.swarmdesk/settings.local.json` there. */
  cwd: string
  /** `--mcp-config` files, in the order given (a later file wins a name over an earlier one). */
  flagFiles?: string[]
  env?: NodeJS.ProcessEnv
  /** Files read in place of the user and local settings (a teammate on another host, docs/hosts.md#the-sessions-settings-on-the-host). */
  sources?: { userFile?: string; localFile?: string }
}

/**
 * Reads every source and resolves each server name to its highest source, with its approval.
 * Approval settings are read from user and local settings (name lists joined, local's switch wins). Throws McpConfigError
 * for a malformed file; a missing optional file is no error, a missing `--mcp-config` file is.
 */
export async function loadMcpConfig(opts: LoadMcpConfigOptions): Promise<ResolvedMcpServer[]> {
  const env = opts.env ?? process.env
  const userFile = opts.sources?.userFile ?? path.join(opts.home, 'settings.json')
  const localFile = opts.sources?.localFile ?? path.join(opts.cwd, '.swarmdesk', 'settings.local.json')
  const projectFile = path.join(opts.cwd, '.mcp.json')
  const sources: Array<{ source: McpSource; file: string; required: boolean }> = [
    { source: 'user', file: userFile, required: false },
    { source: 'project', file: projectFile, required: false },
    { source: 'local', file: localFile, required: false },
    ...(opts.flagFiles ?? []).map((file) => ({
      source: 'flag' as const,
      file: path.resolve(opts.cwd, file),
      required: true
    }))
  ]
  const approval: McpApprovalSettings = {}
  const winners = new Map<string, ResolvedMcpServer>()
  for (const { source, file, required } of sources) {
    const json = await readJson(file, required)
    if (json === undefined) continue
    if (source === 'user' || source === 'local') mergeApproval(approval, pickApproval(json, file))
    for (const [name, config] of parseMcpServers(json, file, env)) {
      const prior = winners.get(name)
      if (prior && PRECEDENCE[prior.source] > PRECEDENCE[source]) continue
      winners.set(name, { name, source, file, config, approval: 'approved' })
    }
  }
  for (const server of winners.values()) server.approval = approvalOf(server, approval)
  return [...winners.values()].sort((a, b) => a.name.localeCompare(b.name))
}

const ApprovalSchema = z.looseObject({
  enableAllProjectMcpServers: z.boolean().optional(),
  enabledMcpjsonServers: z.array(z.string()).optional(),
  disabledMcpjsonServers: z.array(z.string()).optional()
})

function pickApproval(json: unknown, file: string): McpApprovalSettings {
  const parsed = ApprovalSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new McpConfigError(file, issue?.path.join('.') || '(file)', issue?.message ?? 'invalid')
  }
  const { enableAllProjectMcpServers, enabledMcpjsonServers, disabledMcpjsonServers } = parsed.data
  return Object.fromEntries(
    Object.entries({ enableAllProjectMcpServers, enabledMcpjsonServers, disabledMcpjsonServers }).filter(
      ([, v]) => v !== undefined
    )
  )
}

/**
 * Adds a later source's approval settings to `into`: the name lists are joined (a name approved in
 * user settings stays approved when local settings approve another, as Claude Code merges setting
 * arrays); `enableAllProjectMcpServers` of the later source wins.
 */
function mergeApproval(into: McpApprovalSettings, next: McpApprovalSettings): void {
  if (next.enableAllProjectMcpServers !== undefined) into.enableAllProjectMcpServers = next.enableAllProjectMcpServers
  for (const key of ['enabledMcpjsonServers', 'disabledMcpjsonServers'] as const)
    if (next[key]) into[key] = [...new Set([...(into[key] ?? []), ...next[key]])]
}

/** Only project servers need approval; a disabled name wins over enabling. */
function approvalOf(server: ResolvedMcpServer, settings: McpApprovalSettings): ResolvedMcpServer['approval'] {
  if (server.source !== 'project') return 'approved'
  if (settings.disabledMcpjsonServers?.includes(server.name)) return 'disabled'
  if (settings.enableAllProjectMcpServers || settings.enabledMcpjsonServers?.includes(server.name)) return 'approved'
  return 'awaiting-approval'
}
