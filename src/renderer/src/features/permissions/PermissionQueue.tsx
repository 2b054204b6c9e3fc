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
 * The global queue of permission requests and plan approvals (SPEC §11), oldest first, with its
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
          <kbd>{SHORTCUT_KEYS['allow-once']}</kbd> allow · <kbd>{SHORTCUT_KEYS['always-allow']}</kbd> always · <kbd>{SHORTCUT_KEYS.deny}</kbd> deny ·{' '}
          <kbd>{SHORTCUT_KEYS.dismiss}</kbd> back to the oldest
        </p>
      )}
      {pending.map((p) => (
        <PermissionCard key={p.requestId} permission={p} placement="queue" />
      ))}
    </aside>
  )
}

/**
 * The requests of one agent, pinned to its pane (SPEC §11); the same requests as in the queue.
 * Installs the keyboard shortcuts too, so they work while the queue is out of sight.
 */
export function PinnedPermissions({ agentId }: { agentId: string }) {
  usePermissionShortcuts()
  const mine = useAppStore(useShallow((s) => s.permissions.pending.filter((p) => p.agentId === agentId)))
  if (mine.length === 0) return null
  return (
    <div className="perm-pinned">
      {mine.map((p) => (
        <PermissionCard key={p.requestId} permission={p} placement="pane" />
      ))}
    </div>
  )
}
