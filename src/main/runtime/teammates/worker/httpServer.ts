import type { HttpFailure, HttpRequest, MainToWorker } from './protocol'

/** The main side of one worker's model HTTP: see {@link createHttpServer}. */
export interface HttpServer {
  /** Starts the request `id` (an `http.request`). */
  request(id: number, request: HttpRequest): void
  /** Stops the request `id` (an `http.abort`); nothing more is posted for it. */
  abort(id: number): void
  /** Stops every open request (the worker is gone). */
  dispose(): void
}

/**
 * Makes a worker teammate's model requests with this thread's `fetch`
 * (docs/teams.md#worker-teammate-start-up; the worker side is `httpClient.ts`): posts
 * `http.response` once the status and headers are in, each piece of the body as an `http.chunk`,
 * then `http.end`; or `http.failed` with the error `fetch` gave (its name, message and cause), at
 * whatever point it came. An aborted request posts nothing more.
 */
export function createHttpServer(post: (message: MainToWorker) => void): HttpServer {
  const open = new Map<number, AbortController>()

  const run = async (id: number, request: HttpRequest, controller: AbortController): Promise<void> => {
    const live = (): boolean => open.get(id) === controller && !controller.signal.aborted
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: controller.signal
      })
      if (!live()) {
        await response.body?.cancel().catch(() => undefined)
        return
      }
      const headers: Array<[string, string]> = []
      response.headers.forEach((value, name) => headers.push([name, value]))
      post({
        type: 'http.response',
        id,
        status: response.status,
        statusText: response.statusText,
        url: response.url,
        headers
      })
      const reader = response.body?.getReader()
      for (let r = await reader?.read(); r && !r.done; r = await reader!.read()) {
        if (!live()) {
          await reader!.cancel().catch(() => undefined)
          return
        }
        post({ type: 'http.chunk', id, chunk: r.value })
      }
      if (live()) post({ type: 'http.end', id })
    } catch (error) {
      if (live()) post({ type: 'http.failed', id, error: describeFailure(error) })
    } finally {
      if (open.get(id) === controller) open.delete(id)
    }
  }

  return {
    request(id, request) {
      open.get(id)?.abort()
      const controller = new AbortController()
      open.set(id, controller)
      void run(id, request, controller)
    },
    abort(id) {
      const controller = open.get(id)
      open.delete(id)
      controller?.abort()
    },
    dispose() {
      for (const controller of open.values()) controller.abort()
      open.clear()
    }
  }
}

/** What crosses the port of a `fetch` error: its name and message, and its cause's. */
function describeFailure(error: unknown): HttpFailure {
  const e = error instanceof Error ? error : new Error(String(error))
  const cause = e.cause instanceof Error ? e.cause : undefined
  const code = (cause as { code?: unknown } | undefined)?.code
  return {
    name: e.name,
    message: e.message,
    ...(cause
      ? { cause: { name: cause.name, message: cause.message, ...(typeof code === 'string' ? { code } : {}) } }
      : {})
  }
}
