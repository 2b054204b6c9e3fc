import type { AgentLifetime } from '../../store/workspaceSlice'

/**
 * A duration for a pane header, to the second and compact: `0s`, `42s`, `3m 05s`, `1h 02m`
 * (hours drop the seconds: the header has little room and a long run needs no second precision).
 * Negative durations (clock skew between main and the page) read as `0s`.
 * @param ms milliseconds
 */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const sec = total % 60
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`
  if (m > 0) return `${m}m ${String(sec).padStart(2, '0')}s`
  return `${sec}s`
}

/**
 * How long an agent has run: from its start to its end, or to `now` while it runs; undefined when
 * its start is unknown (an agent known only from a snapshot).
 * @param now ms since the epoch
 */
export function elapsedMs(lifetime: AgentLifetime | undefined, now: number): number | undefined {
  if (!lifetime) return undefined
  return (lifetime.endedAt ?? now) - lifetime.startedAt
}
