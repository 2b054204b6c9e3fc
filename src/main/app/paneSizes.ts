import type { TerminalSize } from '../../shared/terminalSize'

/**
 * Most panes whose size is remembered. Far more than a workspace shows (each agent has one
 * pane); the bound only keeps a page that reports sizes for made-up agent ids from growing main's
 * memory. Past it the size reported longest ago is forgotten.
 */
export const MAX_REMEMBERED_PANE_SIZES = 1000

/**
 * The last size each agent's pane reported (`pane.resize`, docs/ui.md#the-workspace-ui), in character cells, kept
 * by the workspace whether or not the agent has a terminal to resize: a `process` teammate starts
 * at its pane's last size (ProcessTeammateExecutorOptions.paneSize). Sizes arrive validated by the
 * contract's schema (src/shared/terminalSize.ts).
 */
export class PaneSizes {
  private readonly sizes = new Map<string, TerminalSize>()

  /** Notes `agentId`'s pane size, forgetting the oldest past {@link MAX_REMEMBERED_PANE_SIZES}. */
  remember(agentId: string, size: TerminalSize): void {
    // re-inserted, so the Map's order is least recently reported first
    this.sizes.delete(agentId)
    this.sizes.set(agentId, { cols: size.cols, rows: size.rows })
    if (this.sizes.size > MAX_REMEMBERED_PANE_SIZES) this.sizes.delete(this.sizes.keys().next().value!)
  }

  /** The pane's last reported size, or undefined when it reported none. */
  get(agentId: string): TerminalSize | undefined {
    const size = this.sizes.get(agentId)
    return size ? { ...size } : undefined
  }

  /** Number of panes remembered. */
  get size(): number {
    return this.sizes.size
  }
}
