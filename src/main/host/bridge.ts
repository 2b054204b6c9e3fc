import type { RawData, WebSocket } from 'ws'
import { BridgeFrameSchema, requestChannels, type BridgeFrame, type IpcError, type PushChannel } from '../../shared/ipc'
import { KEYCHAIN_CHANNELS, WEB_HOST_KEYCHAIN_REFUSAL } from '../../shared/settings'
import type { Disposable } from '../runtime/base'
import { PaneAckLedger } from './paneAcks'
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
 * A socket that has had output waiting for this long without its peer reading any of it is cut
 * off (ms). Pane output is flow-controlled (the agents wait for the slowest page, paneAcks.ts), so
 * a slow page is never cut; only one that reads nothing at all for a minute (a frozen tab, a dead
 * peer whose TCP connection lingers) holds the agents back for good, and is let go, with a log line.
 */
export const STUCK_CLIENT_MS = 60_000

/** How often sockets are checked for being stuck (ms). */
const STUCK_CHECK_MS = 1_000

/** Tunables of a {@link Bridge}; the defaults are the constants above. */
export interface BridgeOptions {
  /** See {@link STUCK_CLIENT_MS}. */
  stuckClientMs?: number
  /** Where the bridge reports a client it cut off; default stderr. */
  log?: (line: string) => void
}

/** A pane chunk by its agent and number (`pane.data`). */
interface ChunkRef {
  agentId: string
  chunk: number
}

/** A push waiting for the end of the macrotask: its `{channel, payload}` JSON, and the pane chunk it carries. */
interface QueuedPush {
  json: string
  pane?: ChunkRef
}

/** The text of a frame of pushes for one or more sockets, and the pane chunks in it. */
interface OutgoingFrame {
  text: string
  chunks: ChunkRef[]
}

/** A socket's writes: how many are waiting, and when one last completed (or the first began). */
interface Outbox {
  waiting: number
  progressAt: number
}

/**
 * The WebSocket side of the contract in src/shared/ipc/: one service shared by every socket.
 * Each `request` frame is answered by a `response` frame with the same id; every push of the
 * service goes to every open socket as a `push` frame. Owns its sockets and its one push
 * subscription; `dispose` ends both.
 *
 * Flow control (issue 7): nothing is ever dropped and no socket is cut for being slow. Pane
 * output is acknowledged to the service per pane as far as the slowest open socket has taken it
 * ({@link PaneAckLedger}: a page's own `pane.ack`s, answered here and forwarded as that minimum),
 * so main's batcher pauses the agents' PTYs until a slow page catches up, and what waits for any
 * socket stays within the batcher's window (the service pushes terminal-output runtime events
 * thinned, without their bytes: eventThinner.ts). A socket whose peer reads nothing for
 * {@link STUCK_CLIENT_MS} is terminated and logged.
 *
 * Mutes (`pane.mute`, per socket): a page that will restore an off-screen pane from its scrollback
 * anyway mutes it, and its socket then gets none of that pane's `pane.data` while other sockets
 * get all of it; the ledger stops waiting for that socket on that pane. A mute is applied when its
 * request is read, before any later frame of the socket, so an unmute followed by `pane.scrollback`
 * resumes exactly: every chunk after the scrollback's is pushed after the unmute. Mutes end with
 * their socket (a reconnecting page starts with none).
 *
 * Pushes made in one macrotask go out as one frame: a single one as a `push` frame, several as a
 * `pushes` frame carrying them in order. Main's pane batcher flushes every busy pane on one tick
 * (paneBatcher.ts), so 16 busy panes cost one WebSocket frame per tick instead of sixteen — one
 * write here, one message for the browser's network process and one task in the page. A response
 * is sent after the pushes made before it, so a page sees them in the order main made them.
 */
export class Bridge implements Disposable {
  private readonly sockets = new Map<WebSocket, Outbox>()
  private readonly subscription: Disposable
  private readonly acks: PaneAckLedger
  private readonly stuckMs: number
  private readonly log: (line: string) => void
  private readonly stuckTimer: ReturnType<typeof setInterval>
  private disposed = false
  /** Pushes of the current macrotask, sent together once it ends. */
  private queued: QueuedPush[] = []
  private flushScheduled = false

  constructor(
    private readonly service: BridgedService,
    options: BridgeOptions = {}
  ) {
    this.stuckMs = options.stuckClientMs ?? STUCK_CLIENT_MS
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`))
    this.acks = new PaneAckLedger((agentId, chunk) => {
      this.service.handle('pane.ack', { acks: [{ agentId, chunk }] }).catch(() => {
        /* the service is closing: nothing is waiting any more */
      })
    })
    this.subscription = service.onPush((channel, payload) => this.onPush(channel, payload))
    this.stuckTimer = setInterval(() => this.cutStuck(), Math.min(STUCK_CHECK_MS, this.stuckMs))
    this.stuckTimer.unref()
  }

  /** Number of open sockets (for tests and diagnostics). */
  get size(): number {
    return this.sockets.size
  }

  /** Bytes waiting in main for the open sockets to write (their `bufferedAmount`s), for tests and diagnostics. */
  get queuedBytes(): number {
    let bytes = 0
    for (const socket of this.sockets.keys()) bytes += socket.bufferedAmount
    return bytes
  }

  /** Takes ownership of an authenticated socket. */
  accept(socket: WebSocket): void {
    if (this.disposed) {
      socket.terminate()
      return
    }
    // what was pushed before this socket opened is not its to receive
    this.flushPushes()
    this.sockets.set(socket, { waiting: 0, progressAt: performance.now() })
    this.acks.open(socket)
    socket.on('message', (data, isBinary) => void this.onMessage(socket, data, isBinary))
    socket.on('close', () => {
      this.sockets.delete(socket)
      this.acks.close(socket)
    })
    socket.on('error', () => socket.terminate())
  }

  /** Closes every socket at once, releases what the agents waited on them for, and stops listening to the service. Idempotent. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    clearInterval(this.stuckTimer)
    this.subscription.dispose()
    this.queued = []
    for (const socket of this.sockets.keys()) {
      // The agents no longer wait for these pages (the service outlives the host).
      this.acks.close(socket)
      socket.terminate()
    }
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
      if (typeof id !== 'number' || !Number.isInteger(id))
        return socket.close(CloseCode.policyViolation, 'frames must be requests with an integer id')
      const message = frame.success
        ? `the client may only send request frames, not '${frame.data.kind}'`
        : 'a request frame is {kind: "request", id, channel, payload}'
      return this.send(socket, { kind: 'response', id, ok: false, error: { name: 'BridgeFrameError', message } })
    }
    const { id, channel, payload } = frame.data
    if (channel === 'pane.mute') {
      const mute = requestChannels['pane.mute'].request.safeParse(payload)
      if (mute.success) {
        // applied before the next frame is read: a `pane.scrollback` sent after an unmute sees its chunks flow again
        this.acks.mute(socket, mute.data.agentId, mute.data.muted)
        return this.send(socket, { kind: 'response', id, ok: true, result: { ok: true } })
      }
      const problems = mute.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ')
      return this.send(socket, {
        kind: 'response',
        id,
        ok: false,
        error: {
          name: 'IpcRequestError',
          message: `Bad payload for 'pane.mute': ${problems}. Send {agentId, muted: true|false}.`
        }
      })
    }
    if (channel === 'pane.ack') {
      const ack = requestChannels['pane.ack'].request.safeParse(payload)
      if (ack.success) {
        // Forwarded as the slowest socket's position, not as this page's (see PaneAckLedger).
        for (const { agentId, chunk } of ack.data.acks) this.acks.acked(socket, agentId, chunk)
        return this.send(socket, { kind: 'response', id, ok: true, result: { ok: true } })
      }
    }
    // the browser never hands the host an API key (docs/ui.md#the-workspace-ui): refused before the service sees it
    if (KEYCHAIN_CHANNELS.has(channel))
      return this.send(socket, {
        kind: 'response',
        id,
        ok: false,
        error: { name: 'KeychainRefusedError', message: WEB_HOST_KEYCHAIN_REFUSAL }
      })
    try {
      const result = await this.service.handle(channel, payload)
      if (channel === 'pane.scrollback') {
        const { agentId, chunk } = result as { agentId: string; chunk: number }
        this.acks.acked(socket, agentId, chunk)
      }
      this.send(socket, { kind: 'response', id, ok: true, result })
    } catch (error) {
      this.send(socket, { kind: 'response', id, ok: false, error: toIpcError(error) })
    }
  }

  private onPush(channel: PushChannel, payload: unknown): void {
    if (channel !== 'pane.data') return this.queue({ json: JSON.stringify({ channel, payload }) })
    const { agentId, chunk } = payload as { agentId: string; chunk: number }
    // no open socket takes this pane's output (each muted it, or none is open): nothing to encode
    // or send, and nobody to wait for; a socket that unmutes restores from the scrollback, which has it
    if (!this.anySocketTakes(agentId)) return this.acks.pushed(agentId, chunk)
    this.queue({ json: JSON.stringify({ channel, payload }), pane: { agentId, chunk } })
  }

  /** Whether an open socket takes the agent's pane output (has not muted it). */
  private anySocketTakes(agentId: string): boolean {
    for (const socket of this.sockets.keys()) if (!this.acks.isMuted(socket, agentId)) return true
    return false
  }

  private queue(push: QueuedPush): void {
    if (this.disposed) return
    this.queued.push(push)
    if (this.flushScheduled) return
    this.flushScheduled = true
    setImmediate(() => {
      this.flushScheduled = false
      this.flushPushes()
    })
  }

  /**
   * Sends the queued pushes to every open socket as one frame, leaving out of a socket's frame the
   * chunks of panes it muted (no frame at all when nothing is left); a pane chunk counts as written
   * to a socket once its frame is. Sockets that muted the same panes of the batch share one text.
   */
  private flushPushes(): void {
    const batch = this.queued
    if (batch.length === 0) return
    this.queued = []
    const chunks = batch.flatMap((p) => (p.pane ? [p.pane] : []))
    for (const { agentId, chunk } of chunks) this.acks.pushed(agentId, chunk)
    const whole: OutgoingFrame = { text: frameText(batch), chunks }
    /** Frames without some panes' chunks, by those panes; undefined when nothing is left to send. */
    const cuts = new Map<string, OutgoingFrame | undefined>()
    for (const socket of this.sockets.keys()) {
      let frame: OutgoingFrame | undefined = whole
      const muted = this.acks.mutedBy(socket)
      if (muted && chunks.some((c) => muted.has(c.agentId))) {
        const key = [...muted]
          .filter((id) => chunks.some((c) => c.agentId === id))
          .sort()
          .join('\n')
        if (!cuts.has(key)) {
          const kept = batch.filter((p) => !p.pane || !muted.has(p.pane.agentId))
          cuts.set(
            key,
            kept.length === 0
              ? undefined
              : { text: frameText(kept), chunks: chunks.filter((c) => !muted.has(c.agentId)) }
          )
        }
        frame = cuts.get(key)
      }
      if (!frame) continue
      const sent = frame.chunks
      this.sendText(
        socket,
        frame.text,
        sent.length === 0
          ? undefined
          : () => {
              for (const { agentId, chunk } of sent) this.acks.written(socket, agentId, chunk)
            }
      )
    }
  }

  /** Sends a response frame, after every push made before it. */
  private send(socket: WebSocket, frame: BridgeFrame): void {
    this.flushPushes()
    this.sendText(socket, JSON.stringify(frame))
  }

  /** Sends a frame; `written` runs once the socket has written it. Nothing is refused for size. */
  private sendText(socket: WebSocket, text: string, written?: () => void): void {
    const outbox = this.sockets.get(socket)
    if (!outbox || socket.readyState !== socket.OPEN) return
    if (outbox.waiting++ === 0) outbox.progressAt = performance.now()
    socket.send(text, (error) => {
      outbox.waiting--
      outbox.progressAt = performance.now()
      if (!error) written?.()
    })
  }

  /** Terminates, with a log line, every socket whose peer has read nothing for {@link STUCK_CLIENT_MS}. */
  private cutStuck(): void {
    const now = performance.now()
    for (const [socket, outbox] of this.sockets) {
      if (outbox.waiting === 0 || now - outbox.progressAt < this.stuckMs) continue
      this.log(
        `swarmdesk web host: cut off a client that has read nothing for ${Math.round((now - outbox.progressAt) / 1000)} s ` +
          `(${outbox.waiting} frames, ${socket.bufferedAmount} bytes waiting); the agents no longer wait for it, and a reload restores its panes from main's scrollback`
      )
      this.sockets.delete(socket)
      this.acks.close(socket)
      socket.terminate()
    }
  }
}

/** The frame of pushes made in one macrotask, spliced from their JSON: `{kind:'push', channel, payload}` for one, `{kind:'pushes', pushes}` for several. */
function frameText(pushes: QueuedPush[]): string {
  if (pushes.length === 1) return `{"kind":"push",${pushes[0]!.json.slice(1)}`
  return `{"kind":"pushes","pushes":[${pushes.map((p) => p.json).join(',')}]}`
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
