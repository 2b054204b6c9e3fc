import { realpathSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { Emitter, type Disposable } from '../lifecycle/disposable'
import type { ApiKeyHolder } from '../model/apiKey'
import { ModelClient } from '../model/client'
import { loadPermissionSettings, type LoadedSettings } from '../permissions'
import { startScriptedServer, type ScriptedServer } from '../scripted'
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from '../teammates/supervisor'

/** Bad input to a run or a workspace (exit code 2): the message says what was wrong and what to do. */
export class RunUsageError extends Error {
  override readonly name: string = 'RunUsageError'
}

/**
 * The workspace directory, absolute and canonical.
 * @throws RunUsageError when it does not exist or is not a directory.
 */
export function canonicalWorkspace(dir: string): string {
  const abs = resolve(dir)
  let isDir: boolean
  try {
    isDir = statSync(abs).isDirectory()
  } catch {
    throw new RunUsageError(`--cwd ${abs} does not exist: create it or pass an existing directory.`)
  }
  if (!isDir) throw new RunUsageError(`--cwd ${abs} is not a directory.`)
  return realpathSync(abs)
}

/**
 * Loads and merges the settings of every source (SPEC §4).
 * @throws RunUsageError naming the file and field of a malformed settings file (fails closed).
 */
export async function loadWorkspaceSettings(cwd: string, home: string, settingsFiles: string[], trustProject: boolean): Promise<LoadedSettings> {
  try {
    return await loadPermissionSettings({ cwd, home, extraSettingsFiles: settingsFiles, trustProject })
  } catch (error) {
    throw new RunUsageError((error as Error).message)
  }
}

/** A connected model: the client, and the in-process scripted server behind it, if any. */
export interface ModelConnection {
  client: ModelClient
  /** Present when the model is the scripted model server (SPEC §13): close it with the session. */
  scripted?: ScriptedServer
  /** The URL of a scripted model server this connection uses but does not own ({@link SCRIPTED_MODEL_URL_ENV}). */
  scriptedUrl?: string
  /** The API key requests use now (the environment's, else the process's live key); undefined without one. Never log it. */
  apiKey(): string | undefined
  /** Fires after the key changed (a key entered in Settings), once the client uses it. */
  onDidChangeKey(listener: () => void): Disposable
  close(): Promise<void>
}

/** The answer of a keyless connection's requests, by where a key can be added (issue 29: a first run without a key). */
export const NO_API_KEY_HINTS = {
  /** The desktop app: Settings stores a key with the OS keychain. */
  settings: 'No API key is set, so the leader cannot reach a model. Open Settings (⚙) and enter your Anthropic API key: the leader starts with it at once. (Setting ANTHROPIC_API_KEY before starting the app works too.)',
  /** The web host: its key comes from the environment of `swarmdesk serve`, or from Settings for this run only. */
  environment: 'No API key is set, so the leader cannot reach a model. Restart `swarmdesk serve` with ANTHROPIC_API_KEY set (ANTHROPIC_API_KEY=sk-ant-… swarmdesk serve …), or open Settings (⚙) and enter a key for this run only: it is kept in memory, never written to disk.'
} as const

/**
 * Environment variable by which a teammate of a scenario run learns the URL of the session's
 * scripted model server (both backends: a worker's and a process's teammate environment). With it,
 * the teammate's requests carry the identity headers (SPEC §15) that per-agent scripts need.
 */
export const SCRIPTED_MODEL_URL_ENV = 'SWARMDESK_SCRIPTED_MODEL_URL'

/**
 * The scripted server's URL from {@link SCRIPTED_MODEL_URL_ENV}, checked: the server only ever
 * listens on the loopback interface, so a URL of any other host is refused rather than sent the
 * workspace path and agent names.
 * @throws RunUsageError for a value that is not an http URL on 127.0.0.1, ::1 or localhost.
 */
export function scriptedModelUrl(value: string): string {
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  if (!url || url.protocol !== 'http:' || !['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname)) {
    throw new RunUsageError(`${SCRIPTED_MODEL_URL_ENV} must be the http URL of a scripted model server on this machine (http://127.0.0.1:PORT); got '${value.slice(0, 200)}'. Unset it to use ANTHROPIC_BASE_URL.`)
  }
  return value
}

/**
 * Connects the model (SPEC §13): the scripted model server for a scenario file (or, in a
 * teammate, the session's server named by {@link SCRIPTED_MODEL_URL_ENV}), else the API
 * with ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL (environment first, then trusted settings).
 * @throws RunUsageError when the scenario does not load or no API key is set.
 */
export async function connectModel(options: {
  scenario?: string
  env: NodeJS.ProcessEnv
  settings: LoadedSettings
  retryBaseDelayMs?: number
  /** The process's live key, used when the environment has none, and followed as it changes (the app's Settings, `serve`'s key for this run). */
  apiKey?: ApiKeyHolder
  /**
   * Without a key: `undefined` refuses (RunUsageError: `run`, a teammate); a hint opens a keyless
   * connection whose requests fail at once with that hint, until a key is set (a workspace's first run).
   */
  noApiKeyHint?: string
}): Promise<ModelConnection> {
  if (options.scenario) {
    const scripted = await startScriptedServer({ scenario: resolve(options.scenario) }).catch((error: Error) => {
      throw new RunUsageError(error.message)
    })
    const client = new ModelClient({ apiKey: 'scripted-model', baseURL: scripted.url, retryBaseDelayMs: options.retryBaseDelayMs, scriptedModel: true })
    return { client, scripted, apiKey: () => 'scripted-model', onDidChangeKey: () => ({ dispose: () => undefined }), close: () => scripted.close() }
  }
  const scriptedUrl = options.env[SCRIPTED_MODEL_URL_ENV]
  if (scriptedUrl) {
    // a teammate of a scenario run (or a run aimed at a `swarmdesk scripted-server`): a server it does not own
    const url = scriptedModelUrl(scriptedUrl)
    const key = options.env.ANTHROPIC_API_KEY || 'scripted-model'
    const client = new ModelClient({ apiKey: key, baseURL: url, retryBaseDelayMs: options.retryBaseDelayMs, scriptedModel: true })
    return { client, scriptedUrl: url, apiKey: () => key, onDidChangeKey: () => ({ dispose: () => undefined }), close: async () => undefined }
  }
  const current = (): string | undefined => options.env.ANTHROPIC_API_KEY || options.apiKey?.get() || undefined
  const apiKey = current()
  if (!apiKey && options.noApiKeyHint === undefined) {
    throw new RunUsageError('No API key: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another endpoint), or pass --scenario FILE to run offline against the scripted model.')
  }
  const baseURL = options.env.ANTHROPIC_BASE_URL || options.settings.env.ANTHROPIC_BASE_URL || options.settings.apiBaseUrl
  const client = new ModelClient({ apiKey, baseURL, retryBaseDelayMs: options.retryBaseDelayMs, ...(options.noApiKeyHint ? { noApiKeyHint: options.noApiKeyHint } : {}) })
  const changed = new Emitter<void>()
  let used = apiKey
  const following = options.apiKey?.onDidChange(() => {
    const next = current()
    if (next === used) return
    used = next
    client.setApiKey(next)
    changed.fire()
  })
  return {
    client,
    apiKey: () => used,
    onDidChangeKey: (listener) => changed.event(listener),
    close: async () => {
      following?.dispose()
      changed.dispose()
    }
  }
}

/**
 * A boolean switch from settings (`forkSubagents`, `coordinatorMode`: SPEC §11's fork and
 * coordinator switches): the highest source that sets it wins; undefined when none does.
 */
export function settingSwitch(settings: LoadedSettings, key: 'forkSubagents' | 'coordinatorMode'): boolean | undefined {
  let value: boolean | undefined
  for (const source of settings.sources) {
    const v = (source.data as Record<string, unknown>)[key]
    if (typeof v === 'boolean') value = v
  }
  return value
}

/**
 * Fork and coordinator switches from the flags (`--fork`, `--coordinator`) or, when a flag is
 * absent, from settings. Coordinator mode wins over forks (SPEC §7).
 */
export function modeSwitches(flags: { fork?: boolean; coordinator?: boolean }, settings: LoadedSettings): { forkEnabled: boolean; coordinator: boolean } {
  const coordinator = flags.coordinator === true || settingSwitch(settings, 'coordinatorMode') === true
  const fork = flags.fork === true || settingSwitch(settings, 'forkSubagents') === true
  return { forkEnabled: fork && !coordinator, coordinator }
}

/**
 * The teammate settings (SPEC §9.2, §9.5): backend when a spawn names none (`teammateBackend`,
 * `auto` = `worker`) and the shutdown timeout (`teammateShutdownTimeoutSeconds`, default 20 s);
 * the highest source that sets each wins. Values are validated when the settings load.
 */
export function teammateSettings(settings: LoadedSettings): { defaultBackend: 'worker' | 'process'; shutdownTimeoutMs: number } {
  let backend: unknown
  let timeout: unknown
  for (const source of settings.sources) {
    const data = source.data as Record<string, unknown>
    if (data.teammateBackend !== undefined) backend = data.teammateBackend
    if (data.teammateShutdownTimeoutSeconds !== undefined) timeout = data.teammateShutdownTimeoutSeconds
  }
  return {
    defaultBackend: backend === 'process' ? 'process' : 'worker',
    shutdownTimeoutMs: typeof timeout === 'number' ? timeout * 1000 : DEFAULT_SHUTDOWN_TIMEOUT_MS
  }
}

/** Environment variable carrying the session's extra settings files to its teammates: a JSON array of absolute paths. */
export const TEAMMATE_SETTINGS_FILES_ENV = 'SWARMDESK_SETTINGS_FILES'
/** Environment variable set to `1` when the session trusts the project for this run (`--trust-project`, SPEC §4). */
export const TEAMMATE_TRUST_PROJECT_ENV = 'SWARMDESK_TRUST_PROJECT'

/**
 * The session's settings choices a teammate must share (SPEC §9.7: both permission paths evaluate
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
 * What a teammate needs to reach the model (SPEC §1): the scripted server's URL for a scenario
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
