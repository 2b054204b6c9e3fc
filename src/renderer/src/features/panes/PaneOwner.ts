import { DisposableStore, toDisposable, type Disposable } from '../../lib/lifecycle'
import type { PaneChunk, PaneSource } from './paneRouter'
import { createXtermTerminal, type PaneTerminalFactory, type PaneTerminal } from './terminal'

/** What a {@link PaneOwner} needs besides its element; the defaults are the real ones. */
export interface PaneOwnerDeps {
  source: PaneSource
  createTerminal?: PaneTerminalFactory
  /** Defaults to the global `ResizeObserver` (absent: no automatic fit). */
  ResizeObserver?: typeof ResizeObserver
  /** Quiet time before a resize refits the terminal. Default 50 ms. */
  fitDebounceMs?: number
}

/**
 * The imperative owner of one agent pane's terminal (STYLE.md Renderer, after waveterm's
 * `termwrap.ts`): creates the terminal on an element, fits it on resize (debounced), restores the
 * scrollback main keeps and then applies live `pane.data` chunks strictly in order, and on
 * `dispose()` releases the terminal, the observer, the timer and its router registration.
 *
 * Ordering: chunks that arrive while the scrollback is being fetched are held; after writing the
 * scrollback (which includes chunks up to its `chunk`), only later chunks are written. A gap in the
 * numbering means chunks were lost, so the pane restores again; a resync (reconnect) does the same.
 */
export class PaneOwner implements Disposable {
  private readonly disposables = new DisposableStore()
  private readonly terminal: PaneTerminal
  private readonly fitDebounceMs: number
  private lastChunk = 0
  /** Chunks held while restoring; `undefined` when live. */
  private held: PaneChunk[] | undefined = []
  private generation = 0
  private fitTimer: ReturnType<typeof setTimeout> | undefined

  constructor(
    host: HTMLElement,
    readonly agentId: string,
    private readonly deps: PaneOwnerDeps
  ) {
    this.fitDebounceMs = deps.fitDebounceMs ?? 50
    const terminal = (deps.createTerminal ?? createXtermTerminal)(host)
    this.terminal = terminal
    this.disposables.add(toDisposable(() => terminal.dispose()))
    this.disposables.add(
      deps.source.register(agentId, {
        onData: (chunk) => this.onChunk(chunk),
        onResync: () => this.restore(),
        text: () => this.terminal.text()
      })
    )
    const RO = deps.ResizeObserver ?? globalThis.ResizeObserver
    if (RO) {
      const observer = new RO(() => this.scheduleFit())
      observer.observe(host)
      this.disposables.add(toDisposable(() => observer.disconnect()))
    }
    this.disposables.add(
      toDisposable(() => {
        if (this.fitTimer !== undefined) clearTimeout(this.fitTimer)
        this.fitTimer = undefined
      })
    )
    this.terminal.fit()
    this.restore()
  }

  /** True once disposed. */
  get isDisposed(): boolean {
    return this.disposables.isDisposed
  }

  /** Number of the last chunk written (0 before any). */
  get lastChunkWritten(): number {
    return this.lastChunk
  }

  /** The terminal's text (see `bufferText`). */
  text(): string {
    return this.terminal.text()
  }

  /** Refits now (the debounced path calls this). */
  fit(): void {
    if (!this.isDisposed) this.terminal.fit()
  }

  /** Re-reads the scrollback and starts over; live chunks are held until it is written. */
  restore(): void {
    if (this.isDisposed) return
    const gen = ++this.generation
    this.held = this.held ?? []
    this.deps.source.fetchScrollback(this.agentId).then(
      (sb) => {
        if (gen !== this.generation || this.isDisposed) return
        this.terminal.reset()
        if (sb.data) this.terminal.write(sb.data)
        this.lastChunk = sb.chunk
        this.goLive()
      },
      (err: unknown) => {
        if (gen !== this.generation || this.isDisposed) return
        // No scrollback (the pane is new to main, or the link is down): show what arrives live;
        // a reconnect resyncs again.
        // Take the held chunks as they are, so a gap among them cannot trigger another restore.
        console.warn(`no scrollback for ${this.agentId}`, err)
        const first = Math.min(...(this.held ?? []).map((c) => c.chunk))
        if (Number.isFinite(first) && first - 1 > this.lastChunk) this.lastChunk = first - 1
        this.goLive()
      }
    )
  }

  dispose(): void {
    this.generation++
    this.held = undefined
    this.disposables.dispose()
  }

  private goLive(): void {
    const held = (this.held ?? []).sort((a, b) => a.chunk - b.chunk)
    this.held = undefined
    for (const c of held) this.onChunk(c)
  }

  private onChunk(chunk: PaneChunk): void {
    if (this.isDisposed) return
    if (this.held) {
      this.held.push(chunk)
      return
    }
    if (chunk.chunk <= this.lastChunk) return
    if (chunk.chunk > this.lastChunk + 1 && this.lastChunk > 0) {
      this.held = [chunk]
      this.restore()
      return
    }
    this.terminal.write(chunk.data)
    this.lastChunk = chunk.chunk
  }

  private scheduleFit(): void {
    if (this.fitTimer !== undefined) clearTimeout(this.fitTimer)
    this.fitTimer = setTimeout(() => {
      this.fitTimer = undefined
      this.fit()
    }, this.fitDebounceMs)
  }
}
