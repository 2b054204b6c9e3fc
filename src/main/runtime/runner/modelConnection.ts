import { resolve } from 'node:path'
import { Emitter, RunUsageError, type Disposable } from '../base'
import { ModelClient, type ApiKeyHolder, type ModelFetch } from '../model'
import type { LoadedSettings } from '../permissions'
import type { ScriptedServer } from '../scripted'

/** A connected model: the client, and the in-process scripted server behind it, if any. */
export interface ModelConnection {
  client: ModelClient
  /** Present when the model is the scripted model server (docs/model.md#model-access): close it with the session. */
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
  settings:
    'No API key is set, so the leader cannot reach a model. Open Settings (⚙) and enter your Anthropic API key: the leader starts with it at once. (Setting ANTHROPIC_API_KEY before starting the app works too.)',
  /** The web host: its key comes from the environment of `swarmdesk serve`, or from Settings for this run only. */
  environment:
    'No API key is set, so the leader cannot reach a model. Restart `swarmdesk serve` with ANTHROPIC_API_KEY set (ANTHROPIC_API_KEY=sk-ant-… swarmdesk serve …), or open Settings (⚙) and enter a key for this run only: it is kept in memory, never written to disk.'
} as const

/**
 * Environment variable by which a teammate of a scenario run learns the URL of the session's
 * scripted model server (both backends: a worker's and a process's teammate environment). With it,
 * the teammate's requests carry the identity headers (docs/scenarios.md#scripted-model-scenarios) that per-agent scripts need.
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
    throw new RunUsageError(
      `${SCRIPTED_MODEL_URL_ENV} must be the http URL of a scripted model server on this machine (http://127.0.0.1:PORT); got '${value.slice(0, 200)}'. Unset it to use ANTHROPIC_BASE_URL.`
    )
  }
  return value
}

/**
 * Connects the model (docs/model.md#model-access): the scripted model server for a scenario file (or, in a
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
  /** The `fetch` of the model's requests (the ModelClient's `fetch` option); default the global one. */
  fetch?: ModelFetch
}): Promise<ModelConnection> {
  const viaFetch = options.fetch ? { fetch: options.fetch } : {}
  if (options.scenario) {
    // loaded only here: a process that talks to a server elsewhere (a teammate) never holds the server's code
    const { startScriptedServer } = await import('../scripted')
    const scripted = await startScriptedServer({ scenario: resolve(options.scenario) }).catch((error: Error) => {
      throw new RunUsageError(error.message)
    })
    const client = new ModelClient({
      apiKey: 'scripted-model',
      baseURL: scripted.url,
      retryBaseDelayMs: options.retryBaseDelayMs,
      scriptedModel: true,
      ...viaFetch
    })
    return {
      client,
      scripted,
      apiKey: () => 'scripted-model',
      onDidChangeKey: () => ({ dispose: () => undefined }),
      close: () => scripted.close()
    }
  }
  const scriptedUrl = options.env[SCRIPTED_MODEL_URL_ENV]
  if (scriptedUrl) {
    // a teammate of a scenario run (or a run aimed at a `swarmdesk scripted-server`): a server it does not own
    const url = scriptedModelUrl(scriptedUrl)
    const key = options.env.ANTHROPIC_API_KEY || 'scripted-model'
    const client = new ModelClient({
      apiKey: key,
      baseURL: url,
      retryBaseDelayMs: options.retryBaseDelayMs,
      scriptedModel: true,
      ...viaFetch
    })
    return {
      client,
      scriptedUrl: url,
      apiKey: () => key,
      onDidChangeKey: () => ({ dispose: () => undefined }),
      close: async () => undefined
    }
  }
  const current = (): string | undefined => options.env.ANTHROPIC_API_KEY || options.apiKey?.get() || undefined
  const apiKey = current()
  if (!apiKey && options.noApiKeyHint === undefined) {
    throw new RunUsageError(
      'No API key: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another endpoint), or pass --scenario FILE to run offline against the scripted model.'
    )
  }
  const baseURL =
    options.env.ANTHROPIC_BASE_URL || options.settings.env.ANTHROPIC_BASE_URL || options.settings.apiBaseUrl
  const client = new ModelClient({
    apiKey,
    baseURL,
    retryBaseDelayMs: options.retryBaseDelayMs,
    ...(options.noApiKeyHint ? { noApiKeyHint: options.noApiKeyHint } : {}),
    ...viaFetch
  })
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
