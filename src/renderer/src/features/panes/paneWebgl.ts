import type { PaneRendererKind, PaneTerminal } from './terminal'
import type { WebglContextPool, WebglHolder } from './webglPool'

/**
 * One pane's claim on a WebGL renderer (docs/ui.md#the-workspace-ui): a visible pane asks the
 * page's {@link WebglContextPool} for a context and gives it back when it leaves the screen, is
 * evicted by the pool, or is disposed; a lost or unavailable context leaves the pane on the DOM
 * renderer for good. The renderer in use is on the host element as `data-renderer`.
 */
export class PaneWebgl implements WebglHolder {
  private broken = false

  /**
   * @param wanted whether the pane still wants WebGL (on screen, not disposed) when a context frees up.
   */
  constructor(
    private readonly terminal: Pick<PaneTerminal, 'setRenderer'>,
    private readonly host: HTMLElement,
    private readonly pool: WebglContextPool,
    private readonly wanted: () => boolean
  ) {
    host.dataset.renderer = 'dom'
  }

  /** The pane came on screen: WebGL if the pool has a context for it and the terminal can use it. */
  use(): void {
    if (this.broken || !this.terminal.setRenderer) return
    if (!this.pool.acquire(this)) return
    if (this.setRenderer('webgl') !== 'webgl') {
      // WebGL2 missing (or it failed to start): stay on the DOM renderer for good.
      this.broken = true
      this.pool.release(this)
    }
  }

  /** The pane drew: it is the pool's most recently used holder. */
  touch(): void {
    this.pool.touch(this)
  }

  /** The pane left the screen: its context goes back to the pool, the DOM renderer takes over. */
  giveBack(): void {
    this.pool.release(this)
    this.setRenderer('dom')
  }

  /** The pane is disposed (its terminal with it): only the context goes back to the pool. */
  dispose(): void {
    this.pool.release(this)
  }

  /** Called by the pool when another pane needs this one's WebGL context. */
  releaseWebgl(): void {
    this.setRenderer('dom')
  }

  /** Called by the pool when a context freed up for this pane after it was evicted (it holds it already). */
  regainWebgl(): void {
    if (!this.wanted() || this.broken) {
      this.pool.release(this)
      return
    }
    if (this.setRenderer('webgl') !== 'webgl') {
      this.broken = true
      this.pool.release(this)
    }
  }

  private setRenderer(kind: PaneRendererKind): PaneRendererKind {
    const used =
      this.terminal.setRenderer?.(kind, () => {
        this.broken = true
        this.pool.release(this)
        this.host.dataset.renderer = 'dom'
      }) ?? 'dom'
    this.host.dataset.renderer = used
    return used
  }
}
