import { z } from 'zod'

/** How to reach a NATS server: never printed whole (see {@link describeTransport}). */
export type NatsAuth = { token: string } | { user: string; password: string } | { credsFile: string }

/**
 * Where a team lives (docs/nats.md#configuration): the data directory's files, or NATS JetStream
 * at `servers` (`nats://host:port`, several for a cluster) with optional credentials.
 */
export type TeamTransport = { kind: 'files' } | { kind: 'nats'; servers: string[]; auth?: NatsAuth }

/** Bad `--team-transport` / `teamTransport` / environment: says what was wrong and what to give. */
export class TeamTransportError extends Error {
  override name = 'TeamTransportError'
}

/** The environment variables a transport travels in to a `process` teammate (docs/nats.md#configuration). */
export const TRANSPORT_ENV = {
  transport: 'SWARMDESK_TEAM_TRANSPORT',
  token: 'SWARMDESK_NATS_TOKEN',
  user: 'SWARMDESK_NATS_USER',
  password: 'SWARMDESK_NATS_PASSWORD',
  credsFile: 'SWARMDESK_NATS_CREDS'
} as const

/** The `teamTransport` setting: `"files"`, a URL list, or an object naming servers and credentials. */
export const TeamTransportSettingSchema = z.union([
  z.string(),
  z.object({
    servers: z.union([z.string(), z.array(z.string()).min(1)]),
    token: z.string().optional(),
    user: z.string().optional(),
    password: z.string().optional(),
    credsFile: z.string().optional()
  })
])
export type TeamTransportSetting = z.infer<typeof TeamTransportSettingSchema>

const USE =
  'give "files", or nats://host:port (several comma-separated), with credentials as nats://user:password@host:port, nats://token@host:port, or a creds file'

/**
 * Parses a transport: `files` (or empty) → files; `nats://…[,nats://…]` → JetStream. Credentials
 * come from the URL's user part (`user:password@` or `token@`), else from `extra`.
 * @throws TeamTransportError naming what is wrong.
 */
export function parseTeamTransport(
  value: TeamTransportSetting | undefined,
  extra: Partial<Record<'token' | 'user' | 'password' | 'credsFile', string>> = {}
): TeamTransport {
  if (value === undefined) return { kind: 'files' }
  const setting = typeof value === 'string' ? { servers: value } : value
  const list = (Array.isArray(setting.servers) ? setting.servers : setting.servers.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '')
  if (list.length === 0 || (list.length === 1 && list[0] === 'files')) return { kind: 'files' }
  let auth: NatsAuth | undefined
  const servers = list.map((raw) => {
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      throw new TeamTransportError(`team transport '${redactUrl(raw)}' is not a URL: ${USE}`)
    }
    if (url.protocol !== 'nats:' && url.protocol !== 'tls:')
      throw new TeamTransportError(`team transport '${redactUrl(raw)}': the scheme must be nats:// or tls://; ${USE}`)
    if (!url.hostname) throw new TeamTransportError(`team transport '${redactUrl(raw)}' names no host; ${USE}`)
    if (url.username && !auth)
      auth = url.password
        ? { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
        : { token: decodeURIComponent(url.username) }
    return `${url.protocol}//${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${url.port || '4222'}`
  })
  const given = { ...extra, ...(typeof value === 'string' ? {} : value) }
  if (!auth) {
    if (given.credsFile) auth = { credsFile: given.credsFile }
    else if (given.token) auth = { token: given.token }
    else if (given.user !== undefined || given.password !== undefined) {
      if (!given.user || given.password === undefined)
        throw new TeamTransportError('team transport: a NATS user needs both a user name and a password')
      auth = { user: given.user, password: given.password }
    }
  }
  return auth ? { kind: 'nats', servers, auth } : { kind: 'nats', servers }
}

/** The transport from a teammate's environment (written by {@link transportEnv}). @throws TeamTransportError */
export function transportFromEnv(env: NodeJS.ProcessEnv): TeamTransport {
  const value = env[TRANSPORT_ENV.transport]
  if (!value) return { kind: 'files' }
  return parseTeamTransport(value, {
    token: env[TRANSPORT_ENV.token],
    user: env[TRANSPORT_ENV.user],
    password: env[TRANSPORT_ENV.password],
    credsFile: env[TRANSPORT_ENV.credsFile]
  })
}

/**
 * The environment that hands `transport` to a child process (credentials in their own variables,
 * never in the URL). The files need none, unless `inherited` (what the child would otherwise
 * inherit, default this process's environment) names a server: then `files` says so, so that a
 * leader told `--team-transport files` never has teammates on the server its shell exported.
 */
export function transportEnv(
  transport: TeamTransport,
  inherited: NodeJS.ProcessEnv = process.env
): Record<string, string> {
  if (transport.kind === 'files')
    return inherited[TRANSPORT_ENV.transport] ? { [TRANSPORT_ENV.transport]: 'files' } : {}
  const env: Record<string, string> = { [TRANSPORT_ENV.transport]: transport.servers.join(',') }
  const a = transport.auth
  if (a && 'token' in a) env[TRANSPORT_ENV.token] = a.token
  if (a && 'user' in a) Object.assign(env, { [TRANSPORT_ENV.user]: a.user, [TRANSPORT_ENV.password]: a.password })
  if (a && 'credsFile' in a) env[TRANSPORT_ENV.credsFile] = a.credsFile
  return env
}

/** For logs and the UI: the servers and the kind of credentials, never their values. */
export function describeTransport(transport: TeamTransport, home?: string): string {
  if (transport.kind === 'files') return home ? `files in ${home}` : 'files'
  const a = transport.auth
  const how = !a ? '' : 'token' in a ? ' (token)' : 'user' in a ? ` (user ${a.user})` : ' (creds file)'
  return `nats ${transport.servers.join(',')}${how}`
}

/** A URL with its user part replaced by `***`, for error messages. */
function redactUrl(raw: string): string {
  return raw.replace(/\/\/[^@/]*@/, '//***@')
}
