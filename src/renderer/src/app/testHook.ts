import type { TerminalSize } from '../../../shared/terminalSize'
import type { PaneRouter } from '../features/panes/paneRouter'

/**
 * What end-to-end tests read from the page (`window.__swarmdeskTest`). Installed always: it only
 * reads state, so it is harmless in a release build.
 */
export interface SwarmdeskTestHook {
  /**
   * The text of an agent's pane: the xterm buffer's lines joined with `\n`, trailing spaces
   * trimmed, soft-wrapped lines joined back, trailing empty lines dropped; '' when the agent has no
   * pane. xterm parses writes asynchronously, so poll for expected text.
   */
  paneText(agentId: string): string
  /** Live subscriptions of pane owners (router registrations), for leak checks: 0 with no panes. */
  paneListeners(): number
  /**
   * The size in character cells an agent's pane last reported to main (`pane.resize`, debounced),
   * or undefined before it reported one (or when the agent has no pane).
   */
  paneSize(agentId: string): TerminalSize | undefined
}

/** Installs the hook on `target` (the window). */
export function installTestHook(target: object, router: PaneRouter): SwarmdeskTestHook {
  const hook: SwarmdeskTestHook = {
    paneText: (agentId) => router.text(agentId),
    paneListeners: () => router.size,
    paneSize: (agentId) => router.reportedSize(agentId)
  }
  Object.defineProperty(target, '__swarmdeskTest', { value: hook, configurable: true, enumerable: false })
  return hook
}
