import { toDisposable, type Disposable } from '../lifecycle/disposable'

/**
 * Backpressure numbers for pane output (issue 7, "Pane grid": "main batches terminal data per pane
 * (≤ 60 IPC messages per second per pane) and pauses PTY reads when the renderer falls behind; no
 * byte is dropped").
 *
 * - {@link PANE_FLUSH_INTERVAL_MS} = 1000 / 60 ms: two flushes of one pane are never closer, so a
 *   pane sends at most 60 `pane.data` messages a second; everything written in between is
 *   coalesced into one chunk. A pane that was quiet for a whole interval flushes on the next
 *   macrotask, so a single line is not held back.
 * - {@link PANE_HIGH_WATER_BYTES} = 1 MiB of flushed output the renderer has not acknowledged
 *   (`pane.ack`): the pane's PTYs are paused. At a DOM renderer's ~2–3 MB/s in headless Chromium
 *   (STACK.md) that is under half a second of work queued in the page.
 * - {@link PANE_LOW_WATER_BYTES} = 256 KiB: paused PTYs resume once the renderer is this close.
 * - {@link PANE_ACK_STALL_MS} = 5 s: a pane paused with no acknowledgement for this long means the
 *   page that acknowledged went away (reload, closed tab); its PTYs resume and the pane counts as
 *   caught up, so agents never wait on a renderer that is gone. Output is never dropped either
 *   way: the headless terminal in main keeps it and a page restores from that scrollback.
 *
 * Flow control starts with the first acknowledgement from any renderer: with no renderer (the CLI,
 * a web host nobody has opened, service tests) nothing is ever paused.
 */
export const PANE_FLUSH_INTERVAL_MS = 1000 / 60
export const PANE_HIGH_WATER_BYTES = 1 << 20
export const PANE_LOW_WATER_BYTES = 256 << 10
export const PANE_ACK_STALL_MS = 5_000

/** What a {@link PaneBatcher} drives; the service passes its headless terminals, pushes and PTY host. */
export interface PaneBatcherSink {
  /** Writes one coalesced chunk to the pane (headless terminal + `pane.data` push); returns its chunk number. */
  flush(agentId: string, data: string): number
  /** The pane's unacknowledged output passed the high-water mark: stop reading its PTYs. */
  pause(agentId: string): void
  /** The renderer caught up (or went away): read its PTYs again. */
  resume(agentId: string): void
}

/** Tunables of a {@link PaneBatcher}; the defaults are the numbers above. */
export interface PaneBatcherOptions {
  intervalMs?: number
  highWaterBytes?: number
  lowWaterBytes?: number
  stallMs?: number
  /** Monotonic clock in ms; default `performance.now`. */
  now?: () => number
}

interface PaneFlow {
  pending: string[]
  timer: ReturnType<typeof setTimeout> | undefined
  /** `now()` at the last flush; -Infinity before any. */
  lastFlushAt: number
  /** Flushed chunks not yet acknowledged, oldest first: number and size in bytes (UTF-8). */
  inFlight: Array<{ chunk: number; bytes: number }>
  unackedBytes: number
  acked: number
  paused: boolean
  stallTimer: ReturnType<typeof setTimeout> | undefined
}

/**
 * Per-pane batching and flow control between agents' output and the renderer (numbers and their
 * source: see {@link PANE_FLUSH_INTERVAL_MS} and the constants beside it).
 *
 * `write` queues output; a timer coalesces it into one chunk per interval and hands it to
 * `sink.flush`, in order, never dropping or reordering a byte. `ack(agentId, chunk)` records what
 * a renderer has processed (chunk numbers are cumulative: acknowledging 7 acknowledges 1–7; from
 * several renderers the furthest wins, so one slow tab does not stall the agents). Crossing the
 * high-water mark calls `sink.pause`, falling under the low-water mark `sink.resume`, each once
 * per crossing.
 */
export class PaneBatcher implements Disposable {
  private readonly panes = new Map<string, PaneFlow>()
  private readonly intervalMs: number
  private readonly highWater: number
  private readonly lowWater: number
  private readonly stallMs: number
  private readonly now: () => number
  /** Set by the first acknowledgement: a renderer that acknowledges is attached. */
  private acking = false
  private disposed = false

  constructor(
    private readonly sink: PaneBatcherSink,
    options: PaneBatcherOptions = {}
  ) {
    this.intervalMs = options.intervalMs ?? PANE_FLUSH_INTERVAL_MS
    this.highWater = options.highWaterBytes ?? PANE_HIGH_WATER_BYTES
    this.lowWater = options.lowWaterBytes ?? PANE_LOW_WATER_BYTES
    this.stallMs = options.stallMs ?? PANE_ACK_STALL_MS
    this.now = options.now ?? (() => performance.now())
    if (this.lowWater > this.highWater) throw new RangeError(`lowWaterBytes (${this.lowWater}) must not exceed highWaterBytes (${this.highWater})`)
  }

  /** Queues output for an agent's pane; it is flushed within one interval. Ignored after dispose. */
  write(agentId: string, data: string): void {
    if (this.disposed || data.length === 0) return
    const pane = this.pane(agentId)
    pane.pending.push(data)
    this.schedule(agentId, pane)
  }

  /** Flushes every pane's queued output now (before a scrollback is read, and at dispose). */
  flushAll(): void {
    for (const [agentId, pane] of this.panes) this.flush(agentId, pane)
  }

  /** Flushes one pane's queued output now. */
  flushPane(agentId: string): void {
    const pane = this.panes.get(agentId)
    if (pane) this.flush(agentId, pane)
  }

  /**
   * A renderer has processed the pane's chunks up to `chunk` (a `pane.ack`, or the chunk a
   * scrollback it fetched includes). Numbers beyond what was flushed are clamped.
   */
  ack(agentId: string, chunk: number): void {
    if (this.disposed) return
    this.acking = true
    const pane = this.pane(agentId)
    if (chunk <= pane.acked) return
    pane.acked = chunk
    while (pane.inFlight.length > 0 && pane.inFlight[0]!.chunk <= chunk) pane.unackedBytes -= pane.inFlight.shift()!.bytes
    if (pane.paused) {
      this.armStall(agentId, pane)
      if (pane.unackedBytes <= this.lowWater) this.setPaused(agentId, pane, false)
    }
  }

  /** Whether the pane's PTYs are paused now. */
  isPaused(agentId: string): boolean {
    return this.panes.get(agentId)?.paused === true
  }

  /** Bytes flushed to the pane and not yet acknowledged. */
  unackedBytes(agentId: string): number {
    return this.panes.get(agentId)?.unackedBytes ?? 0
  }

  /** Flushes what is queued, resumes every paused pane and stops all timers. Idempotent. */
  dispose(): void {
    if (this.disposed) return
    this.flushAll()
    this.disposed = true
    for (const [agentId, pane] of this.panes) {
      if (pane.timer !== undefined) clearTimeout(pane.timer)
      if (pane.paused) this.setPaused(agentId, pane, false)
    }
    this.panes.clear()
  }

  /** A disposable that disposes this batcher (for a DisposableStore). */
  asDisposable(): Disposable {
    return toDisposable(() => this.dispose())
  }

  private pane(agentId: string): PaneFlow {
    let pane = this.panes.get(agentId)
    if (!pane) {
      pane = { pending: [], timer: undefined, lastFlushAt: -Infinity, inFlight: [], unackedBytes: 0, acked: 0, paused: false, stallTimer: undefined }
      this.panes.set(agentId, pane)
    }
    return pane
  }

  private schedule(agentId: string, pane: PaneFlow): void {
    if (pane.timer !== undefined) return
    const wait = Math.max(0, pane.lastFlushAt + this.intervalMs - this.now())
    pane.timer = setTimeout(() => {
      pane.timer = undefined
      // Timers may fire a little early; never flush closer than the interval.
      if (this.now() - pane.lastFlushAt < this.intervalMs) this.schedule(agentId, pane)
      else this.flush(agentId, pane)
    }, wait)
  }

  private flush(agentId: string, pane: PaneFlow): void {
    if (pane.timer !== undefined) {
      clearTimeout(pane.timer)
      pane.timer = undefined
    }
    if (pane.pending.length === 0) return
    const data = pane.pending.length === 1 ? pane.pending[0]! : pane.pending.join('')
    pane.pending = []
    pane.lastFlushAt = this.now()
    const chunk = this.sink.flush(agentId, data)
    if (!this.acking) return
    const bytes = Buffer.byteLength(data, 'utf8')
    pane.inFlight.push({ chunk, bytes })
    pane.unackedBytes += bytes
    if (!pane.paused && pane.unackedBytes > this.highWater) this.setPaused(agentId, pane, true)
  }

  private setPaused(agentId: string, pane: PaneFlow, paused: boolean): void {
    pane.paused = paused
    if (paused) {
      this.armStall(agentId, pane)
      this.sink.pause(agentId)
    } else {
      if (pane.stallTimer !== undefined) clearTimeout(pane.stallTimer)
      pane.stallTimer = undefined
      this.sink.resume(agentId)
    }
  }

  /** (Re)starts the pane's stall timer: no acknowledgement for `stallMs` while paused → resume. */
  private armStall(agentId: string, pane: PaneFlow): void {
    if (pane.stallTimer !== undefined) clearTimeout(pane.stallTimer)
    pane.stallTimer = setTimeout(() => {
      pane.stallTimer = undefined
      if (!pane.paused || this.disposed) return
      // The renderer is gone: count everything flushed as delivered (main keeps it as scrollback).
      pane.inFlight = []
      pane.unackedBytes = 0
      this.setPaused(agentId, pane, false)
    }, this.stallMs)
  }
}
