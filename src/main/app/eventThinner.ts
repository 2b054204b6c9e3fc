/**
 * Least time between two terminal-output events of one agent that the service pushes (ms). The
 * UI takes from them only that the agent is active (the dashboard's last event, docs/ui.md#the-workspace-ui, which
 * marks an agent stuck after minutes), so one a second is plenty.
 */
export const TERMINAL_EVENT_INTERVAL_MS = 1_000

/** Runtime events that carry terminal output whose bytes also reach the pane as `pane.data`. */
const TERMINAL_OUTPUT_TYPES = new Set(['tool_output', 'terminal_output'])

/**
 * Keeps bulk terminal output out of the workspace service's `runtime.event` pushes (issue 7). Every
 * byte a PTY prints reaches its pane as `pane.data`, flow-controlled by acknowledgements; the
 * runtime also emits it as `tool_output` (a command's PTY) or `terminal_output` (a process
 * teammate's terminal) events, which nothing holds back. Pushed as they are, 16 busy panes sent
 * every byte twice, the second copy unthrottled, and each event costs the page a store update.
 * The service thins before it pushes, so neither transport (the web host's bridge, the app's IPC)
 * sees the rest, and the push contract's check runs on one event a second instead of every PTY
 * read (at 16 × 200 KB/s, ~1,600 events a second: 4% of the runtime's core).
 *
 * `thin` passes every other event untouched. Of an agent's terminal-output events it passes the
 * first, then at most one per {@link TERMINAL_EVENT_INTERVAL_MS}, each with `data` emptied
 * (`seq` keeps its place: consumers skip numbers freely); the rest are not pushed.
 */
export class TerminalEventThinner {
  private readonly lastPassed = new Map<string, number>()

  /**
   * @param intervalMs see {@link TERMINAL_EVENT_INTERVAL_MS}
   * @param now monotonic clock, ms
   */
  constructor(
    private readonly intervalMs = TERMINAL_EVENT_INTERVAL_MS,
    private readonly now: () => number = () => performance.now()
  ) {}

  /** The event to push in place of `event`, or undefined to push nothing. */
  thin<E extends { type: string; agentId?: string }>(event: E): E | undefined {
    const { type, agentId } = event
    if (!TERMINAL_OUTPUT_TYPES.has(type) || typeof agentId !== 'string') return event
    const now = this.now()
    const last = this.lastPassed.get(agentId)
    if (last !== undefined && now - last < this.intervalMs) return undefined
    this.lastPassed.set(agentId, now)
    return { ...event, data: '' }
  }
}
