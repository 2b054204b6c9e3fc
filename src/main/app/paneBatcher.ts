import { toDisposable, type Disposable } from '../runtime/base'

/**
 * Backpressure numbers for pane output (issue 7, "Pane grid": "main batches terminal data per pane
 * (≤ 60 IPC messages per second per pane) and pauses PTY reads when the renderer falls behind; no
 * byte is dropped").
 *
 * - {@link PANE_FLUSH_INTERVAL_MS} = 1000 / 60 ms: panes flush on one shared clock ticking at this
 *   interval (a grid of multiples of it on the batcher's clock), each pane at most once a tick, so a
 *   pane sends at most 60 `pane.data` messages a second; everything written in between is
 *   coalesced into one chunk. A pane that was quiet for a whole interval flushes on the next
 *   macrotask, so a single line is not held back, and joins the grid from its next flush on. Busy
 *   panes therefore flush together, in one timer callback: a transport can carry them in one
 *   message (the web host's bridge sends one WebSocket frame per tick, not one per pane, which at
 *   16 busy panes was ~800 frames a second, each a write in main and a task in the page).
 * - {@link PANE_HIGH_WATER_BYTES} = 1 MiB of flushed output the renderer has not acknowledged
 *   (`pane.ack`): the pane's PTYs are paused. At a DOM renderer's ~2–3 MB/s in headless Chromium
 *   (STACK.md) that is under half a second of work queued in the page.
 * - {@link PANE_LOW_WATER_BYTES} = 256 KiB: paused PTYs resume once the renderer is this close.
 * - {@link PANE_TOTAL_HIGH_WATER_BYTES} = 2 MiB unacknowledged across all panes: a pane that flushes
 *   while the total is above it is paused too, so what one page has queued (in main, on the socket
 *   and in its parser) stays bounded whatever the number of panes — 16 panes × 1 MiB would be
 *   16 MiB, several seconds of a DOM renderer's work. Output waits that long to be seen (window ÷
 *   the page's rate: under a second at 2–3 MB/s, 30 s on a page starved to ~130 KB/s as the UI
 *   bench saw with a 4 MiB window on a machine loaded 8×), while 16 panes × 200 KB/s with acks
 *   every 50–300 ms need only ~1 MiB in flight. Paused panes resume once the total is under
 *   {@link PANE_TOTAL_LOW_WATER_BYTES} = 1 MiB and their own unacknowledged bytes under the low-water mark.
 * - {@link PANE_ACK_STALL_MS} = 60 s: panes are paused and no renderer has acknowledged anything, on
 *   any pane, for this long: the page that acknowledged went away (a closed window, a crashed
 *   renderer); the PTYs resume and every pane counts as caught up, so agents never wait on a
 *   renderer that is gone for good. It was 5 s: the UI bench (16 WebGL panes on SwiftShader, load
 *   average 8–15 on 2 cores) saw a starved page acknowledge nothing for 5 s while its socket was
 *   open; the resume then queued 17 MB for it, it stopped reading altogether and was cut off after
 *   60 s. 60 s matches the web host's stuck-client rule (src/main/host/bridge.ts STUCK_CLIENT_MS),
 *   and the web host does not wait for either: its bridge acknowledges for a page the moment that
 *   page's socket closes (src/main/host/paneAcks.ts). Output is never dropped either way: the
 *   headless terminal in main keeps it and a page restores from that scrollback.
 *
 * Flow control starts with the first acknowledgement from any renderer: with no renderer (the CLI,
 * a web host nobody has opened, service tests) nothing is ever paused.
 */
export const PANE_FLUSH_INTERVAL_MS = 1000 / 60
export const PANE_HIGH_WATER_BYTES = 1 << 20
export const PANE_LOW_WATER_BYTES = 256 << 10
export const PANE_TOTAL_HIGH_WATER_BYTES = 2 << 20
export const PANE_TOTAL_LOW_WATER_BYTES = 1 << 20
export const PANE_ACK_STALL_MS = 60_000

/** What a {@link PaneBatcher} drives; the service passes its headless terminals, pushes and PTY host. */
export interface PaneBatcherSink {
  /** Writes one coalesced chunk to the pane (headless terminal + `pane.data` push); returns its chunk number. */
  flush(agentId: string, data: string): number
  /** The pane's (or all panes') unacknowledged output passed a high-water mark: stop reading its PTYs. */
  pause(agentId: string): void
  /** The renderer caught up (or went away): read its PTYs again. */
  resume(agentId: string): void
}

/** Tunables of a {@link PaneBatcher}; the defaults are the numbers above. */
export interface PaneBatcherOptions {
  intervalMs?: number
  highWaterBytes?: number
  lowWaterBytes?: number
  totalHighWaterBytes?: number
  totalLowWaterBytes?: number
  stallMs?: number
  /** Monotonic clock in ms; default `performance.now`. */
  now?: () => number
}

interface PaneFlow {
  pending: string[]
  /** Waiting for a flush: on the next tick of the grid, or on the next macrotask after a quiet spell. */
  queued: 'tick' | 'quiet' | undefined
  /** When the pane last flushed, ms since the batcher's creation: the grid time of the tick, or the time of another flush; -Infinity before any. */
  lastFlushAt: number
  /** Flushed chunks not yet acknowledged, oldest first: number and size in bytes (UTF-8). */
  inFlight: Array<{ chunk: number; bytes: number }>
  unackedBytes: number
  acked: number
  paused: boolean
}

/**
 * Per-pane batching and flow control between agents' output and the renderer (numbers and their
 * source: see {@link PANE_FLUSH_INTERVAL_MS} and the constants beside it).
 *
 * `write` queues output; the shared tick coalesces it into one chunk per interval and hands it to
 * `sink.flush`, in order, never dropping or reordering a byte. `ack(agentId, chunk)` records what
 * a renderer has processed (chunk numbers are cumulative: acknowledging 7 acknowledges 1–7; the
 * furthest acknowledgement counts — the web host's bridge sends the slowest open page's, so a slow
 * page makes the agents wait rather than pile up output for it). Crossing the pane's or the total
 * high-water mark calls `sink.pause`, falling under both low-water marks `sink.resume`, each once
 * per crossing.
 */
export class PaneBatcher implements Disposable {
  private readonly panes = new Map<string, PaneFlow>()
  private readonly intervalMs: number
  private readonly highWater: number
  private readonly lowWater: number
  private readonly totalHighWater: number
  private readonly totalLowWater: number
  private readonly stallMs: number
  private readonly now: () => number
  /** Set by the first acknowledgement: a renderer that acknowledges is attached. */
  private acking = false
  private disposed = false
  /** Unacknowledged bytes over every pane. */
  private total = 0
  /** Runs while some pane is paused; restarted by every acknowledgement (see {@link PANE_ACK_STALL_MS}). */
  private stallTimer: ReturnType<typeof setTimeout> | undefined
  /** The next tick of the grid while panes wait for one: its grid time and its timer. */
  private tick: { at: number; timer: ReturnType<typeof setTimeout> } | undefined
  /** Set while quiet panes wait for the next macrotask. */
  private quietTimer: ReturnType<typeof setTimeout> | undefined
  /**
   * `now()` at the batcher's creation. The grid and the flush times are kept as ms since then
   * ({@link elapsed}): on a clock far from 0 (Date.now's 1.7e12, or performance.now after weeks)
   * a fraction of a millisecond added to the time is rounded away, the grid's multiples of 16.67
   * drift off it and ticks get skipped.
   */
  private readonly origin: number

  constructor(
    private readonly sink: PaneBatcherSink,
    options: PaneBatcherOptions = {}
  ) {
    this.intervalMs = options.intervalMs ?? PANE_FLUSH_INTERVAL_MS
    this.highWater = options.highWaterBytes ?? PANE_HIGH_WATER_BYTES
    this.lowWater = options.lowWaterBytes ?? PANE_LOW_WATER_BYTES
    this.totalHighWater = options.totalHighWaterBytes ?? PANE_TOTAL_HIGH_WATER_BYTES
    this.totalLowWater = options.totalLowWaterBytes ?? PANE_TOTAL_LOW_WATER_BYTES
    this.stallMs = options.stallMs ?? PANE_ACK_STALL_MS
    this.now = options.now ?? (() => performance.now())
    this.origin = this.now()
    if (this.lowWater > this.highWater)
      throw new RangeError(`lowWaterBytes (${this.lowWater}) must not exceed highWaterBytes (${this.highWater})`)
    if (this.totalLowWater > this.totalHighWater)
      throw new RangeError(
        `totalLowWaterBytes (${this.totalLowWater}) must not exceed totalHighWaterBytes (${this.totalHighWater})`
      )
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
    // Any acknowledgement shows a renderer is alive: it is only slow (see PANE_ACK_STALL_MS).
    if (this.stallTimer !== undefined) this.armStall()
    const pane = this.pane(agentId)
    if (chunk <= pane.acked) return
    pane.acked = chunk
    while (pane.inFlight.length > 0 && pane.inFlight[0]!.chunk <= chunk) {
      const bytes = pane.inFlight.shift()!.bytes
      pane.unackedBytes -= bytes
      this.total -= bytes
    }
    this.resumeCaughtUp()
  }

  /** Whether the pane's PTYs are paused now. */
  isPaused(agentId: string): boolean {
    return this.panes.get(agentId)?.paused === true
  }

  /** Bytes flushed to the pane and not yet acknowledged. */
  unackedBytes(agentId: string): number {
    return this.panes.get(agentId)?.unackedBytes ?? 0
  }

  /** Bytes flushed and not yet acknowledged, over every pane. */
  get totalUnackedBytes(): number {
    return this.total
  }

  /** Flushes what is queued, resumes every paused pane and stops all timers. Idempotent. */
  dispose(): void {
    if (this.disposed) return
    this.flushAll()
    this.disposed = true
    if (this.stallTimer !== undefined) clearTimeout(this.stallTimer)
    this.stallTimer = undefined
    if (this.tick) clearTimeout(this.tick.timer)
    this.tick = undefined
    if (this.quietTimer !== undefined) clearTimeout(this.quietTimer)
    this.quietTimer = undefined
    for (const [agentId, pane] of this.panes) if (pane.paused) this.setPaused(agentId, pane, false)
    this.panes.clear()
  }

  /** A disposable that disposes this batcher (for a DisposableStore). */
  asDisposable(): Disposable {
    return toDisposable(() => this.dispose())
  }

  /** ms since the batcher was created (see {@link origin}). */
  private elapsed(): number {
    return this.now() - this.origin
  }

  private pane(agentId: string): PaneFlow {
    let pane = this.panes.get(agentId)
    if (!pane) {
      pane = {
        pending: [],
        queued: undefined,
        lastFlushAt: -Infinity,
        inFlight: [],
        unackedBytes: 0,
        acked: 0,
        paused: false
      }
      this.panes.set(agentId, pane)
    }
    return pane
  }

  private schedule(agentId: string, pane: PaneFlow): void {
    if (pane.queued) return
    const now = this.elapsed()
    if (now - pane.lastFlushAt >= this.intervalMs) {
      pane.queued = 'quiet'
      this.quietTimer ??= setTimeout(() => {
        this.quietTimer = undefined
        for (const [id, p] of this.panes) if (p.queued === 'quiet') this.flush(id, p, this.elapsed())
      }, 0)
      return
    }
    pane.queued = 'tick'
    this.armTick(pane.lastFlushAt + this.intervalMs)
  }

  /** Makes sure a tick of the grid runs no later than the first grid time at or after `earliest`. */
  private armTick(earliest: number): void {
    // the first grid time ≥ earliest (a hair of slack for floating point)
    const at = Math.ceil(earliest / this.intervalMs - 1e-6) * this.intervalMs
    if (this.tick && this.tick.at <= at) return
    if (this.tick) clearTimeout(this.tick.timer)
    this.tick = { at, timer: setTimeout(() => this.onTick(), Math.max(0, at - this.elapsed())) }
  }

  /**
   * A tick of the grid: every pane waiting for it whose last flush is a whole interval back
   * flushes now; the others wait for a later tick. A tick that runs late (a busy event loop) counts
   * as the latest grid time passed, so a late timer never makes two ticks in a row.
   */
  private onTick(): void {
    const tick = this.tick
    this.tick = undefined
    if (!tick) return
    const now = this.elapsed()
    // Timers may fire a little early: wait for the grid time (give or take floating-point fuzz).
    if (now < tick.at - 1e-6) {
      this.tick = { at: tick.at, timer: setTimeout(() => this.onTick(), Math.max(1, tick.at - now)) }
      return
    }
    const at = Math.max(tick.at, Math.floor(now / this.intervalMs + 1e-6) * this.intervalMs)
    let next = Infinity
    for (const [agentId, pane] of this.panes) {
      if (pane.queued !== 'tick') continue
      if (pane.lastFlushAt + this.intervalMs <= at + 1e-6) this.flush(agentId, pane, at)
      else next = Math.min(next, pane.lastFlushAt + this.intervalMs)
    }
    if (next !== Infinity) this.armTick(next)
  }

  /** Hands the pane's queued output to the sink as one chunk; `at` becomes its last flush time. */
  private flush(agentId: string, pane: PaneFlow, at = this.elapsed()): void {
    pane.queued = undefined
    if (pane.pending.length === 0) return
    const data = pane.pending.length === 1 ? pane.pending[0]! : pane.pending.join('')
    pane.pending = []
    pane.lastFlushAt = at
    const chunk = this.sink.flush(agentId, data)
    // An acknowledgement may arrive while the chunk is handed out (a web host with no page open acknowledges at once).
    if (!this.acking || chunk <= pane.acked) return
    const bytes = Buffer.byteLength(data, 'utf8')
    pane.inFlight.push({ chunk, bytes })
    pane.unackedBytes += bytes
    this.total += bytes
    if (!pane.paused && (pane.unackedBytes > this.highWater || this.total > this.totalHighWater))
      this.setPaused(agentId, pane, true)
  }

  /** Resumes every paused pane that is under its low-water mark, once the total is under its own. */
  private resumeCaughtUp(): void {
    if (this.total > this.totalLowWater) return
    for (const [agentId, pane] of this.panes)
      if (pane.paused && pane.unackedBytes <= this.lowWater) this.setPaused(agentId, pane, false)
  }

  private setPaused(agentId: string, pane: PaneFlow, paused: boolean): void {
    pane.paused = paused
    if (paused) {
      if (this.stallTimer === undefined) this.armStall()
      this.sink.pause(agentId)
    } else {
      this.sink.resume(agentId)
      if (![...this.panes.values()].some((p) => p.paused) && this.stallTimer !== undefined) {
        clearTimeout(this.stallTimer)
        this.stallTimer = undefined
      }
    }
  }

  /** (Re)starts the stall timer: no acknowledgement of any pane for `stallMs` while one is paused → resume all. */
  private armStall(): void {
    if (this.stallTimer !== undefined) clearTimeout(this.stallTimer)
    this.stallTimer = setTimeout(() => {
      this.stallTimer = undefined
      if (this.disposed) return
      // The renderer is gone: count everything flushed as delivered (main keeps it as scrollback).
      for (const pane of this.panes.values()) {
        pane.inFlight = []
        pane.unackedBytes = 0
      }
      this.total = 0
      this.resumeCaughtUp()
    }, this.stallMs)
  }
}
