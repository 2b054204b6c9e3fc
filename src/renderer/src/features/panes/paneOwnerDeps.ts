import type { PaneSource } from './paneRouter'
import type { PaneScrollbackSetting } from './scrollbackSetting'
import type { PaneTerminalFactory } from './terminal'
import type { WebglContextPool } from './webglPool'
import type { PaneWriteScheduler } from './writeScheduler'

/** What a `PaneOwner` needs besides its element; the defaults are the real ones. */
export interface PaneOwnerDeps {
  source: PaneSource
  createTerminal?: PaneTerminalFactory
  /** Defaults to the global `ResizeObserver` (absent: no automatic fit). */
  ResizeObserver?: typeof ResizeObserver
  /** Quiet time before a resize refits the terminal. Default 50 ms. */
  fitDebounceMs?: number
  /** Where WebGL contexts come from; default the page's pool of 12. */
  webgl?: WebglContextPool
  /** Whether the pane starts on screen (an IntersectionObserver updates it). Default true. */
  visible?: boolean
  /** Quiet time before a changed size is reported to main; default `SIZE_REPORT_DEBOUNCE_MS` (sizeReport.ts). */
  sizeReportDebounceMs?: number
  /** When live output goes into the terminal; default the page's `paneWriteScheduler`. */
  writes?: Pick<PaneWriteScheduler, 'request' | 'cancel'>
  /**
   * Lines of scrollback the terminal keeps (the `paneScrollbackLines` setting): the terminal is
   * created with its current value and follows each change until the owner is disposed. Default
   * `DEFAULT_PANE_SCROLLBACK_LINES`, fixed.
   */
  scrollback?: PaneScrollbackSetting
}
