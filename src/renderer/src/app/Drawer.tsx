import { useState } from 'react'
import { ClaudeTeamsPanel } from '../features/claudeTeams/ClaudeTeamsPanel'
import { MailboxInspector } from '../features/mailbox/MailboxInspector'
import { PendingCountBadge, PermissionQueue } from '../features/permissions/PermissionQueue'
import { TaskBoard } from '../features/tasks/TaskBoard'
import { loadDrawerTab, saveDrawerTab, type DrawerTab } from './layoutMemory'

const TABS: ReadonlyArray<{ id: DrawerTab; label: string }> = [
  { id: 'permissions', label: 'Permissions' },
  { id: 'mailbox', label: 'Mailbox' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'claude', label: 'Claude Code' }
]

/**
 * The right-hand drawer (docs/ui.md#the-workspace-ui): the permission queue, with its count badge on the tab, the
 * mailbox inspector, the task board, and Claude Code's own teams (docs/claude-code-teams.md). All stay mounted when hidden — the queue's keyboard shortcuts keep
 * working and the inspector keeps its scroll — and the open tab is remembered per workspace.
 */
export function Drawer({ cwd }: { cwd: string }) {
  const [tab, setTab] = useState<DrawerTab>(() => loadDrawerTab(cwd))
  const choose = (next: DrawerTab): void => {
    setTab(next)
    saveDrawerTab(cwd, next)
  }
  return (
    <div className="drawer">
      <div className="drawer-tabs" role="tablist" aria-label="Side drawer">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`drawer-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`drawer-panel-${t.id}`}
            className={`drawer-tab${tab === t.id ? ' active' : ''}`}
            onClick={() => choose(t.id)}
          >
            {t.label}
            {t.id === 'permissions' ? <PendingCountBadge /> : null}
          </button>
        ))}
      </div>
      {TABS.map((t) => (
        <div
          key={t.id}
          role="tabpanel"
          id={`drawer-panel-${t.id}`}
          aria-labelledby={`drawer-tab-${t.id}`}
          className="drawer-panel"
          hidden={tab !== t.id}
        >
          {t.id === 'permissions' ? (
            <PermissionQueue />
          ) : t.id === 'mailbox' ? (
            <MailboxInspector />
          ) : t.id === 'tasks' ? (
            <TaskBoard />
          ) : (
            <ClaudeTeamsPanel active={tab === 'claude'} />
          )}
        </div>
      ))}
    </div>
  )
}
