import { Headers } from './fetchGlobals'
import type { HttpFailure, HttpRequest, MainToWorker, WorkerToMain } from './protocol'

/** The init of a {@link HttpPortClient.fetch} call: what the model SDK passes. */
export interface PortFetchInit {
  method?: string
  /** A Headers, [name, value] pairs or a record. */
  headers?: unknown
  /** A string (the SDK's JSON bodies) or bytes (Uint8Array, ArrayBuffer); any other kind is refused. */
  body?: unknown
  signal?: AbortSignal | null
}

/**
 * A response of {@link HttpPortClient.fetch}: the part of the Fetch standard's `Response` the
 * model SDK reads (status, headers, `body` as a web ReadableStream, `text` / `json` /
 * `arrayBuffer`). Its body is read once.
 */
export class PortResponse {
  readonly ok: boolean
  readonly redirected = false
  readonly type = 'basic'
  private used = false

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    readonly url: string,
    readonly body: ReadableStream<Uint8Array>
  ) {
    this.ok = status >= 200 && status <= 299
  }

  get bodyUsed(): boolean {
    return this.used
  }

  /** The whole body. @throws TypeError when it was read already; the transfer's error when it failed. */
  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.used) throw new TypeError('Response body has already been read.')
    this.used = true
    const parts: Uint8Array[] = []
    let size = 0
    const reader = this.body.getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      parts.push(r.value)
      size += r.value.byteLength
    }
    const out = new Uint8Array(size)
    let at = 0
    for (const part of parts) {
      out.set(part, at)
      at += part.byteLength
    }
    return out.buffer
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer())
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown
  }
}

/** The worker side of the model's HTTP over the port: see {@link createHttpPortClient}. */
export interface HttpPortClient {
  /** A `fetch` for the model SDK: the request is made by the main thread. */
  fetch(input: string | URL | { url: string }, init?: PortFetchInit): Promise<PortResponse>
  /** Feeds one message from the main thread. @returns true when it was an `http.*` answer. */
  handle(message: MainToWorker): boolean
  /** Fails every open request (the teammate is ending). */
  dispose(): void
}

interface Open {
  head?: { resolve(response: PortResponse): void; reject(error: unknown): void }
  stream?: ReadableStreamDefaultController<Uint8Array>
  cleanup(): void
}

/**
 * A worker teammate's model requests, made by the main thread (docs/teams.md#worker-teammate-start-up):
 * `http.request` carries the method, URL, headers and body; the main thread's `fetch` answers
 * with `http.response` (status and headers), the body as `http.chunk`s, then `http.end`, or
 * `http.failed` at any point. The worker so never loads Node's fetch (undici) for its model: the
 * main thread has it loaded already. An aborted signal posts `http.abort` and rejects (or errors
 * the body) with the signal's reason, as `fetch` does; a failure is rebuilt as the main thread's
 * `fetch` threw it (`TypeError: fetch failed` with its cause), so the SDK retries what it retries.
 */
export function createHttpPortClient(post: (message: WorkerToMain) => void): HttpPortClient {
  const open = new Map<number, Open>()
  let nextId = 1
  const abortReason = (signal: AbortSignal): unknown =>
    signal.reason ?? new DOMException('This operation was aborted', 'AbortError')

  return {
    fetch(input, init = {}) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
      const signal = init.signal ?? undefined
      if (signal?.aborted) return Promise.reject(abortReason(signal))
      let body: HttpRequest['body']
      if (typeof init.body === 'string') body = init.body
      else if (init.body instanceof Uint8Array) body = init.body.slice()
      else if (init.body instanceof ArrayBuffer) body = new Uint8Array(init.body)
      else if (init.body !== undefined && init.body !== null)
        return Promise.reject(new TypeError('A worker teammate sends a request body as a string or bytes only.'))
      const id = nextId++
      return new Promise<PortResponse>((resolve, reject) => {
        const onAbort = (): void => {
          const entry = open.get(id)
          if (!entry) return
          entry.cleanup()
          post({ type: 'http.abort', id })
          const reason = abortReason(signal!)
          if (entry.head) entry.head.reject(reason)
          else entry.stream?.error(reason)
        }
        open.set(id, {
          head: { resolve, reject },
          cleanup: () => {
            open.delete(id)
            signal?.removeEventListener('abort', onAbort)
          }
        })
        signal?.addEventListener('abort', onAbort, { once: true })
        post({
          type: 'http.request',
          id,
          request: {
            url,
            method: (init.method ?? 'GET').toUpperCase(),
            headers: [...new Headers((init.headers ?? undefined) as ConstructorParameters<typeof Headers>[0])],
            ...(body === undefined ? {} : { body })
          }
        })
      })
    },

    handle(message) {
      switch (message.type) {
        case 'http.response': {
          const entry = open.get(message.id)
          const head = entry?.head
          if (!entry || !head) return true
          entry.head = undefined
          const body = new ReadableStream<Uint8Array>({
            start: (controller) => {
              entry.stream = controller
            },
            cancel: () => {
              if (!open.has(message.id)) return
              entry.cleanup()
              post({ type: 'http.abort', id: message.id })
            }
          })
          head.resolve(
            new PortResponse(message.status, message.statusText, new Headers(message.headers), message.url, body)
          )
          return true
        }
        case 'http.chunk':
          open.get(message.id)?.stream?.enqueue(message.chunk)
          return true
        case 'http.end': {
          const entry = open.get(message.id)
          entry?.cleanup()
          entry?.stream?.close()
          return true
        }
        case 'http.failed': {
          const entry = open.get(message.id)
          if (!entry) return true
          entry.cleanup()
          const error = rebuildError(message.error)
          if (entry.head) entry.head.reject(error)
          else entry.stream?.error(error)
          return true
        }
        default:
          return false
      }
    },

    dispose() {
      for (const [id, entry] of [...open]) {
        entry.cleanup()
        post({ type: 'http.abort', id })
        const error = new TypeError('fetch failed', { cause: new Error('the worker teammate is ending') })
        if (entry.head) entry.head.reject(error)
        else entry.stream?.error(error)
      }
    }
  }
}

/** The main thread's fetch error, as an Error of the same name, message and cause. */
function rebuildError(failure: HttpFailure): Error {
  const cause = failure.cause
    ? Object.assign(new Error(failure.cause.message), {
        name: failure.cause.name,
        ...(failure.cause.code ? { code: failure.cause.code } : {})
      })
    : undefined
  const options = cause ? { cause } : undefined
  if (failure.name === 'AbortError' || failure.name === 'TimeoutError')
    return Object.assign(new DOMException(failure.message, failure.name), options ?? {})
  const error =
    failure.name === 'TypeError' ? new TypeError(failure.message, options) : new Error(failure.message, options)
  if (failure.name !== 'TypeError') error.name = failure.name
  return error
}
