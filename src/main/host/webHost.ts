import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { authenticate, newToken, tokenCookie } from './auth'
import { Bridge, type BridgeOptions } from './bridge'
import { contentTypeFor } from './contentTypes'
import { OriginPolicy } from './origin'
import { refuseUpgrade, sendText } from './responses'
import { cspFromIndexHtml, securityHeaders } from './securityHeaders'
import { indexFile, lookupStatic } from './staticFiles'
import type { BridgedService } from './types'
import { WORKSPACE_PARAM } from './workspaces'

/** Options of {@link startWebHost}. */
export interface WebHostOptions {
  /** The workspace every socket talks to; the host never disposes it. */
  service: BridgedService
  /** TCP port; 0 (the default) picks a free one. */
  port?: number
  /** Interface to bind; `127.0.0.1` by default (docs/design.md#process-model: the host is local). */
  host?: string
  /** The built renderer (out/renderer) with its index.html. */
  staticDir: string
  /** The secret every request must carry; 32 random bytes as hex by default. */
  token?: string
  /** Flow-control tunables of the WebSocket bridge (tests shorten them). */
  bridge?: BridgeOptions
  /**
   * Further workspaces (src/main/host/workspaces.ts): a socket opened as `/bridge?workspace=ID` is
   * bound to the workspace this returns for ID (each workspace gets its own bridge), and one for an
   * id it does not know is refused with 404. Without it, or without the parameter, sockets talk to
   * `service`. The host never disposes these services either.
   */
  workspaces?: (id: string) => BridgedService | undefined
}

/** A running web host. */
export interface WebHost {
  /** The page to open, token included: `http://127.0.0.1:PORT/?token=T`. */
  url: string
  port: number
  token: string
  /** Bytes waiting in main for the bridge's sockets to write (diagnostics; see `Bridge.queuedBytes`). */
  queuedBytes(): number
  /** Terminates every socket and stops the server. Idempotent; resolves once the port is free. */
  close(): Promise<void>
}

/** Path of the WebSocket bridge. */
export const BRIDGE_PATH = '/bridge'

/** Largest request frame a client may send (bytes); a prompt is at most 200,000 characters. */
const MAX_FRAME_BYTES = 4 * 1024 * 1024

/**
 * Serves the renderer and the WebSocket bridge to a browser (docs/design.md#process-model, docs/events.md#event-stream-and-command-line). Every HTTP request and
 * WebSocket upgrade must carry the token (`?token=` or the cookie `GET /?token=T` sets) or gets 401,
 * and one from a foreign `Origin` (or for a foreign `Host`) gets 403. Static files come only from
 * `staticDir`; without its index.html the host answers 503 asking for `npm run build`.
 * @throws the listen error (e.g. `EADDRINUSE`) when the port cannot be bound.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? newToken()
  const host = options.host ?? '127.0.0.1'
  const server = createServer()
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false })
  const bridge = new Bridge(options.service, options.bridge)
  /** One bridge per further workspace a socket asked for (by id), made on its first socket. */
  const workspaceBridges = new Map<string, Bridge>()
  const bridgeFor = (url: URL): Bridge | undefined => {
    const id = url.searchParams.get(WORKSPACE_PARAM)
    if (id === null || !options.workspaces) return bridge
    const known = workspaceBridges.get(id)
    if (known) return known
    const service = options.workspaces(id)
    if (!service) return undefined
    // the first workspace asked for by its id shares the default bridge (one ack ledger per service)
    if (service === options.service) return bridge
    const made = new Bridge(service, options.bridge)
    workspaceBridges.set(id, made)
    return made
  }
  let policy: OriginPolicy | undefined
  /** The bound port, known once listening (no request is served before). */
  let port = 0
  const csp = cspCache(options.staticDir)

  /** Common gate of HTTP and upgrade requests: the status and text of a refusal, or undefined. */
  const gate = (req: IncomingMessage, url: URL): { status: number; text: string } | undefined => {
    const refusal = policy!.refusal(req)
    if (refusal) return { status: 403, text: `Forbidden: ${refusal}.` }
    if (!authenticate(req, url, token, port))
      return {
        status: 401,
        text: 'Unauthorized: open the URL that `swarmdesk serve` printed; it carries the token (?token=…).'
      }
    return undefined
  }

  server.on('request', (req, res) => {
    serveHttp(req, res).catch((error: Error) => {
      if (!res.headersSent) sendText(res, 500, `Internal error: ${error.message}`)
      else res.destroy()
    })
  })

  const serveHttp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://host.invalid')
    const headers = securityHeaders(await csp())
    const refused = gate(req, url)
    if (refused) return sendText(res, refused.status, refused.text, headers)
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'Method not allowed.', { ...headers, Allow: 'GET, HEAD' })
    if (url.pathname === BRIDGE_PATH)
      return sendText(res, 426, 'The bridge speaks WebSocket.', { ...headers, Upgrade: 'websocket' })
    const index = indexFile(options.staticDir)
    if (!(await stat(index).catch(() => undefined))?.isFile()) {
      return sendText(
        res,
        503,
        `The Swarmdesk UI is not built (${index} is missing). Run \`npm run build\`, then reload this page.`,
        headers
      )
    }
    const wanted = url.searchParams.get(WORKSPACE_PARAM)
    if (wanted !== null && options.workspaces && url.pathname === '/' && !options.workspaces(wanted)) {
      return sendText(
        res,
        404,
        `No open workspace '${wanted}' (the host was restarted since this tab opened it?). Open its folder again from the workspace menu of another tab.`,
        headers
      )
    }
    const found = await lookupStatic(options.staticDir, url.pathname)
    if (found.kind === 'malformed') return sendText(res, 400, 'Bad request path.', headers)
    if (found.kind === 'outside') return sendText(res, 403, 'Forbidden: outside the served directory.', headers)
    if (found.kind === 'missing') return sendText(res, 404, 'Not found.', headers)
    const isIndex = url.pathname === '/' || url.pathname === '/index.html'
    res.writeHead(200, {
      ...headers,
      'Content-Type': contentTypeFor(found.path),
      'Content-Length': found.size,
      // The page is small and names hashed assets; never keep a stale one. Assets revalidate.
      'Cache-Control': isIndex ? 'no-store' : 'private, no-cache',
      ...(isIndex ? { 'Set-Cookie': tokenCookie(token, port) } : {})
    })
    if (req.method === 'HEAD') return void res.end()
    const stream = createReadStream(found.path)
    stream.on('error', () => res.destroy())
    stream.pipe(res)
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const url = new URL(req.url ?? '/', 'http://host.invalid')
    if (url.pathname !== BRIDGE_PATH) return refuseUpgrade(socket, 404, `Not found: the bridge is at ${BRIDGE_PATH}.`)
    const refused = gate(req, url)
    if (refused) return refuseUpgrade(socket, refused.status, refused.text)
    const target = bridgeFor(url)
    if (!target)
      return refuseUpgrade(
        socket,
        404,
        `Not found: no open workspace '${url.searchParams.get(WORKSPACE_PARAM)}'. Open its folder again from the workspace menu.`
      )
    wss.handleUpgrade(req, socket, head, (ws) => target.accept(ws))
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
  policy = new OriginPolicy(host, port)

  let closing: Promise<void> | undefined
  return {
    url: `http://${host}:${port}/?token=${token}`,
    port,
    token,
    queuedBytes: () => [...workspaceBridges.values()].reduce((sum, b) => sum + b.queuedBytes, bridge.queuedBytes),
    close: () =>
      (closing ??= (async () => {
        bridge.dispose()
        for (const b of workspaceBridges.values()) b.dispose()
        wss.close()
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        server.closeAllConnections()
        await closed
      })())
  }
}

/** The CSP for responses, derived from index.html and re-read only when the file changes. */
function cspCache(staticDir: string): () => Promise<string> {
  let cached: { mtimeMs: number; csp: string } | undefined
  return async () => {
    const file = indexFile(staticDir)
    const info = await stat(file).catch(() => undefined)
    if (!info) return cspFromIndexHtml(undefined)
    if (cached?.mtimeMs !== info.mtimeMs)
      cached = { mtimeMs: info.mtimeMs, csp: cspFromIndexHtml(await readFile(file, 'utf8').catch(() => undefined)) }
    return cached.csp
  }
}
