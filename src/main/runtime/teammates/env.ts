import { resolve } from 'node:path'
import { z } from 'zod'
import { RunUsageError } from '../base'
import type { LoadedSettings } from '../permissions'
import { SCRIPTED_MODEL_URL_ENV, type ModelConnection } from '../runner'
import type { TeammateSpawnConfig } from './executor'

/** Environment variable carrying the session's extra settings files to its teammates: a JSON array of absolute paths. */
export const TEAMMATE_SETTINGS_FILES_ENV = 'SWARMDESK_SETTINGS_FILES'
/** Environment variable carrying the session's `--mcp-config` files to its teammates: a JSON array of absolute paths (docs/tools.md#mcp-servers). */
export const TEAMMATE_MCP_CONFIG_ENV = 'SWARMDESK_MCP_CONFIG'
/**
 * Environment variables naming files a teammate reads in place of its user settings
 * (`<home>/settings.json`) and its local settings (`<cwd>/.swarmdesk/settings.local.json`): on
 * another host, the leader's copies (docs/hosts.md#the-sessions-settings-on-the-host).
 */
export const TEAMMATE_USER_SETTINGS_ENV = 'SWARMDESK_USER_SETTINGS_FILE'
export const TEAMMATE_LOCAL_SETTINGS_ENV = 'SWARMDESK_LOCAL_SETTINGS_FILE'
/** Environment variable set to `1` when the session trusts the project for this run (`--trust-project`, docs/permissions.md#permissions). */
export const TEAMMATE_TRUST_PROJECT_ENV = 'SWARMDESK_TRUST_PROJECT'

/**
 * The session's settings choices a teammate must share (docs/teams.md#permission-requests: both permission paths evaluate
 * the same rules and mode): extra settings files (`--settings`) and a per-run project trust; and
 * its `--mcp-config` files, so a `process` teammate starts the same MCP servers (docs/tools.md#mcp-servers). Trust
 * granted once and stored in `<home>/trusted.json` needs nothing: every process reads it.
 */
export function teammateSettingsEnv(
  settingsFiles: string[],
  trustProject: boolean,
  mcpConfigFiles: string[] = []
): Record<string, string> {
  const out: Record<string, string> = {}
  if (settingsFiles.length) out[TEAMMATE_SETTINGS_FILES_ENV] = JSON.stringify(settingsFiles.map((f) => resolve(f)))
  if (mcpConfigFiles.length) out[TEAMMATE_MCP_CONFIG_ENV] = JSON.stringify(mcpConfigFiles.map((f) => resolve(f)))
  if (trustProject) out[TEAMMATE_TRUST_PROJECT_ENV] = '1'
  return out
}

/**
 * The one teammate environment (docs/design.md#process-model): every `SWARMDESK_*` variable a
 * teammate is started with, whichever backend starts it — a worker thread gets them as its `env`,
 * a `process` teammate as its process environment, and `swarmdesk teammate` started by hand may
 * have none of them. Written by {@link teammateIdentityEnv} and {@link teammateSettingsEnv},
 * read only through {@link readTeammateEnv}. Other variables pass through untouched.
 */
export const TeammateEnvSchema = z.object({
  SWARMDESK_HOME: z.string().min(1).optional(),
  SWARMDESK_TEAM: z.string().min(1).optional(),
  SWARMDESK_AGENT_NAME: z.string().min(1).optional(),
  /** `name@team`. */
  SWARMDESK_AGENT_ID: z
    .string()
    .regex(/^[^@]+@[^@]+$/, 'must be name@team')
    .optional(),
  SWARMDESK_AGENT_COLOR: z.string().min(1).optional(),
  /** The leader's session id: the teammate's transcript goes under it. */
  SWARMDESK_SESSION_ID: z.string().min(1).optional(),
  SWARMDESK_LEADER_AGENT_ID: z.string().min(1).optional(),
  /** `1` (or `true`) starts the teammate in plan mode. */
  SWARMDESK_PLAN_MODE_REQUIRED: z.enum(['0', '1', 'true', 'false']).optional(),
  /** The model of a member that names none. */
  SWARMDESK_MODEL: z.string().min(1).optional(),
  /** The session's extra settings files: a JSON array of absolute paths. */
  [TEAMMATE_SETTINGS_FILES_ENV]: z.string().optional(),
  /** `1` when the session trusts the project for this run. */
  [TEAMMATE_TRUST_PROJECT_ENV]: z.enum(['0', '1']).optional(),
  /** The session's `--mcp-config` files: a JSON array of absolute paths. */
  [TEAMMATE_MCP_CONFIG_ENV]: z.string().optional(),
  /** Read in place of the user settings file: an absolute path. */
  [TEAMMATE_USER_SETTINGS_ENV]: z.string().startsWith('/', 'must be an absolute path').optional(),
  /** Read in place of the local settings file: an absolute path. */
  [TEAMMATE_LOCAL_SETTINGS_ENV]: z.string().startsWith('/', 'must be an absolute path').optional()
})

/** The teammate environment as a teammate uses it. Absent values are absent (a hand-started teammate). */
export interface TeammateEnv {
  home?: string
  team?: string
  name?: string
  agentId?: string
  color?: string
  sessionId?: string
  leaderAgentId?: string
  planModeRequired: boolean
  model?: string
  settingsFiles: string[]
  trustProject: boolean
  mcpConfigFiles: string[]
  /** Files read in place of the user and local settings (both absent but on another host). */
  sources: { userFile?: string; localFile?: string }
}

/**
 * The identity variables of one teammate, as both backends set them (the worker entry and the
 * process executor): home, team, name, id, colour, the leader's session and id, plan mode and model.
 */
export function teammateIdentityEnv(
  config: Pick<
    TeammateSpawnConfig,
    'home' | 'team' | 'name' | 'agentId' | 'color' | 'sessionId' | 'leaderAgentId' | 'planModeRequired'
  > & { model?: string }
): Record<string, string> {
  const env: z.input<typeof TeammateEnvSchema> = {
    SWARMDESK_HOME: config.home,
    SWARMDESK_TEAM: config.team,
    SWARMDESK_AGENT_NAME: config.name,
    SWARMDESK_AGENT_ID: config.agentId,
    SWARMDESK_AGENT_COLOR: config.color,
    SWARMDESK_SESSION_ID: config.sessionId,
    SWARMDESK_LEADER_AGENT_ID: config.leaderAgentId,
    SWARMDESK_PLAN_MODE_REQUIRED: config.planModeRequired ? '1' : '0',
    ...(config.model ? { SWARMDESK_MODEL: config.model } : {})
  }
  return env as Record<string, string>
}

/**
 * Reads the teammate environment ({@link TeammateEnvSchema}) from a process's or worker's env.
 * @throws RunUsageError naming each variable whose value is invalid, and what it must be.
 */
export function readTeammateEnv(env: NodeJS.ProcessEnv | Record<string, string>): TeammateEnv {
  const picked: Record<string, string> = {}
  for (const key of Object.keys(TeammateEnvSchema.shape)) {
    const value = env[key]
    // an empty variable is an unset one, as shells treat `VAR=`
    if (value !== undefined && value !== '') picked[key] = value
  }
  const parsed = TeammateEnvSchema.safeParse(picked)
  if (!parsed.success) {
    const bad = parsed.error.issues.map(
      (i) => `${i.path.join('.')} ${i.message} (got ${JSON.stringify(String(picked[String(i.path[0])]).slice(0, 200))})`
    )
    throw new RunUsageError(`Invalid teammate environment: ${bad.join('; ')}.`)
  }
  const e = parsed.data
  return {
    ...(e.SWARMDESK_HOME ? { home: e.SWARMDESK_HOME } : {}),
    ...(e.SWARMDESK_TEAM ? { team: e.SWARMDESK_TEAM } : {}),
    ...(e.SWARMDESK_AGENT_NAME ? { name: e.SWARMDESK_AGENT_NAME } : {}),
    ...(e.SWARMDESK_AGENT_ID ? { agentId: e.SWARMDESK_AGENT_ID } : {}),
    ...(e.SWARMDESK_AGENT_COLOR ? { color: e.SWARMDESK_AGENT_COLOR } : {}),
    ...(e.SWARMDESK_SESSION_ID ? { sessionId: e.SWARMDESK_SESSION_ID } : {}),
    ...(e.SWARMDESK_LEADER_AGENT_ID ? { leaderAgentId: e.SWARMDESK_LEADER_AGENT_ID } : {}),
    planModeRequired: e.SWARMDESK_PLAN_MODE_REQUIRED === '1' || e.SWARMDESK_PLAN_MODE_REQUIRED === 'true',
    ...(e.SWARMDESK_MODEL ? { model: e.SWARMDESK_MODEL } : {}),
    settingsFiles: filesOf(TEAMMATE_SETTINGS_FILES_ENV, e[TEAMMATE_SETTINGS_FILES_ENV], 'settings'),
    trustProject: e[TEAMMATE_TRUST_PROJECT_ENV] === '1',
    mcpConfigFiles: filesOf(TEAMMATE_MCP_CONFIG_ENV, e[TEAMMATE_MCP_CONFIG_ENV], 'MCP configuration'),
    sources: {
      ...(e[TEAMMATE_USER_SETTINGS_ENV] ? { userFile: e[TEAMMATE_USER_SETTINGS_ENV] } : {}),
      ...(e[TEAMMATE_LOCAL_SETTINGS_ENV] ? { localFile: e[TEAMMATE_LOCAL_SETTINGS_ENV] } : {})
    }
  }
}

function filesOf(variable: string, raw: string | undefined, kind: string): string[] {
  if (!raw) return []
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    parsed = undefined
  }
  if (!Array.isArray(parsed) || !parsed.every((f) => typeof f === 'string'))
    throw new RunUsageError(`${variable} must be a JSON array of ${kind} file paths; got ${raw.slice(0, 200)}`)
  return parsed
}

/**
 * What a teammate needs to reach the model (docs/design.md#process-model): the scripted server's URL for a scenario
 * run (also as {@link SCRIPTED_MODEL_URL_ENV}, so the teammate tags its requests), else the API
 * key, auth token and base URL of the session (environment first, then trusted settings), and
 * SWARMDESK_MODEL. Never logged.
 */
export function teammateModelEnv(
  connection: ModelConnection,
  env: NodeJS.ProcessEnv,
  settings: LoadedSettings
): Record<string, string> {
  if (connection.scripted)
    return {
      ANTHROPIC_API_KEY: 'scripted-model',
      ANTHROPIC_BASE_URL: connection.scripted.url,
      [SCRIPTED_MODEL_URL_ENV]: connection.scripted.url
    }
  if (connection.scriptedUrl)
    return {
      ANTHROPIC_API_KEY: env.ANTHROPIC_API_KEY || 'scripted-model',
      ANTHROPIC_BASE_URL: connection.scriptedUrl,
      [SCRIPTED_MODEL_URL_ENV]: connection.scriptedUrl
    }
  const out: Record<string, string> = {}
  // the key in use now: the environment's, or one set in Settings since the workspace opened
  const apiKey = connection.apiKey()
  if (apiKey) out.ANTHROPIC_API_KEY = apiKey
  if (env.ANTHROPIC_AUTH_TOKEN) out.ANTHROPIC_AUTH_TOKEN = env.ANTHROPIC_AUTH_TOKEN
  const baseURL = env.ANTHROPIC_BASE_URL || settings.env.ANTHROPIC_BASE_URL || settings.apiBaseUrl
  if (baseURL) out.ANTHROPIC_BASE_URL = baseURL
  if (env.SWARMDESK_MODEL) out.SWARMDESK_MODEL = env.SWARMDESK_MODEL
  return out
}
