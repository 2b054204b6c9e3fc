import { BaseAnthropic } from '@anthropic-ai/sdk/client'
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error'
import { Messages } from '@anthropic-ai/sdk/resources/messages'
import { withCacheBreakpoints } from './cacheBreakpoints'
import { ModelError } from './errors'
import { identityHeaders } from '../../../shared/identityHeaders'
import { AttemptLog, retrySentence } from './retries'
import type { AgentIdentity, ModelRequest, ModelStreamEvent } from './types'
import { ResponseAccumulator } from './responseAccumulator'

/** Settings of a {@link ModelClient}. */
export interface ModelClientOptions {
  /**
   * API key; sent by the SDK as `Authorization: Bearer`. Absent: the workspace opened without one
   * (first run): every request fails at once with a `no_api_key` {@link ModelError} until
   * {@link ModelClient.setApiKey} gives it one.
   */
  apiKey: string | undefined
  /** What a request made without a key answers: how to add one here (Settings, the environment). */
  noApiKeyHint?: string
  /** Any Anthropic-compatible endpoint (ANTHROPIC_BASE_URL); the SDK's default otherwise. */
  baseURL?: string
  /** HTTP-level retries done by the SDK (408/409/429/5xx/529 and connection errors). Default 4. */
  maxRetries?: number
  /** Retries of an in-band `overloaded_error` that arrives before any content. Default 3. */
  overloadedRetries?: number
  /** First backoff delay of those in-band retries, ms; doubles each time. Default 1000. */
  retryBaseDelayMs?: number
  /**
   * A response that sends nothing for this long — no headers, or no stream event after the last
   * one — is given up, and the turn fails with a `timeout` {@link ModelError} (not retried: the
   * endpoint is stuck, and a person should see it). Default 600000 ms, the SDK's request timeout.
   */
  stallTimeoutMs?: number
  /** The SDK's own per-request timeout, ms. Default: the stall timeout plus 10 s, so the stall check decides. */
  timeoutMs?: number
  /**
   * The endpoint is Swarmdesk's scripted model server (docs/model.md#model-access): every request then carries the
   * agent's identity headers (docs/scenarios.md#scripted-model-scenarios, {@link identityHeaders}), by which the server picks the
   * agent's script and fills `{{cwd}}` and `{{agent_name}}`. Off for every other endpoint, which
   * has no use for the workspace path or the agents' names. Default false.
   */
  scriptedModel?: boolean
  /**
   * The `fetch` the SDK makes its requests with; default the global one. A worker teammate passes
   * one that has the main thread make them (teammates/worker/httpClient.ts), so it never loads
   * Node's fetch to start (docs/teams.md#worker-teammate-start-up).
   */
  fetch?: ModelFetch
}

/**
 * A `fetch` for the model SDK: called as the Fetch standard's, with the SDK's init (method,
 * headers, a JSON string body, signal); resolves to what the SDK reads of a `Response` (status,
 * headers, a web ReadableStream body, `text` / `json`).
 */
export type ModelFetch = (input: string, init: RequestInit) => Promise<unknown>

/** Default of {@link ModelClientOptions.stallTimeoutMs}: ten minutes, as the SDK's own timeout. */
export const DEFAULT_STALL_TIMEOUT_MS = 600_000

/** Options of one streamed request. */
export interface StreamOptions {
  agent: AgentIdentity
  signal: AbortSignal
  /** A fork's fourth breakpoint, on its last placeholder tool_result (docs/agents.md#forks). */
  extraBreakpoint?: { messageIndex: number; blockIndex: number }
}

/**
 * The SDK's core client with the one resource Swarmdesk calls, Messages (the SDK's own
 * `Anthropic` class builds every resource — Beta, Files, Skills, Models… — in its constructor).
 * Importing only these lets the bundles leave the rest of the SDK out: a worker teammate holds
 * the bundle's source and its module objects for its whole life (docs/teams.md#worker-teammate-memory).
 */
class MessagesClient extends BaseAnthropic {
  readonly messages = new Messages(this)
}

/**
 * Model access over `@anthropic-ai/sdk`, streaming (docs/loop.md#the-agent-loop, docs/model.md#model-access).
 *
 * Retries: the SDK retries HTTP 408/409/429/5xx/529 and cut connections before a response starts.
 * An in-band `overloaded_error` that arrives before any content block is retried here; one that
 * arrives after content fails the turn with a {@link ModelError} — the caller has not run any tool
 * of that response yet (tools run only on a complete response), so no tool ever runs twice.
 */
export class ModelClient {
  private sdk: MessagesClient
  private apiKey: string | undefined
  private readonly overloadedRetries: number
  private readonly retryBaseDelayMs: number
  private readonly stallTimeoutMs: number

  constructor(private readonly options: ModelClientOptions) {
    this.stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS
    this.apiKey = options.apiKey || undefined
    this.sdk = this.createSdk()
    this.overloadedRetries = options.overloadedRetries ?? 3
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 1000
  }

  private createSdk(): MessagesClient {
    return new MessagesClient({
      // without a key no request is made (stream() refuses first); the SDK still wants a string
      apiKey: this.apiKey ?? 'no-api-key',
      baseURL: this.options.baseURL,
      maxRetries: this.options.maxRetries ?? 4,
      timeout: this.options.timeoutMs ?? this.stallTimeoutMs + 10_000,
      ...(this.options.fetch ? { fetch: this.options.fetch as typeof fetch } : {})
    })
  }

  /** Whether requests can be made: an API key is set. */
  get hasApiKey(): boolean {
    return this.apiKey !== undefined
  }

  /**
   * Replaces the API key (a key entered in Settings while the workspace runs): requests started
   * from now on use it; one in flight finishes with the key it started with. `undefined` removes it.
   */
  setApiKey(apiKey: string | undefined): void {
    this.apiKey = apiKey || undefined
    this.sdk = this.createSdk()
  }

  /** Whether requests carry the agent identity headers: the endpoint is the scripted model (see {@link ModelClientOptions.scriptedModel}). */
  get scriptedModel(): boolean {
    return this.options.scriptedModel === true
  }

  /** The endpoint requests go to, for messages. */
  get baseURL(): string {
    return this.sdk.baseURL
  }

  /**
   * Streams one response. Yields text deltas as they arrive, `retry` notices, then exactly one
   * `response` with the whole assistant message and its usage.
   * @throws ModelError for every failure (kind says which), including abort (`aborted`).
   */
  async *stream(request: ModelRequest, options: StreamOptions): AsyncGenerator<ModelStreamEvent, void> {
    if (this.apiKey === undefined) {
      throw new ModelError(
        'no_api_key',
        this.options.noApiKeyHint ??
          'No API key is set: set ANTHROPIC_API_KEY (or store a key in Settings) and try again.',
        { baseUrl: this.sdk.baseURL, model: request.model, retries: [] }
      )
    }
    const body = withCacheBreakpoints(request, options.extraBreakpoint)
    const log = new AttemptLog()
    let retried = 0
    for (let attempt = 0; ; attempt++) {
      const state = { sawContent: false, responded: false }
      try {
        for await (const event of this.streamOnce(body, options, state, log)) {
          if (state.responded) {
            // the attempts the SDK retried before this response began, reported once it did
            for (const cause of log.takeRetried()) yield { type: 'retry', attempt: ++retried, reason: cause }
          }
          yield event
        }
        return
      } catch (error) {
        const mapped = this.mapError(error, request.model, options.signal)
        if (mapped.kind === 'aborted') throw mapped
        // the SDK gave up on an HTTP status or a connection it retried already; what is retried
        // here is only what broke after the response began and before any content
        const fromSdk = mapped.details.status !== undefined || error instanceof APIConnectionError
        if (state.responded)
          for (const cause of log.takeRetried()) yield { type: 'retry', attempt: ++retried, reason: cause }
        if (
          (mapped.kind === 'overloaded' || mapped.kind === 'connection') &&
          !fromSdk &&
          !state.sawContent &&
          attempt < this.overloadedRetries
        ) {
          const delayMs = this.retryBaseDelayMs * 2 ** attempt
          log.noteOwnRetry(
            mapped.kind === 'overloaded' ? 'overloaded_error in the stream' : 'stream cut before any content'
          )
          yield { type: 'retry', attempt: ++retried, reason: mapped.message, delayMs }
          await sleep(delayMs, options.signal)
          continue
        }
        const retries = log.retriedBeforeFailure(fromSdk)
        const details = { ...mapped.details, retries }
        const sentence = mapped.kind === 'scenario' && retries.length === 0 ? '' : ` ${retrySentence(retries)}`
        if (mapped.kind === 'overloaded' && state.sawContent) {
          throw new ModelError(
            'overloaded',
            `The model was overloaded mid-response; the turn failed and none of its tool calls ran. ${mapped.message}${sentence}`,
            details,
            { cause: error }
          )
        }
        if (state.sawContent && (mapped.kind === 'connection' || mapped.kind === 'server')) {
          // a response cut or garbled after it began is not retried: part of it was seen already
          throw new ModelError(
            mapped.kind,
            `The response broke off after it began; the turn failed and none of its tool calls ran. ${mapped.message}${sentence}`,
            details,
            { cause: error }
          )
        }
        throw new ModelError(mapped.kind, `${mapped.message}${sentence}`, details, { cause: error })
      }
    }
  }

  private async *streamOnce(
    body: ReturnType<typeof withCacheBreakpoints>,
    options: StreamOptions,
    state: { sawContent: boolean; responded: boolean },
    log: AttemptLog
  ): AsyncGenerator<ModelStreamEvent, void> {
    // the stall check: re-armed at every sign of life, it aborts a response that went silent
    const stalled = new AbortController()
    let timer: NodeJS.Timeout | undefined
    const arm = (): void => {
      clearTimeout(timer)
      timer = setTimeout(() => stalled.abort(), this.stallTimeoutMs)
    }
    arm()
    try {
      const stream = await this.sdk.messages.create(
        { ...body, stream: true },
        {
          signal: AbortSignal.any([options.signal, stalled.signal]),
          middleware: [log.middleware],
          ...(this.options.scriptedModel ? { headers: identityHeaders(options.agent) } : {})
        }
      )
      arm()
      state.responded = true
      const acc = new ResponseAccumulator()
      for await (const event of stream) {
        arm()
        if (event.type === 'content_block_start') state.sawContent = true
        const delta = acc.apply(event)
        if (delta) yield { type: 'text_delta', text: delta }
      }
      if (options.signal.aborted) throw new ModelError('aborted', 'The request was aborted.')
      // a stream the stall check aborted, or that the connection cut, can end quietly: never take
      // a partial response for a whole one (its tool calls would run on half an answer)
      if (stalled.signal.aborted) throw new Error('stalled')
      if (!acc.complete)
        throw new ModelError(
          'connection',
          `The response from ${this.sdk.baseURL} ended before it was complete (the connection was cut).`,
          { baseUrl: this.sdk.baseURL, model: body.model }
        )
      yield acc.finish(body.model)
    } catch (error) {
      if (stalled.signal.aborted && !options.signal.aborted) {
        const seconds = Math.round(this.stallTimeoutMs / 100) / 10
        const ran = state.sawContent ? ' The turn failed and none of its tool calls ran.' : ''
        throw new ModelError(
          'timeout',
          `The model endpoint ${this.sdk.baseURL} sent nothing for ${seconds} s, so the request was given up.${ran} Try again; if it keeps happening, check the endpoint.`,
          { baseUrl: this.sdk.baseURL, model: body.model },
          { cause: error }
        )
      }
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  private mapError(error: unknown, model: string, signal: AbortSignal): ModelError {
    if (error instanceof ModelError) return error
    const baseUrl = this.sdk.baseURL
    if (signal.aborted || error instanceof APIUserAbortError) {
      return new ModelError('aborted', 'The request was aborted.', { baseUrl }, { cause: error })
    }
    if (error instanceof APIConnectionError) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? error.message
      return new ModelError(
        'connection',
        `Could not reach the model endpoint ${baseUrl} (${cause}). Check ANTHROPIC_BASE_URL (or the base URL in settings) and that the endpoint is up.`,
        { baseUrl },
        { cause: error }
      )
    }
    if (error instanceof APIError) {
      const details = { status: error.status, requestId: error.requestID, baseUrl, model }
      const apiMessage = (error as { apiMessage?: string | null }).apiMessage ?? error.message
      const type = (error as { type?: string | null }).type
      if (type === 'scenario_error') return new ModelError('scenario', apiMessage, details, { cause: error })
      if (error.status === 401 || error.status === 403) {
        return new ModelError(
          'authentication',
          `The endpoint ${baseUrl} rejected the API key (${error.status}: ${apiMessage}). Set ANTHROPIC_API_KEY to a valid key, or store one in Settings.`,
          details,
          { cause: error }
        )
      }
      if (error.status === 404) {
        return new ModelError(
          'model_not_found',
          `Model "${model}" was not found at ${baseUrl} (${apiMessage}). Use a model id such as claude-sonnet-5-5, or an alias: opus, sonnet, haiku.`,
          details,
          { cause: error }
        )
      }
      if (error.status === 429)
        return new ModelError(
          'rate_limit',
          `Rate limited by ${baseUrl} after retries (${apiMessage}). Wait and try again, or lower concurrency.`,
          details,
          { cause: error }
        )
      if (error.status === 529 || type === 'overloaded_error')
        return new ModelError('overloaded', `The model is overloaded (${apiMessage}).`, details, { cause: error })
      if (error.status !== undefined && error.status >= 500)
        return new ModelError('server', `The endpoint ${baseUrl} failed (${error.status}: ${apiMessage}).`, details, {
          cause: error
        })
      return new ModelError(
        'bad_request',
        `The endpoint ${baseUrl} refused the request (${error.status ?? 'stream error'}: ${apiMessage}).`,
        details,
        { cause: error }
      )
    }
    if (error instanceof SyntaxError) {
      return new ModelError(
        'server',
        `The endpoint ${baseUrl} sent a malformed response stream (${error.message}); the turn failed and none of its tool calls ran.`,
        { baseUrl, model },
        { cause: error }
      )
    }
    // undici reports a connection cut while the body streams as TypeError("terminated") with the socket error as its cause
    const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause
    if (error instanceof TypeError && error.message === 'terminated') {
      return new ModelError(
        'connection',
        `The connection to ${baseUrl} was cut while the response streamed (${cause?.message ?? 'terminated'}).`,
        { baseUrl, model },
        { cause: error }
      )
    }
    return new ModelError(
      'server',
      `Unexpected failure talking to ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
      { baseUrl },
      { cause: error }
    )
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ModelError('aborted', 'The request was aborted.'))
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(new ModelError('aborted', 'The request was aborted.'))
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
