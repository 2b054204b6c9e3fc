import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { handleCountTokens, handleModels } from './endpoints'
import { sendError, sendJson } from './http'
import { handleMessages } from './messages'
import type { Clock } from './promptCache'
import { randomId } from './response'
import { loadScenario, validateScenario, type Scenario, type ScenarioInput } from './scenario'
import { ScriptedState, type RecordedRequest, type ScriptedStats } from './state'

/** Options of {@link startScriptedServer}. */
export interface ScriptedServerOptions {
  /** A scenario object (validated here, defaults applied), or the path of a scenario file (JSON or YAML) to load. */
  scenario: ScenarioInput | string
  /** TCP port; 0 (the default) picks a free one. */
  port?: number
  /** Interface to listen on; default 127.0.0.1 (the server has no access control beyond the scenario's key). */
  host?: string
  /** Clock for the prompt cache's TTL and the request log's times (ms since epoch); default Date.now. */
  clock?: Clock
  /** Called once per request when its answer has been sent (or its connection ended), with what it was and how it went. */
  onRequest?: (served: ServedRequest) => void
}

/** One request as the server answered it, for a per-request log (`swarmdesk scripted-server` prints these). */
export interface ServedRequest {
  method: string
  /** The URL's path, e.g. `/v1/messages`. */
  path: string
  /** The HTTP status sent; 0 when the connection ended before an answer (a `disconnect` fault, a client gone). */
  status: number
  /** Milliseconds from arrival to the answer's end, scripted delays included. */
  ms: number
  /** For `POST /v1/messages`: its log entry (who asked, which script and turn answered). */
  recorded?: RecordedRequest
}

/** A running scripted model server. */
export interface ScriptedServer {
  /** Base URL for the SDK's `baseURL`, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  readonly port: number
  readonly scenario: Scenario
  /** Every POST /v1/messages received so far, in order (a copy). */
  requests(): RecordedRequest[]
  /** Current counters (a copy). */
  stats(): ScriptedStats
  /** Forgets requests, stats, cache and script consumption (as POST /_scripted/reset). */
  reset(): void
  /** Stops listening and ends every open connection (pending delays are cancelled). Idempotent. */
  close(): Promise<void>
}

/**
 * Starts the scripted model server (docs/model.md#model-access): an Anthropic-compatible `POST /v1/messages` plus
 * the control endpoints `GET /_scripted/requests`, `GET /_scripted/stats`,
 * `POST /_scripted/reset` and `GET /_scripted/health`.
 * @throws ScenarioError when the scenario file does not load or the scenario object is malformed
 *   (an object is reported as file `(inline scenario)`).
 * @throws the listen error (e.g. EADDRINUSE) when the port cannot be bound.
 */
export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const scenario =
    typeof options.scenario === 'string'
      ? await loadScenario(options.scenario)
      : validateScenario(options.scenario, '(inline scenario)')
  const state = new ScriptedState(scenario, options.clock ?? Date.now)
  const host = options.host ?? '127.0.0.1'

  const server = createServer((req, res) => {
    if (options.onRequest) reportWhenDone(state, req, res, options.onRequest)
    route(state, req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy()
      else sendError(res, randomId('req_'), 500, 'api_error', `scripted server bug: ${(error as Error).message}`)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  let closing: Promise<void> | undefined

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    scenario,
    requests: () => structuredClone(state.log),
    stats: () => ({ ...state.stats }),
    reset: () => state.reset(),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Keep-alive sockets (the SDK's fetch pools them) would hold close() open; end them, and
        // with them any response still waiting out a delay.
        server.closeAllConnections()
      })
      return closing
    }
  }
}

/** Calls `report` once `req`'s answer is sent or its connection ends, whichever comes first. */
function reportWhenDone(
  state: ScriptedState,
  req: IncomingMessage,
  res: ServerResponse,
  report: (served: ServedRequest) => void
): void {
  const start = performance.now()
  let done = false
  const finish = (): void => {
    if (done) return
    done = true
    const recorded = state.recordOf.get(req)
    report({
      method: req.method ?? '',
      path: new URL(req.url ?? '/', 'http://scripted').pathname,
      status: res.writableFinished ? res.statusCode : 0,
      ms: performance.now() - start,
      ...(recorded ? { recorded } : {})
    })
  }
  res.once('finish', finish)
  res.once('close', finish)
}

/** What `GET /` answers (ASCII). */
const ROOT_TEXT = 'scripted model\n'

async function route(state: ScriptedState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://scripted').pathname
  const key = `${req.method} ${path}`
  const model = /^\/v1\/models\/([^/]+)$/.exec(path)
  if (req.method === 'GET' && model) return handleModels(state, req, res, decodeURIComponent(model[1]))
  switch (key) {
    case 'POST /v1/messages':
      return handleMessages(state, req, res)
    case 'POST /v1/messages/count_tokens':
      return handleCountTokens(state, req, res)
    case 'GET /v1/models':
      return handleModels(state, req, res, undefined)
    case 'HEAD /':
    case 'GET /':
      // Claude Code checks the base URL answers at start (HEAD /), as the API's root does
      // (with its length: a HEAD answer without one keeps Claude Code's fetch waiting for a body)
      req.resume()
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': ROOT_TEXT.length })
      return void res.end(req.method === 'GET' ? ROOT_TEXT : undefined)
    case 'GET /_scripted/requests':
      return sendJson(res, 200, state.log)
    case 'GET /_scripted/stats':
      return sendJson(res, 200, state.stats)
    case 'POST /_scripted/reset':
      state.reset()
      return sendJson(res, 200, { ok: true })
    case 'GET /_scripted/health':
      return sendJson(res, 200, { ok: true, scenario: state.scenario.name ?? null, requests: state.stats.requests })
    default:
      req.resume()
      return sendError(res, randomId('req_'), 404, 'not_found_error', `Not found: ${key}`)
  }
}
