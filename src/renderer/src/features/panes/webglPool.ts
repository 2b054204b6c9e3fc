import { storedRendererPreference, webglBudget } from './gpu'

/**
 * At most this many panes hold a WebGL context at once. Chromium drops the oldest context past 16
 * per page (STACK.md, "xterm in headless Chromium"); 12 leaves room for anything else on the page.
 */
export const MAX_WEBGL_CONTEXTS = 12

/** A pane that may hold a WebGL context: told to give it up when it is the least recently used. */
export interface WebglHolder {
  /** Drop the WebGL renderer and fall back to the DOM renderer. Must not call back into the pool. */
  releaseWebgl(): void
  /**
   * A context freed up for this pane, which lost its own to eviction while on screen: switch back
   * to WebGL (it holds the context already). A pane that cannot use it calls {@link WebglContextPool.release}.
   */
  regainWebgl?(): void
}

/**
 * A least-recently-used budget of WebGL contexts for terminal panes (issue 7: "WebGL only for
 * visible panes with a DOM fallback and at most 12 WebGL contexts alive"). A visible pane asks
 * {@link acquire}; when the budget is spent, the holder used longest ago is told to release its
 * context first. A pane that scrolls out of view or is disposed calls {@link release}. Iteration
 * order of the Map is the recency order (oldest first): {@link touch} re-inserts.
 *
 * An evicted pane is still on screen and waits for a context: when a holder releases its own
 * (hidden, disposed, lost), the pane evicted last gets it back (`regainWebgl`), so hiding panes
 * brings the remaining visible ones back to WebGL instead of leaving them on the DOM renderer.
 */
export class WebglContextPool {
  private readonly holders = new Map<WebglHolder, true>()
  /** Evicted panes waiting for a context, in eviction order. */
  private readonly waiting = new Set<WebglHolder>()

  constructor(readonly capacity: number = MAX_WEBGL_CONTEXTS) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new RangeError(`capacity must be a non-negative integer, got ${capacity}`)
  }

  /**
   * Grants `holder` a context, evicting the least recently used holders past the capacity.
   * @returns false only when the capacity is 0.
   */
  acquire(holder: WebglHolder): boolean {
    if (this.capacity === 0) return false
    this.waiting.delete(holder)
    if (this.holders.has(holder)) {
      this.touch(holder)
      return true
    }
    while (this.holders.size >= this.capacity) {
      const oldest = this.holders.keys().next().value as WebglHolder
      this.holders.delete(oldest)
      if (oldest.regainWebgl) this.waiting.add(oldest)
      oldest.releaseWebgl()
    }
    this.holders.set(holder, true)
    return true
  }

  /** Marks a holder as just used (it output something, or was shown). No-op for a non-holder. */
  touch(holder: WebglHolder): void {
    if (!this.holders.delete(holder)) return
    this.holders.set(holder, true)
  }

  /**
   * Forgets a holder, and a waiting pane (it released its context itself, or no longer wants one:
   * hidden, lost the context, disposed). A freed context goes to the pane evicted last.
   */
  release(holder: WebglHolder): void {
    this.waiting.delete(holder)
    if (!this.holders.delete(holder)) return
    const next = [...this.waiting].pop()
    if (!next || this.holders.size >= this.capacity) return
    this.waiting.delete(next)
    this.holders.set(next, true)
    next.regainWebgl?.()
  }

  /** Panes waiting for a context now. */
  get waitingCount(): number {
    return this.waiting.size
  }

  /** Whether `holder` holds a context now. */
  holds(holder: WebglHolder): boolean {
    return this.holders.has(holder)
  }

  /** Contexts held now. */
  get size(): number {
    return this.holders.size
  }
}

/**
 * The app's pool, shared by every pane: {@link MAX_WEBGL_CONTEXTS} contexts, or none where WebGL
 * runs in software or the person chose the DOM renderer (see gpu.ts). Decided once, when the page loads.
 */
export const webglPool = new WebglContextPool(webglBudget(storedRendererPreference(), MAX_WEBGL_CONTEXTS))
