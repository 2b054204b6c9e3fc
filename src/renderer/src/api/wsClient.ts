import {
  BridgeFrameSchema,
  type BridgeFrame,
  type PushChannel,
  type PushOf,
  type RequestChannel,
  type RequestOf,
  type ResponseOf
} from '../../../shared/ipc'
import { Emitter } from '../lib/lifecycle'
import type { ConnectionStatus, WorkspaceClient } from './client'
import { BridgeDisconnectedError, BridgeProtocolError, remoteError } from './errors'
import { checkRequest, isPushChannel, parsePush, parseResponse } from './validate'

/** The part of the DOM `WebSocket` the client uses; the `ws` package's class fits it too. */
export interface SocketLike {
  readonly readyState: number
  onopen: ((ev: unknown) => void) | null
  onclose: ((ev: unknown) => void) | null
  onerror: ((ev: unknown) => void) | null
  onmessage: ((ev: { data: unknown }) => void) | null
  send(data: string): void
  close(code?: number, reason?: string): void
}

/** A WebSocket constructor (the browser's, or `ws` in Node tests). */
export type SocketConstructor = new (url: string) => SocketLike

/** Options of {@link createWebSocketClient}. */
export interface WebSocketClientOptions {
  /** `ws://host:port/bridge[?token=…]`. */
  url: string
  /** Defaults to the global `WebSocket`. */
  WebSocket?: SocketConstructor
  /** First reconnect delay, doubled per failed attempt up to `maxDelayMs`. Default 250 ms. */
  initialDelayMs?: number
  /** Longest reconnect delay. Default 5,000 ms. */
  maxDelayMs?: number
}

const OPEN = 1

/**
 * The bridge URL for a page served by the web host: same host, `ws(s):` scheme, path `/bridge`,
 * and the page's `token` and `workspace` query parameters when present (a tab opened for another
 * folder is `/?workspace=ID`, and its socket is bound to that workspace, src/main/host/workspaces.ts).
 */
export function bridgeUrl(loc: { origin: string; search: string }): string {
  const page = new URLSearchParams(loc.search)
  const query = new URLSearchParams()
  for (const name of ['token', 'workspace']) {
    const value = page.get(name)
    if (value) query.set(name, value)
  }
  const base = `${loc.origin.replace(/^http/, 'ws')}/bridge`
  const search = query.toString().replace(/\+/g, '%20')
  return search ? `${base}?${search}` : base
}

interface Pending {
  channel: RequestChannel
  /** The serialized request frame. */
  frame: string
  /** Sent on a socket (so lost if it drops); unsent requests wait for the next open. */
  sent: boolean
  resolve(value: unknown): void
  reject(err: Error): void
}

/**
 * A {@link WorkspaceClient} over the web host's WebSocket bridge, speaking `BridgeFrameSchema`
 * frames. Requests made while the socket is not open wait for the next open; requests in flight
 * when it drops are rejected with {@link BridgeDisconnectedError} (whether the host acted on them is unknown).
 * The socket reconnects with exponential backoff until disposed; after a reconnect the client fires
 * `onDidReconnect` so the owner can re-fetch what pushes it missed. A `pushes` frame (the pushes the
 * host made in one tick) is delivered push by push, in order. Frames and payloads that fail
 * validation are dropped and logged, never passed on.
 */
export function createWebSocketClient(options: WebSocketClientOptions): WorkspaceClient {
  const Ctor = options.WebSocket ?? (globalThis.WebSocket as unknown as SocketConstructor)
  const initialDelay = options.initialDelayMs ?? 250
  const maxDelay = options.maxDelayMs ?? 5_000

  const statusEmitter = new Emitter<ConnectionStatus>()
  const reconnectEmitter = new Emitter<void>()
  const listeners = new Map<PushChannel, Set<(payload: never) => void>>()
  const pending = new Map<number, Pending>()
  let socket: SocketLike | undefined
  let status: ConnectionStatus = 'connecting'
  let everOpened = false
  let delay = initialDelay
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let nextId = 1
  let disposed = false

  const setStatus = (next: ConnectionStatus): void => {
    if (status === next) return
    status = next
    statusEmitter.fire(next)
  }

  const connect = (): void => {
    const ws = new Ctor(options.url)
    socket = ws
    ws.onopen = () => {
      if (disposed || socket !== ws) return
      delay = initialDelay
      setStatus('open')
      for (const p of pending.values()) {
        if (!p.sent) {
          p.sent = true
          ws.send(p.frame)
        }
      }
      if (everOpened) reconnectEmitter.fire()
      everOpened = true
    }
    ws.onmessage = (ev) => {
      if (socket === ws) receive(ev.data)
    }
    ws.onerror = () => {
      /* a close event follows; handled there */
    }
    ws.onclose = () => {
      if (socket !== ws) return
      socket = undefined
      failPending(new BridgeDisconnectedError('The connection to the workspace was lost'), true)
      if (disposed) return
      setStatus('reconnecting')
      retryTimer = setTimeout(() => {
        retryTimer = undefined
        if (!disposed) connect()
      }, delay)
      delay = Math.min(delay * 2, maxDelay)
    }
  }

  /** Rejects requests in flight (or, with `onlySent` false, every request). */
  const failPending = (err: Error, onlySent = false): void => {
    for (const [id, p] of [...pending]) {
      if (onlySent && !p.sent) continue
      pending.delete(id)
      p.reject(err)
    }
  }

  const receive = (data: unknown): void => {
    let frame: BridgeFrame
    try {
      const text = typeof data === 'string' ? data : String(data)
      frame = BridgeFrameSchema.parse(JSON.parse(text))
    } catch (err) {
      console.error('dropped an invalid bridge frame', err)
      return
    }
    if (frame.kind === 'response') {
      const p = pending.get(frame.id)
      if (!p) return
      pending.delete(frame.id)
      if (!frame.ok) {
        p.reject(remoteError(frame.error))
        return
      }
      try {
        p.resolve(parseResponse(p.channel, frame.result))
      } catch (err) {
        p.reject(new BridgeProtocolError(`Invalid ${p.channel} response`, { cause: err }))
      }
      return
    }
    if (frame.kind === 'push') deliver(frame.channel, frame.payload)
    else if (frame.kind === 'pushes') for (const push of frame.pushes) deliver(push.channel, push.payload)
  }

  /** Hands one push to its channel's listeners, after validating it; an invalid one is dropped and logged. */
  const deliver = (channel: string, raw: unknown): void => {
    if (!isPushChannel(channel)) return
    const set = listeners.get(channel)
    if (!set || set.size === 0) return
    let payload: unknown
    try {
      payload = parsePush(channel, raw)
    } catch (err) {
      console.error(`dropped an invalid ${channel} push`, err)
      return
    }
    if (payload === undefined) return
    for (const l of [...set]) {
      try {
        ;(l as (p: unknown) => void)(payload)
      } catch (err) {
        console.error(err)
      }
    }
  }

  connect()

  return {
    transport: 'websocket',
    get status() {
      return status
    },
    request<C extends RequestChannel>(channel: C, payload: RequestOf<C>): Promise<ResponseOf<C>> {
      if (disposed) return Promise.reject(new BridgeDisconnectedError('The workspace client is disposed'))
      let checked: unknown
      try {
        checked = checkRequest(channel, payload)
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)))
      }
      const id = nextId++
      const frame = JSON.stringify({ kind: 'request', id, channel, payload: checked } satisfies BridgeFrame)
      return new Promise<ResponseOf<C>>((resolve, reject) => {
        const open = socket !== undefined && socket.readyState === OPEN
        pending.set(id, { channel, frame, sent: open, resolve: resolve as (v: unknown) => void, reject })
        if (open) socket?.send(frame)
      })
    },
    on<C extends PushChannel>(channel: C, listener: (payload: PushOf<C>) => void): () => void {
      let set = listeners.get(channel)
      if (!set) listeners.set(channel, (set = new Set()))
      const l = listener as (payload: never) => void
      set.add(l)
      return () => {
        set.delete(l)
      }
    },
    onDidChangeStatus: statusEmitter.event,
    onDidReconnect: reconnectEmitter.event,
    dispose() {
      if (disposed) return
      disposed = true
      if (retryTimer) clearTimeout(retryTimer)
      failPending(new BridgeDisconnectedError('The workspace client is disposed'))
      const ws = socket
      socket = undefined
      ws?.close()
      setStatus('closed')
      listeners.clear()
      statusEmitter.dispose()
      reconnectEmitter.dispose()
    }
  }
}
