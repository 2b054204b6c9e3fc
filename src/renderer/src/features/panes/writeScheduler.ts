/**
 * A pane with live output waiting to go into its terminal. Given a turn, it writes everything it
 * holds (xterm then parses it and draws it on the next frame).
 */
export interface PaneWriter {
  takeTurn(): void
}

/** How a {@link PaneWriteScheduler} waits for frames; the defaults are the page's. */
export interface FrameSource {
  /** `requestAnimationFrame`: calls back before the next frame with its time (ms, `performance.now()` clock). */
  request(callback: (time: number) => void): number
  cancel(handle: number): void
  /** `performance.now()`. */
  now(): number
}

/** Tunables of a {@link PaneWriteScheduler}; the defaults are the constants below. */
export interface PaneWriteSchedulerOptions {
  frames?: FrameSource
  /** Panes written per frame to start with; default {@link INITIAL_PANES_PER_FRAME}. */
  initialPerFrame?: number
  /** Never fewer panes per frame than this; default 1. */
  minPerFrame?: number
  /** Never more; default {@link MAX_PANES_PER_FRAME}. */
  maxPerFrame?: number
  /** Turns are also granted this long after a request if no frame came (a hidden window has none); default {@link FALLBACK_MS}. */
  fallbackMs?: number
  /** Frames watched after the last turn; default {@link WATCH_FRAMES}. */
  watchFrames?: number
}

/** Panes written per frame before the scheduler has seen any frame time. */
export const INITIAL_PANES_PER_FRAME = 8
/** Upper bound of panes written per frame: past it a frame's drawing is never the cheap part. */
export const MAX_PANES_PER_FRAME = 64
/**
 * A frame counts as late when it comes more than this many frame periods after the previous one
 * (the period is the shortest gap seen lately, at most 16.7 ms: a 60 Hz display's).
 */
export const LATE_FRAME_FACTOR = 1.5
/**
 * On-time frames in a row, with panes still waiting after their turns, before one more pane is
 * written per frame. Growing is probing: the step that makes frames late again costs a late frame,
 * so at 8 a budget of 2–4 panes made about one frame in 17 late (frame p95 on two frames); at 16
 * one in 33, and back from 1 to 8 panes in about 2 s.
 */
export const ON_TIME_FRAMES_TO_GROW = 16
/**
 * How many times longer growing takes into a budget that made a frame late before (the ceiling),
 * until a budget at the ceiling has held for {@link ON_TIME_FRAMES_TO_GROW} frames. Each probe of a
 * budget that does not fit costs a late frame: with 4 busy panes drawing 3 ms each, 2 a frame fit and
 * 3 did not, and probing 3 every 32 frames kept ~6% of the frames late (bench/ui, 200 KB/s).
 */
export const CEILING_PATIENCE = 4
/** Turns are granted on a timer this long after a request when no animation frame comes (a hidden or minimised window). */
export const FALLBACK_MS = 250
/**
 * Frames the scheduler keeps watching after the last turn (judging their gaps, writing nothing):
 * half a second at 60 Hz. Output streams in as messages between frames, and between two turns the
 * scheduler often has nobody waiting. Stopping then and starting afresh at the next message, it
 * judged almost no gap, and least of all the late ones (a late frame is one the next message
 * reaches long after the previous frame): in bench/ui at 4 visible panes × 200 KB/s the budget
 * never left its start of 8, all 4 busy panes drew in every frame (13.7 ms of the main thread),
 * and a quarter of the frames missed their vsync. Watched, the budget falls to what fits.
 */
export const WATCH_FRAMES = 30
/**
 * A gap between two frames longer than this (ms) is not judged: the window was hidden or minimised
 * meanwhile (frames stop; a watched frame requested before comes when it shows again), which says
 * nothing about what a frame costs.
 */
export const UNJUDGED_GAP_MS = 1_000
/** Frames over which the shortest gap between frames is taken as the display's frame period. */
const PERIOD_WINDOW = 120

const pageFrames: FrameSource = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
  now: () => performance.now()
}

/**
 * Spreads the panes' terminal writes over animation frames so that drawing them keeps to the
 * display's frame rate (issue 7: 16 visible panes under output, frame p95 ≤ 33 ms, input p95 ≤ 50 ms).
 *
 * Why: a terminal that scrolls redraws every row on the next frame, whatever the number of new
 * lines, so the cost of a frame grows with the number of terminals written since the last one.
 * With 16 busy panes written every frame, each frame drew 16 terminals (on the DOM renderer about
 * 20–30 ms on the 2-core machine bench/ui runs on) and the page fell to 30 frames a second with a
 * keystroke waiting up to two frames to show. Written in turns, each busy pane draws less often
 * (with more new lines at once, so no slower overall), and a frame draws only as many terminals as
 * fit in it.
 *
 * How: a pane with output asks for a turn ({@link request}); at each animation frame the panes
 * waiting longest get their turn, at most {@link perFrame} of them. `perFrame` adapts to the frame
 * times (additive increase, multiplicative decrease, as TCP's congestion window does): a late frame
 * ({@link LATE_FRAME_FACTOR} periods or more after the one before) halves it (rounding up, but
 * always below the budget that was late), down to the minimum; {@link ON_TIME_FRAMES_TO_GROW}
 * on-time frames in a row while panes were left waiting raise it by one, and
 * {@link CEILING_PATIENCE} times as many raise it back to the budget that was late. Frames are
 * watched for {@link WATCH_FRAMES} after the last turn, so every gap between two frames of a
 * stream of output is judged; the first frame after an idle spell is not. When no frame
 * comes within {@link FALLBACK_MS} of a request (a hidden window), a timer grants every waiting
 * pane its turn, so output keeps flowing (and being acknowledged to main) without frames.
 */
export class PaneWriteScheduler {
  private readonly frames: FrameSource
  private readonly min: number
  private readonly max: number
  private readonly fallbackMs: number
  private readonly watchFrames: number
  /** Frames still to watch with nobody waiting before the scheduler stops asking for frames. */
  private watchLeft = 0
  /** Whether the scheduler is taking frames (serving turns or watching); false while idle. */
  private taking = false
  /** Waiting panes, in the order they asked (a Set keeps insertion order). */
  private readonly waiting = new Set<PaneWriter>()
  private perFrameNow: number
  private frameHandle: number | undefined
  private fallbackTimer: ReturnType<typeof setTimeout> | undefined
  /** Time of the previous frame (undefined when the next frame follows an idle spell and is not judged). */
  private lastFrameAt: number | undefined
  /** Recent gaps between frames, for the period (the shortest of them). */
  private readonly gaps: number[] = []
  private onTimeInRow = 0
  /** The budget that last made a frame late, until a budget that high holds (growing into it takes {@link CEILING_PATIENCE} × longer). */
  private ceiling = Number.POSITIVE_INFINITY

  constructor(options: PaneWriteSchedulerOptions = {}) {
    this.frames = options.frames ?? pageFrames
    this.min = options.minPerFrame ?? 1
    this.max = options.maxPerFrame ?? MAX_PANES_PER_FRAME
    this.fallbackMs = options.fallbackMs ?? FALLBACK_MS
    this.watchFrames = options.watchFrames ?? WATCH_FRAMES
    this.perFrameNow = Math.min(this.max, Math.max(this.min, options.initialPerFrame ?? INITIAL_PANES_PER_FRAME))
    if (!(this.min >= 1 && this.max >= this.min))
      throw new RangeError(`need 1 ≤ minPerFrame ≤ maxPerFrame, got ${this.min} and ${this.max}`)
  }

  /** Panes written per frame now. */
  get perFrame(): number {
    return this.perFrameNow
  }

  /** Panes waiting for a turn. */
  get pending(): number {
    return this.waiting.size
  }

  /** `writer` has output to write: it gets a turn at a coming frame (once, however often it asks before then). */
  request(writer: PaneWriter): void {
    this.waiting.add(writer)
    if (!this.taking) {
      // idle, not even watching: the first frame after an idle spell says nothing about frame times
      this.taking = true
      this.lastFrameAt = undefined
      this.frameHandle = this.frames.request((time) => this.onFrame(time))
    }
    this.fallbackTimer ??= setTimeout(() => this.onFallback(), this.fallbackMs)
  }

  /** `writer` no longer wants its turn (disposed, or it wrote or dropped its output meanwhile). */
  cancel(writer: PaneWriter): void {
    this.waiting.delete(writer)
    if (this.waiting.size === 0) this.stopFallback()
  }

  private onFrame(time: number): void {
    this.frameHandle = undefined
    this.judge(time)
    if (this.waiting.size === 0) {
      // a watched frame: judged, nothing to write
      this.onTimeInRow = 0
      if (--this.watchLeft > 0) this.frameHandle = this.frames.request((t) => this.onFrame(t))
      else this.stopFrames()
      return
    }
    this.stopFallback()
    const turns = [...this.waiting].slice(0, this.perFrameNow)
    for (const writer of turns) this.waiting.delete(writer)
    const leftWaiting = this.waiting.size > 0
    this.grant(turns)
    // Only a budget that left panes waiting may grow: otherwise on-time frames say nothing about it.
    if (!leftWaiting) this.onTimeInRow = 0
    this.watchLeft = this.watchFrames
    // a pane that asked again during its turn has requested the frame already
    this.frameHandle ??= this.frames.request((t) => this.onFrame(t))
    // frames are coming: the fallback is for when they stop
    if (this.waiting.size > 0) this.fallbackTimer ??= setTimeout(() => this.onFallback(), this.fallbackMs)
  }

  /** Judges the gap since the previous frame: a late one halves the budget, a run of on-time ones grows it. */
  private judge(time: number): void {
    const last = this.lastFrameAt
    this.lastFrameAt = time
    if (last === undefined || time <= last || time - last > UNJUDGED_GAP_MS) return
    const gap = time - last
    this.gaps.push(gap)
    if (this.gaps.length > PERIOD_WINDOW) this.gaps.shift()
    if (gap > this.period() * LATE_FRAME_FACTOR) {
      this.ceiling = this.perFrameNow
      this.perFrameNow = Math.max(this.min, Math.ceil(this.perFrameNow / 2))
      if (this.perFrameNow === this.ceiling && this.perFrameNow > this.min) this.perFrameNow--
      this.onTimeInRow = 0
      return
    }
    const atCeiling = this.perFrameNow >= this.ceiling
    const needed =
      this.perFrameNow + 1 >= this.ceiling && !atCeiling
        ? ON_TIME_FRAMES_TO_GROW * CEILING_PATIENCE
        : ON_TIME_FRAMES_TO_GROW
    if (++this.onTimeInRow < needed) return
    // a budget at the ceiling held: the late frame there was not the budget's doing
    if (atCeiling) this.ceiling = Number.POSITIVE_INFINITY
    this.perFrameNow = Math.min(this.max, this.perFrameNow + 1)
    this.onTimeInRow = 0
  }

  /** No frame came: every waiting pane writes now (the window is hidden; nothing is drawn anyway). */
  private onFallback(): void {
    this.fallbackTimer = undefined
    const turns = [...this.waiting]
    this.waiting.clear()
    this.stopFrames()
    this.grant(turns)
  }

  private grant(turns: PaneWriter[]): void {
    for (const writer of turns) {
      try {
        writer.takeTurn()
      } catch (error) {
        console.error('a pane failed to write its output', error)
      }
    }
  }

  /**
   * The display's frame period, ms: the shortest recent gap between frames (a 120 Hz display's
   * 8.3), at most 1000/60: frames that all come slowly are late, not a slow display.
   */
  private period(): number {
    return Math.min(1000 / 60, ...this.gaps)
  }

  /** Stops asking for frames (watching included); the next request starts afresh. */
  private stopFrames(): void {
    if (this.frameHandle !== undefined) this.frames.cancel(this.frameHandle)
    this.frameHandle = undefined
    this.lastFrameAt = undefined
    this.watchLeft = 0
    this.taking = false
  }

  private stopFallback(): void {
    if (this.fallbackTimer !== undefined) clearTimeout(this.fallbackTimer)
    this.fallbackTimer = undefined
  }
}

/** The page's scheduler, shared by every pane. */
export const paneWriteScheduler = new PaneWriteScheduler()
