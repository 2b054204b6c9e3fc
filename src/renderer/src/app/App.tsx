import { PaneGrid } from '../features/panes/PaneGrid'
import { PermissionQueue } from '../features/permissions/PermissionQueue'
import { PromptBox } from '../features/prompt/PromptBox'
import { StatusBar } from '../features/status/StatusBar'
import { useAppStore } from '../store/store'

/** The workspace window: panes and the prompt in the main column, the permission queue at the side, the status bar below. */
export function App() {
  const cwd = useAppStore((s) => s.workspace.cwd)
  return (
    <div className="app">
      <header className="app-bar">
        <span className="brand">Swarmdesk</span>
        <span className="cwd mono" title={cwd}>
          {cwd}
        </span>
      </header>
      <main className="workspace">
        <div className="main-column">
          <PaneGrid />
          <PromptBox />
        </div>
        <PermissionQueue />
      </main>
      <StatusBar />
    </div>
  )
}
