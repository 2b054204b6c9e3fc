import type { RawData, WebSocket } from 'ws'
import { BridgeFrameSchema, type BridgeFrame, type IpcError } from '../../shared/ipc'
import type { Disposable } from '../runtime/lifecycle/disposable'
import type { BridgedService } from './types'

/** WebSocket close codes the bridge uses (RFC 6455 §7.4.1). */
export const CloseCode = {
  /** A text frame that is not JSON, or a frame with no request id to answer. */
  policyViolation: 1008,
  /** A binary frame: the bridge speaks JSON text only. */
  unsupportedData: 1003,
  /** The host is closing. */
  goingAway: 1001
} as const

/**
 * A client that stops reading is cut off once this much output waits for it (bytes): pane output
 * is pushed as fast as agents produce it and must not pile up in main's memory.
 */
export const MAX_BUFFERED_BYTES = 32 * 1024 * 1024

/**
 * The WebSocket side of the contract in src/shared/ipc.ts: one service shared by every socket.
 * Each `request` frame is answered by a `response` frame with the same id; every push of the
 * service goes to every open socket as a `push` frame. Owns its sockets and its one push
 * subscription; `dispose` ends both.
 */
export class Bridge implements Disposable {
  private readonly sockets = new Set<WebSocket>()
  private readonly subscription: Disposable
  private disposed = false

  constructor(private readonly service: BridgedService) {
    this.subscription = service.onPush((channel, payload) => this.broadcast({ kind: 'push', channel, payload }))
  }

  /** Number of open sockets (for tests and diagnostics). */
  get size(): number {
    return this.sockets.size
  }

  /** Takes ownership of an authenticated socket. */
  accept(socket: WebSocket): void {
    if (this.disposed) {
      socket.terminate()
      return
    }
    this.sockets.add(socket)
    socket.on('message', (data, isBinary) => void this.onMessage(socket, data, isBinary))
    socket.on('close', () => this.sockets.delete(socket))
    socket.on('error', () => socket.terminate())
  }

  /** Closes every socket at once and stops listening to the service. Idempotent. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.subscription.dispose()
    for (const socket of this.sockets) socket.terminate()
    this.sockets.clear()
  }

  private async onMessage(socket: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    if (isBinary) return socket.close(CloseCode.unsupportedData, 'binary frames are not supported')
    let json: unknown
    try {
      json = JSON.parse(rawText(data))
    } catch {
      return socket.close(CloseCode.policyViolation, 'frames must be JSON')
    }
    const frame = BridgeFrameSchema.safeParse(json)
    if (!frame.success || frame.data.kind !== 'request') {
      const id = (json as { id?: unknown } | null)?.id
      if (typeof id !== 'number' || !Number.isInteger(id)) return socket.close(CloseCode.policyViolation, 'frames must be requests with an integer id')
      const message = frame.success ? `the client may only send request frames, not '${frame.data.kind}'` : 'a request frame is {kind: "request", id, channel, payload}'
      return this.send(socket, { kind: 'response', id, ok: false, error: { name: 'BridgeFrameError', message } })
    }
    const { id, channel, payload } = frame.data
    try {
      const result = await this.service.handle(channel, payload)
      this.send(socket, { kind: 'response', id, ok: true, result })
    } catch (error) {
      this.send(socket, { kind: 'response', id, ok: false, error: toIpcError(error) })
    }
  }

  private broadcast(frame: BridgeFrame): void {
    const text = JSON.stringify(frame)
    for (const socket of this.sockets) this.sendText(socket, text)
  }

  private send(socket: WebSocket, frame: BridgeFrame): void {
    this.sendText(socket, JSON.stringify(frame))
  }

  private sendText(socket: WebSocket, text: string): void {
    if (socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.terminate()
      return
    }
    socket.send(text)
  }
}

/** An error as it crosses the wire: its `name` (e.g. `IpcRequestError`) and message survive. */
export function toIpcError(error: unknown): IpcError {
  if (error instanceof Error) return { name: error.name || 'Error', message: error.message }
  return { name: 'Error', message: String(error) }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8')
}
