import type { PaneScrollback } from '../../../../shared/ipc'
import { DEFAULT_PANE_SCROLLBACK_LINES } from '../../../../shared/paneScrollback'
import { DisposableStore, toDisposable, type Disposable } from '../../lib/lifecycle'
import { HeldOutput } from './heldOutput'
import type { PaneOwnerDeps } from './paneOwnerDeps'
import type { PaneChunk, PaneRegistration } from './paneRouter'
import { SizeReport, SIZE_REPORT_DEBOUNCE_MS } from './sizeReport'
import { createXtermTerminal, type PaneTerminal, type FindResults } from './terminal'
import { PaneWebgl } from './paneWebgl'
import { webglPool as defaultPool } from './webglPool'
import { paneWriteScheduler, type PaneWriter, type PaneWriteScheduler } from './writeScheduler'

export { MAX_HELD_OFFSCREEN } from './heldOutput'
export { SIZE_REPORT_DEBOUNCE_MS } from './sizeReport'
export type { PaneOwnerDeps } from './paneOwnerDeps'

/**
 * The imperative owner of one agent pane's terminal (STYLE.md Renderer, after waveterm's
 * `termwrap.ts`): creates the terminal on an element, fits it on resize (debounced), restores the
 * scrollback main keeps and then applies live `pane.data` chunks strictly in order, and on
 * `dispose()` releases the terminal, the observer, the timer and its router registration.
 *
 * Ordering: chunks that arrive while the scrollback is being fetched are held; after writing the
 * scrollback (which includes chunks up to its `chunk`), only later chunks are written. A gap in the
 * numbering means chunks were lost, so the pane restores again; a resync (reconnect) does the same.
 *
 * Rendering work only while on screen (issue 7): an off-screen pane writes nothing into its
 * terminal; live output is held (up to {@link MAX_HELD_OFFSCREEN}, beyond which the pane restores
 * from main's scrollback when shown) and written on show. A restore asked for while off screen (a
 * resync, a gap in the numbering) waits for the show as well. A visible pane asks the page's
 * WebGL context pool ({@link PaneWebgl}) for a WebGL renderer and gives it back when it leaves the screen or the
 * pool evicts it; a lost or unavailable context leaves it on the DOM renderer. The renderer in use
 * is on the host element as `data-renderer`. Every chunk is acknowledged to main (`pane.ack`) once
 * written, or at once when held, so main's backpressure measures what the page still has to do.
 *
 * Mute: once an off-screen pane has given up on its held output (too much held, or a restore
 * waits for the show: it will restore from the scrollback then), it tells its source it wants no
 * more live chunks ({@link PaneRegistration}: the page then asks main, `pane.mute`, to stop
 * sending them to this page; main stops waiting for this page on that pane too). Every restore
 * unmutes first, on the same connection as the fetch that follows, so the chunks after the
 * scrollback's all arrive; a reconnect starts unmuted. An agent no pane of the page shows (its
 * owner disposed: hidden, collapsed, another layout) stays muted until a pane mounts for it.
 *
 * Live output of a visible pane waits for the pane's turn at an animation frame
 * ({@link PaneWriteScheduler}: a frame draws only as many busy terminals as fit in it), then goes
 * into the terminal in one write; a restore drops what waits (the scrollback has it), going off
 * screen holds it like any off-screen output, and reading the text writes it at once.
 *
 * Size (docs/ui.md#the-workspace-ui: a `process` teammate's pane IS its terminal): after a fit that measured a size
 * other than the one last reported — the first fit included — the size in character cells goes to
 * main through the source's `resize` (`pane.resize`), once the pane has been quiet for
 * {@link SIZE_REPORT_DEBOUNCE_MS}, and only while the pane is on screen: an off-screen pane reports
 * nothing, and reports its size on show when it changed meanwhile. After a resync (a reconnect:
 * main may have restarted) the size is reported again.
 */
export class PaneOwner implements Disposable, PaneWriter {
  private readonly disposables = new DisposableStore()
  private readonly terminal: PaneTerminal
  private readonly fitDebounceMs: number
  private lastChunk = 0
  /** Chunks held while restoring; `undefined` when live. */
  private held: PaneChunk[] | undefined = []
  private generation = 0
  private fitTimer: ReturnType<typeof setTimeout> | undefined
  private visible: boolean
  /** Output held while off screen; `restoreOnShow` when too much was held, or a restore was deferred. */
  private readonly offscreen = new HeldOutput()
  private restoreOnShow = false
  private readonly webgl: PaneWebgl
  /** The size last sent to main, and one waiting for the debounce to send. */
  private readonly size: SizeReport
  /** Writes handed to the terminal that it has not parsed yet (see {@link write}). */
  private unparsedWrites = 0
  /** Live chunks of a visible pane waiting for its turn to be written (see {@link takeTurn}). */
  private queued: PaneChunk[] = []
  private readonly writes: Pick<PaneWriteScheduler, 'request' | 'cancel'>
  /** This owner's place in its source: where it asks for the pane's live chunks to stop or resume. */
  private readonly registration: PaneRegistration

  constructor(
    private readonly host: HTMLElement,
    readonly agentId: string,
    private readonly deps: PaneOwnerDeps
  ) {
    this.fitDebounceMs = deps.fitDebounceMs ?? 50
    this.visible = deps.visible ?? true
    this.size = new SizeReport(
      deps.sizeReportDebounceMs ?? SIZE_REPORT_DEBOUNCE_MS,
      (size) => this.deps.source.resize?.(this.agentId, size),
      () => !this.isDisposed && this.visible
    )
    this.writes = deps.writes ?? paneWriteScheduler
    const terminal = (deps.createTerminal ?? createXtermTerminal)(host, {
      scrollbackLines: deps.scrollback?.lines ?? DEFAULT_PANE_SCROLLBACK_LINES
    })
    this.terminal = terminal
    this.webgl = new PaneWebgl(terminal, host, deps.webgl ?? defaultPool, () => !this.isDisposed && this.visible)
    this.disposables.add(toDisposable(() => terminal.dispose()))
    if (deps.scrollback) this.disposables.add(deps.scrollback.onDidChange((lines) => terminal.setScrollback?.(lines)))
    this.registration = this.disposables.add(
      deps.source.register(agentId, {
        onData: (chunk) => this.onChunk(chunk),
        onResync: () => {
          this.size.forget()
          if (this.visible) this.restore()
          else this.restoreOnShowInstead()
          this.scheduleFit()
        },
        text: () => this.terminal.text(),
        reportedSize: () => this.size.reported()
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
        this.size.dispose()
      })
    )
    this.disposables.add(this.webgl)
    this.disposables.add(toDisposable(() => this.dropQueued()))
    this.fit()
    this.restore()
    if (this.visible) this.webgl.use()
  }

  /** True once disposed. */
  get isDisposed(): boolean {
    return this.disposables.isDisposed
  }

  /** Number of the last chunk written (0 before any). */
  get lastChunkWritten(): number {
    return this.lastChunk
  }

  /** Whether the pane is on screen now. */
  get isVisible(): boolean {
    return this.visible
  }

  /**
   * The terminal's text (see `bufferText`). Reading brings output held off screen into the
   * terminal (parsed asynchronously: poll), so a test reads the same text whatever is scrolled
   * into view.
   */
  text(): string {
    if (!this.isDisposed && !this.visible) this.catchUp()
    if (!this.isDisposed && this.visible) this.takeTurn()
    return this.terminal.text()
  }

  /** Writes the live output waiting for this pane's turn (the scheduler calls it at a frame). */
  takeTurn(): void {
    const chunks = this.queued
    if (this.isDisposed || chunks.length === 0) return
    this.queued = []
    this.writes.cancel(this)
    const n = chunks[chunks.length - 1]!.chunk
    this.write(chunks.length === 1 ? chunks[0]!.data : chunks.map((c) => c.data).join(''), () =>
      this.deps.source.ack?.(this.agentId, n)
    )
    this.webgl.touch()
  }

  /**
   * The pane came on or went off screen (IntersectionObserver, or its subtree was shown again):
   * on show, held output is written (or the scrollback restored) and WebGL requested; on hide,
   * WebGL is given back.
   */
  setVisible(visible: boolean): void {
    if (this.isDisposed || visible === this.visible) return
    this.visible = visible
    if (visible) {
      this.catchUp()
      this.webgl.use()
      this.scheduleFit()
    } else {
      // what waited for a turn is held like any output that comes while off screen
      const waiting = this.queued
      this.dropQueued()
      for (const c of waiting) this.hold(c)
      this.webgl.giveBack()
    }
  }

  /** Finds text in the pane (Ctrl+F); false when absent or the terminal cannot search. */
  find(term: string, direction: 'next' | 'previous'): boolean {
    if (this.isDisposed || !term) return false
    return this.terminal.find?.(term, direction) ?? false
  }

  /** Clears search highlights. */
  clearFind(): void {
    if (!this.isDisposed) this.terminal.clearFind?.()
  }

  /** Follows the search's match count and position (see {@link FindResults}); a terminal that cannot tell never calls. */
  onFindResults(listener: (results: FindResults) => void): () => void {
    if (this.isDisposed) return () => undefined
    return this.terminal.onFindResults?.(listener) ?? (() => undefined)
  }

  /** The selected text. */
  selection(): string {
    return this.isDisposed ? '' : (this.terminal.selection?.() ?? '')
  }

  /**
   * Sends every key typed in the terminal to `send` (a Claude Code session's pane: its program
   * reads them). Returns the function that stops it; a terminal that takes no input does nothing.
   */
  takeInput(send: (data: string) => void): () => void {
    if (this.isDisposed || !this.terminal.onInput) return () => undefined
    return this.terminal.onInput(send)
  }

  /** Selects the whole buffer. */
  selectAll(): void {
    if (!this.isDisposed) this.terminal.selectAll?.()
  }

  /** Refits now (the debounced path calls this); a changed size of a visible pane is reported, debounced. */
  fit(): void {
    if (this.isDisposed) return
    const size = this.terminal.fit()
    if (size && this.visible) this.size.note(size)
  }

  /**
   * Re-reads the scrollback and starts over; live chunks are held until it is written. The
   * terminal is reset for it once xterm has parsed what was written before (its reset leaves
   * pending writes to land on the new screen). Main serialized it at its copy's size (`cols` ×
   * `rows`), which may not be this pane's (the page has not reported its size yet, or another page
   * on the workspace did last): it is written at that size and the pane then refitted, so xterm
   * reflows it and live output continues on the row after it.
   */
  restore(): void {
    if (this.isDisposed) return
    // the scrollback includes what waited for a turn
    this.dropQueued()
    this.offscreen.clear()
    this.restoreOnShow = false
    const gen = ++this.generation
    this.held = this.held ?? []
    // before the fetch, on the same connection: every chunk after the scrollback's reaches the pane
    this.registration.setMuted(false)
    // no more lines than this terminal keeps: main keeps 10,000, the page's default is 1,000
    this.deps.source.fetchScrollback(this.agentId, this.deps.scrollback?.lines ?? DEFAULT_PANE_SCROLLBACK_LINES).then(
      (sb) => {
        if (gen !== this.generation || this.isDisposed) return
        const apply = () => {
          this.terminal.reset()
          if (sb.data) this.writeScrollback(sb)
          this.lastChunk = sb.chunk
          this.goLive()
        }
        if (this.unparsedWrites === 0) return apply()
        // xterm resets at once but parses writes later: output written before the restore would
        // land on the restored screen (twice: the scrollback has it), so reset once it is parsed
        this.terminal.write('', () => {
          if (gen === this.generation && !this.isDisposed) apply()
        })
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

  /**
   * Writes a scrollback at the size main serialized it at: its closing cursor moves count rows
   * and columns of that size, so written at another width they leave the cursor on a row of the
   * restored text, and live output overwrites it. A terminal that cannot resize gets it as is.
   */
  private writeScrollback(sb: PaneScrollback): void {
    const own = this.terminal.currentSize?.()
    if (!this.terminal.resize || !own || (own.cols === sb.cols && own.rows === sb.rows)) {
      this.write(sb.data)
      return
    }
    this.terminal.resize({ cols: sb.cols, rows: sb.rows })
    // xterm runs this once the scrollback is parsed, before it parses the live chunks written next
    this.write(sb.data, () => {
      if (this.isDisposed) return
      const fitted = this.terminal.fit()
      if (!fitted) this.terminal.resize?.(own)
      else if (this.visible) this.size.note(fitted)
    })
  }

  /** Writes to the terminal, counting the write as unparsed until xterm has parsed it (`done` runs then). */
  private write(data: string, done?: () => void): void {
    this.unparsedWrites++
    this.terminal.write(data, () => {
      this.unparsedWrites--
      done?.()
    })
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
    // given up until shown (chunks sent before main read the mute): the scrollback will have it
    if (this.restoreOnShow) return this.deps.source.ack?.(this.agentId, chunk.chunk)
    if (chunk.chunk <= this.lastChunk) return
    if (chunk.chunk > this.lastChunk + 1 && this.lastChunk > 0) {
      if (!this.visible) return this.restoreOnShowInstead(chunk.chunk)
      this.held = [chunk]
      this.restore()
      return
    }
    this.lastChunk = chunk.chunk
    if (!this.visible) return this.hold(chunk)
    this.queued.push(chunk)
    this.writes.request(this)
  }

  /** Holds a chunk while off screen (acknowledged at once: main may count it as delivered); past the limit, restores on show instead. */
  private hold(chunk: PaneChunk): void {
    this.deps.source.ack?.(this.agentId, chunk.chunk)
    if (this.restoreOnShow) return
    if (this.offscreen.push(chunk.data)) this.restoreOnShowInstead()
  }

  /**
   * Gives up on bringing the off-screen pane up to date: what it held is dropped, a restore in
   * flight is forgotten (with the chunks it held), and the show restores from the scrollback
   * instead. Until then the pane's output need not cross the wire: it mutes. Every chunk dropped
   * is acknowledged, up to `ack` when given (one that arrived after a gap).
   */
  private restoreOnShowInstead(ack?: number): void {
    this.generation++
    const dropped = (this.held ?? []).reduce((n, c) => Math.max(n, c.chunk), ack ?? 0)
    if (dropped > 0) this.deps.source.ack?.(this.agentId, dropped)
    this.held = undefined
    this.dropQueued()
    this.offscreen.clear()
    this.restoreOnShow = true
    this.registration.setMuted(true)
  }

  /** Forgets the live output waiting for a turn, and the turn. */
  private dropQueued(): void {
    this.queued = []
    this.writes.cancel(this)
  }

  /** Writes what was held off screen, or restores from scrollback when too much was. */
  private catchUp(): void {
    if (this.restoreOnShow) {
      this.restore()
      return
    }
    if (this.offscreen.isEmpty) return
    this.write(this.offscreen.take())
  }

  private scheduleFit(): void {
    if (this.fitTimer !== undefined) clearTimeout(this.fitTimer)
    this.fitTimer = setTimeout(() => {
      this.fitTimer = undefined
      this.fit()
    }, this.fitDebounceMs)
  }
}
