import { resolve } from 'node:path'
import { RunUsageError } from '../base'
import type { LoadedSettings } from '../permissions'
import { SCRIPTED_MODEL_URL_ENV, type ModelConnection } from '../runner'

/** Environment variable carrying the session's extra settings files to its teammates: a JSON array of absolute paths. */
export const TEAMMATE_SETTINGS_FILES_ENV = 'SWARMDESK_SETTINGS_FILES'
/** Environment variable set to `1` when the session trusts the project for this run (`--trust-project`, docs/permissions.md#permissions). */
export const TEAMMATE_TRUST_PROJECT_ENV = 'SWARMDESK_TRUST_PROJECT'

/**
 * The session's settings choices a teammate must share (docs/teams.md#permission-requests: both permission paths evaluate
 * the same rules and mode): extra settings files (`--settings`) and a per-run project trust. Trust
 * granted once and stored in `<home>/trusted.json` needs nothing: every process reads it.
 */
export function teammateSettingsEnv(settingsFiles: string[], trustProject: boolean): Record<string, string> {
  const out: Record<string, string> = {}
  if (settingsFiles.length) out[TEAMMATE_SETTINGS_FILES_ENV] = JSON.stringify(settingsFiles.map((f) => resolve(f)))
  if (trustProject) out[TEAMMATE_TRUST_PROJECT_ENV] = '1'
  return out
}

/**
 * Reads {@link teammateSettingsEnv} back in a teammate.
 * @throws RunUsageError when the settings files variable is not a JSON array of strings.
 */
export function settingsFromTeammateEnv(env: NodeJS.ProcessEnv): { settingsFiles: string[]; trustProject: boolean } {
  const raw = env[TEAMMATE_SETTINGS_FILES_ENV]
  let settingsFiles: string[] = []
  if (raw) {
    let parsed: unknown
    try {
      parsed = JSON.parse(raw)
    } catch {
      parsed = undefined
    }
    if (!Array.isArray(parsed) || !parsed.every((f) => typeof f === 'string')) throw new RunUsageError(`${TEAMMATE_SETTINGS_FILES_ENV} must be a JSON array of settings file paths; got ${raw.slice(0, 200)}`)
    settingsFiles = parsed
  }
  return { settingsFiles, trustProject: env[TEAMMATE_TRUST_PROJECT_ENV] === '1' }
}

/**
 * What a teammate needs to reach the model (docs/design.md#process-model): the scripted server's URL for a scenario
 * run (also as {@link SCRIPTED_MODEL_URL_ENV}, so the teammate tags its requests), else the API
 * key, auth token and base URL of the session (environment first, then trusted settings), and
 * SWARMDESK_MODEL. Never logged.
 */
export function teammateModelEnv(connection: ModelConnection, env: NodeJS.ProcessEnv, settings: LoadedSettings): Record<string, string> {
  if (connection.scripted) return { ANTHROPIC_API_KEY: 'scripted-model', ANTHROPIC_BASE_URL: connection.scripted.url, [SCRIPTED_MODEL_URL_ENV]: connection.scripted.url }
  if (connection.scriptedUrl) return { ANTHROPIC_API_KEY: env.ANTHROPIC_API_KEY || 'scripted-model', ANTHROPIC_BASE_URL: connection.scriptedUrl, [SCRIPTED_MODEL_URL_ENV]: connection.scriptedUrl }
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
