import type { PushChannel, PushOf, WorkspaceApi } from '../../../shared/ipc'
import { Emitter, type Disposable } from '../lib/lifecycle'
import type { PreloadGlobals } from './preload'
import { checkRequest, parsePush, parseResponse } from './validate'
import { bridgeUrl, createWebSocketClient } from './wsClient'

/** Connection to the workspace: `connecting` before the first open, `reconnecting` after a loss. */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed'

/** How the renderer reaches the runtime. */
export type Transport = 'electron' | 'websocket'

/**
 * The renderer's one handle on the runtime: the contract's {@link WorkspaceApi} plus connection
 * state. After a reconnect, pushes sent while away are lost, so `onDidReconnect` tells the owner
 * to re-fetch the snapshot and every pane's scrollback.
 */
export interface WorkspaceClient extends WorkspaceApi, Disposable {
  readonly transport: Transport
  readonly status: ConnectionStatus
  /** Fires on every status change. */
  onDidChangeStatus(listener: (status: ConnectionStatus) => void): Disposable
  /** Fires when the connection is back after a loss (not on the first open). */
  onDidReconnect(listener: () => void): Disposable
}

/**
 * Wraps the preload API so its pushes and responses are validated like the WebSocket's. The
 * preload never disconnects: its status is always `open`.
 */
export function createPreloadClient(raw: WorkspaceApi): WorkspaceClient {
  const status = new Emitter<ConnectionStatus>()
  const reconnect = new Emitter<void>()
  const unsubscribes = new Set<() => void>()
  return {
    transport: 'electron',
    status: 'open',
    async request(channel, payload) {
      const result: unknown = await raw.request(channel, checkRequest(channel, payload))
      return parseResponse(channel, result)
    },
    on<C extends PushChannel>(channel: C, listener: (payload: PushOf<C>) => void): () => void {
      const off = raw.on(channel, (payload: unknown) => {
        let parsed: PushOf<C> | undefined
        try {
          parsed = parsePush(channel, payload)
        } catch (err) {
          console.error(`invalid ${channel} push`, err)
          return
        }
        if (parsed !== undefined) listener(parsed)
      })
      const unsubscribe = (): void => {
        if (unsubscribes.delete(unsubscribe)) off()
      }
      unsubscribes.add(unsubscribe)
      return unsubscribe
    },
    onDidChangeStatus: status.event,
    onDidReconnect: reconnect.event,
    dispose() {
      for (const u of [...unsubscribes]) u()
      status.dispose()
      reconnect.dispose()
    }
  }
}

/**
 * The client for this page: the preload API when running in Electron (`window.swarmdesk`),
 * otherwise a WebSocket to the web host's `/bridge` on the page's own origin, carrying the page's
 * `?token=` if it has one (the host also sets a cookie). The token then leaves the address bar
 * (it would be in the history, a bookmark, a screenshot): the socket keeps it for its reconnects,
 * and a reload authenticates with the cookie the host set for this port.
 */
export function createWorkspaceClient(): WorkspaceClient {
  const preload = (globalThis as PreloadGlobals).swarmdesk
  if (preload) return createPreloadClient(preload)
  const client = createWebSocketClient({ url: bridgeUrl(location) })
  const bare = withoutToken(location.href)
  if (bare !== location.href) history.replaceState(history.state, '', bare)
  return client
}

/** `href` without its `token` query parameter (other parameters, such as `workspace`, kept). */
export function withoutToken(href: string): string {
  const url = new URL(href)
  if (!url.searchParams.has('token')) return href
  url.searchParams.delete('token')
  return url.toString()
}
