import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from '../../store/store'
import { PermissionCard } from './PermissionCard'
import { SHORTCUT_KEYS } from './shortcuts'
import { usePendingCount } from './usePendingCount'
import { usePermissionShortcuts } from './usePermissionShortcuts'

/**
 * The number of waiting requests as a badge (nothing when none), for the queue's title and the
 * drawer tab: `span.count[data-testid=perm-count]`, labelled for screen readers.
 */
export function PendingCountBadge() {
  const count = usePendingCount()
  if (count === 0) return null
  return (
    <span className="count" data-testid="perm-count" aria-label={`${count} waiting`}>
      {count}
    </span>
  )
}

/**
 * The global queue of permission requests and plan approvals (docs/ui.md#the-workspace-ui), oldest first, with its
 * count badge and a reminder of the keys. Installs the keyboard shortcuts while mounted.
 */
export function PermissionQueue() {
  usePermissionShortcuts()
  const pending = useAppStore((s) => s.permissions.pending)
  return (
    <aside className="perm-queue" aria-label="Permission requests">
      <h2 className="side-title">
        Permission requests <PendingCountBadge />
      </h2>
      {pending.length === 0 ? (
        <p className="empty">Nothing waiting.</p>
      ) : (
        <p className="perm-keys">
          <kbd>{SHORTCUT_KEYS['allow-once']}</kbd> allow · <kbd>{SHORTCUT_KEYS['always-allow']}</kbd> always ·{' '}
          <kbd>{SHORTCUT_KEYS.deny}</kbd> deny · <kbd>{SHORTCUT_KEYS.previous}</kbd>
          <kbd>{SHORTCUT_KEYS.next}</kbd> move · <kbd>{SHORTCUT_KEYS.dismiss}</kbd> back to the oldest
        </p>
      )}
      {pending.map((p) => (
        <PermissionCard key={p.requestId} permission={p} placement="queue" />
      ))}
    </aside>
  )
}

/**
 * The requests of one agent, pinned to its pane (docs/ui.md#the-workspace-ui; the same requests as in the queue), as
 * one compact bar that never covers the terminal: the pane's terminal ends above it
 * (`--pinned-height` on the pane body). The bar holds the oldest request as a compact card — who
 * asks, one line of what it would do, the answers — and, when there are more, their count;
 * "Show all" expands every card in full over the terminal, on demand, and "Collapse" folds them
 * back. Installs the keyboard shortcuts too, so they work while the queue is out of sight.
 */
export function PinnedPermissions({ agentId }: { agentId: string }) {
  usePermissionShortcuts()
  const mine = useAppStore(useShallow((s) => s.permissions.pending.filter((p) => p.agentId === agentId)))
  const [expanded, setExpanded] = useState(false)
  const bar = useRef<HTMLDivElement>(null)
  const first = mine[0]
  useLayoutEffect(() => {
    const el = bar.current
    const body = el?.parentElement
    if (!el || !body) return
    const reserve = (): void => body.style.setProperty('--pinned-height', `${el.offsetHeight + 6}px`)
    reserve()
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(reserve)
    observer?.observe(el)
    return () => {
      observer?.disconnect()
      body.style.removeProperty('--pinned-height')
    }
  }, [first?.requestId, expanded])
  useEffect(() => {
    if (mine.length === 0) setExpanded(false)
  }, [mine.length])
  if (!first) return null
  const more = mine.length - 1
  if (expanded) {
    return (
      <div className="perm-pinned perm-pinned-expanded" data-testid="perm-pinned">
        <div className="perm-pinned-bar">
          <span className="perm-pinned-count" data-testid="perm-pinned-count">
            {mine.length} waiting
          </span>
          <button type="button" className="link-button" aria-expanded={true} onClick={() => setExpanded(false)}>
            Collapse
          </button>
        </div>
        {mine.map((p) => (
          <PermissionCard key={p.requestId} permission={p} placement="pane" />
        ))}
      </div>
    )
  }
  return (
    <div className="perm-pinned perm-pinned-compact" data-testid="perm-pinned" ref={bar}>
      <PermissionCard permission={first} placement="pane" compact />
      <div className="perm-pinned-more">
        {more > 0 ? (
          <span className="perm-pinned-count" data-testid="perm-pinned-count">
            +{more} more waiting
          </span>
        ) : null}
        <button type="button" className="link-button" aria-expanded={false} onClick={() => setExpanded(true)}>
          {more > 0 ? 'Show all' : 'Details'}
        </button>
      </div>
    </div>
  )
}
