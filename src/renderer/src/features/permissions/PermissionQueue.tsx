import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from '../../store/store'
import { PermissionCard } from './PermissionCard'
import { usePermissionShortcuts } from './usePermissionShortcuts'

/** The global queue of permission requests, oldest first; owns the keyboard shortcuts. */
export function PermissionQueue() {
  usePermissionShortcuts()
  const pending = useAppStore((s) => s.permissions.pending)
  return (
    <aside className="perm-queue" aria-label="Permission requests">
      <h2 className="side-title">
        Permission requests {pending.length > 0 ? <span className="count">{pending.length}</span> : null}
      </h2>
      {pending.length === 0 ? <p className="empty">Nothing waiting.</p> : null}
      {pending.map((p) => (
        <PermissionCard key={p.requestId} permission={p} placement="queue" />
      ))}
    </aside>
  )
}

/** The requests of one agent, pinned to its pane. */
export function PinnedPermissions({ agentId }: { agentId: string }) {
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
