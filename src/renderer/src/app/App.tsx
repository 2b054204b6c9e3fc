import { useCallback, useEffect, useState } from 'react'
import { Group, Panel, Separator, usePanelRef, type Layout } from 'react-resizable-panels'
import { Dashboard } from '../features/dashboard/Dashboard'
import { PaneGrid } from '../features/panes/PaneGrid'
import { PromptBox } from '../features/prompt/PromptBox'
import { ConnectionBanner } from '../features/status/ConnectionBanner'
import { StatusBar } from '../features/status/StatusBar'
import { TopBar } from '../features/topbar/TopBar'
import { SettingsDialog } from '../features/settings/SettingsDialog'
import { NoApiKeyBanner } from '../features/settings/NoApiKeyBanner'
import { pageStorage } from '../store/localMemory'
import { bindPaneMemory } from '../store/paneMemory'
import { appStore, useAppStore } from '../store/store'
import './app.css'
import { Drawer } from './Drawer'
import { loadLayout, saveLayout } from './layoutMemory'

/** Panel ids of the workspace's columns; the saved layout is keyed by them. */
const DASHBOARD = 'dashboard'
const CENTER = 'center'
const DRAWER = 'drawer'

/**
 * The workspace's three resizable columns (docs/ui.md#the-workspace-ui): the team dashboard, the pane grid with the
 * prompt box under it, and the drawer. Each side panel collapses (drag it shut, or the top bar's
 * toggles); sizes and open state are remembered per workspace (layoutMemory.ts). A closed
 * panel's content stays mounted (the permission shortcuts, the inspector's scroll) but hidden, so
 * nothing in it takes focus.
 */
function Workspace({ cwd }: { cwd: string }) {
  const dashboardRef = usePanelRef()
  const drawerRef = usePanelRef()
  const [saved] = useState(() => loadLayout(cwd))
  const [open, setOpen] = useState(() => ({
    dashboard: (saved?.[DASHBOARD] ?? 1) > 0,
    drawer: (saved?.[DRAWER] ?? 1) > 0
  }))
  const onLayoutChanged = useCallback(
    (layout: Layout) => {
      saveLayout(cwd, layout)
      setOpen({ dashboard: (layout[DASHBOARD] ?? 0) > 0, drawer: (layout[DRAWER] ?? 0) > 0 })
    },
    [cwd]
  )
  const toggle = (ref: typeof dashboardRef) => () => {
    const panel = ref.current
    if (!panel) return
    if (panel.isCollapsed()) panel.expand()
    else panel.collapse()
  }
  return (
    <>
      <TopBar
        panels={{
          dashboardOpen: open.dashboard,
          drawerOpen: open.drawer,
          toggleDashboard: toggle(dashboardRef),
          toggleDrawer: toggle(drawerRef)
        }}
      />
      <SettingsDialog />
      <Group
        className="workspace"
        orientation="horizontal"
        id="swarmdesk-workspace"
        {...(saved ? { defaultLayout: saved } : {})}
        onLayoutChanged={onLayoutChanged}
      >
        <Panel
          id={DASHBOARD}
          panelRef={dashboardRef}
          defaultSize="22%"
          minSize="220px"
          maxSize="45%"
          collapsible
          collapsedSize={0}
          className="side-panel"
        >
          <div className="side-content" hidden={!open.dashboard}>
            <Dashboard />
          </div>
        </Panel>
        <Separator className="resize-handle" aria-label="Resize the team dashboard" />
        <Panel id={CENTER} minSize="30%" className="center-panel">
          <div className="main-column">
            <NoApiKeyBanner />
            <PaneGrid />
            <PromptBox />
          </div>
        </Panel>
        <Separator className="resize-handle" aria-label="Resize the side drawer" />
        <Panel
          id={DRAWER}
          panelRef={drawerRef}
          defaultSize="24%"
          minSize="260px"
          maxSize="50%"
          collapsible
          collapsedSize={0}
          className="side-panel"
        >
          <div className="side-content" hidden={!open.drawer}>
            <Drawer cwd={cwd} />
          </div>
        </Panel>
      </Group>
    </>
  )
}

/**
 * The workspace window (docs/ui.md#the-workspace-ui): the top bar, then the dashboard, the panes with the prompt and
 * the drawer, and the status bar. The columns appear once the first snapshot names the workspace,
 * so its remembered layout is the one used from the first frame; the pane grid's remembered
 * choices are applied to the store in that same update (paneMemory.ts), bound here for the app's
 * lifetime.
 */
export function App() {
  const cwd = useAppStore((s) => s.workspace.cwd)
  useEffect(() => {
    const memory = bindPaneMemory(appStore, pageStorage())
    return () => memory.dispose()
  }, [])
  return (
    <div className="app">
      <ConnectionBanner />
      {cwd ? (
        <Workspace cwd={cwd} />
      ) : (
        <>
          <header className="app-bar">
            <span className="brand">Swarmdesk</span>
          </header>
          <main className="workspace workspace-loading">
            <p className="muted">Connecting to the workspace…</p>
          </main>
        </>
      )}
      <StatusBar />
    </div>
  )
}
