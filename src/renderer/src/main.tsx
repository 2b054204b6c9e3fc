import '@xterm/xterm/css/xterm.css'
import './styles/app.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createWorkspaceClient } from './api/client'
import { App } from './app/App'
import { installTestHook } from './app/testHook'
import { paneRouter } from './features/panes/paneRouter'
import { domNotifier, notifyClaudeWaiting, notifyNewPermissions } from './features/permissions/notify'
import { actions, appStore } from './store/store'
import { wireClient } from './store/wiring'

const client = createWorkspaceClient()
wireClient(client, actions, paneRouter)
installTestHook(window, paneRouter)
notifyNewPermissions(appStore, domNotifier(), () => document.hasFocus())
notifyClaudeWaiting(appStore, domNotifier(), () => document.hasFocus())

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root')
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>
)
