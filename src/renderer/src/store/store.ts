import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { createConnectionSlice, type ConnectionSlice } from './connectionSlice'
import { createMailboxSlice, type MailboxSlice } from './mailboxSlice'
import { createDashboardSlice, type DashboardSlice } from './dashboardSlice'
import { createPanesSlice, type PanesSlice } from './panesSlice'
import { createPermissionsSlice, type PermissionsSlice } from './permissionsSlice'
import { createTasksSlice, type TasksSlice } from './tasksSlice'
import { createWorkspaceSlice, type WorkspaceSlice } from './workspaceSlice'

/** The renderer's whole state: one slice per feature (zustand slices pattern). */
export type AppState = WorkspaceSlice &
  PermissionsSlice &
  ConnectionSlice &
  PanesSlice &
  DashboardSlice &
  MailboxSlice &
  TasksSlice

/** A fresh store; the app uses {@link appStore}, tests make their own. */
export function createAppStore(): StoreApi<AppState> {
  return createStore<AppState>()((...a) => ({
    ...createWorkspaceSlice(...a),
    ...createMailboxSlice(...a),
    ...createPermissionsSlice(...a),
    ...createConnectionSlice(...a),
    ...createPanesSlice(...a),
    ...createDashboardSlice(...a),
    ...createTasksSlice(...a)
  }))
}

/** The app's store. Pushes reach it only through {@link actions} (see wiring.ts). */
export const appStore: StoreApi<AppState> = createAppStore()

/** React binding: `useAppStore((s) => s.workspace.mode)`. Select narrowly; derived values via selectors.ts. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(appStore, selector)
}

/**
 * Module-level actions on the app store: the only way IPC pushes and command results enter the
 * state. Components read through {@link useAppStore} and call these or `commands`.
 */
export const actions = {
  // the dashboard follows the same events and snapshots as the workspace (dashboardSlice.ts)
  applyEvent: (...a: Parameters<AppState['applyEvent']>) => {
    const team = appStore.getState().dashboard.team
    appStore.getState().applyEvent(...a)
    appStore.getState().noteDashboardEvent(...a)
    // the task board follows task_updated, and lists again when the session's team changes
    appStore.getState().noteTaskEvent(...a)
    if (appStore.getState().dashboard.team !== team) appStore.getState().wantTaskList()
  },
  loadSnapshot: (...a: Parameters<AppState['loadSnapshot']>) => {
    appStore.getState().loadSnapshot(...a)
    appStore.getState().loadDashboard(...a)
    appStore.getState().loadPaneSettings(...a)
    appStore.getState().wantTaskList()
  },
  beginResync: () => appStore.getState().beginResync(),
  applyMailboxPage: (...a: Parameters<AppState['applyMailboxPage']>) => appStore.getState().applyMailboxPage(...a),
  applyMailboxChange: (...a: Parameters<AppState['applyMailboxChange']>) =>
    appStore.getState().applyMailboxChange(...a),
  setMailboxFilters: (...a: Parameters<AppState['setMailboxFilters']>) => appStore.getState().setMailboxFilters(...a),
  toggleMailboxRaw: (...a: Parameters<AppState['toggleMailboxRaw']>) => appStore.getState().toggleMailboxRaw(...a),
  setMailboxError: (...a: Parameters<AppState['setMailboxError']>) => appStore.getState().setMailboxError(...a),
  setMode: (...a: Parameters<AppState['setMode']>) => appStore.getState().setMode(...a),
  setPromptInFlight: (...a: Parameters<AppState['setPromptInFlight']>) => appStore.getState().setPromptInFlight(...a),
  setOrchestration: (...a: Parameters<AppState['setOrchestration']>) => appStore.getState().setOrchestration(...a),
  setModelAccess: (...a: Parameters<AppState['setModelAccess']>) => appStore.getState().setModelAccess(...a),
  setSandbox: (...a: Parameters<AppState['setSandbox']>) => appStore.getState().setSandbox(...a),
  setTeamTransport: (...a: Parameters<AppState['setTeamTransport']>) => appStore.getState().setTeamTransport(...a),
  setAllowedPaths: (...a: Parameters<AppState['setAllowedPaths']>) => appStore.getState().setAllowedPaths(...a),
  setPermissions: (...a: Parameters<AppState['setPermissions']>) => appStore.getState().setPermissions(...a),
  focusPermission: (...a: Parameters<AppState['focusPermission']>) => appStore.getState().focusPermission(...a),
  beginDeny: (...a: Parameters<AppState['beginDeny']>) => appStore.getState().beginDeny(...a),
  setDenyReason: (...a: Parameters<AppState['setDenyReason']>) => appStore.getState().setDenyReason(...a),
  cancelDeny: () => appStore.getState().cancelDeny(),
  setResponding: (...a: Parameters<AppState['setResponding']>) => appStore.getState().setResponding(...a),
  setPermissionNotice: (...a: Parameters<AppState['setPermissionNotice']>) =>
    appStore.getState().setPermissionNotice(...a),
  setConnection: (...a: Parameters<AppState['setConnection']>) => appStore.getState().setConnection(...a),
  setError: (...a: Parameters<AppState['setError']>) => appStore.getState().setError(...a),
  toggleCollapsed: (...a: Parameters<AppState['toggleCollapsed']>) => appStore.getState().toggleCollapsed(...a),
  setAgentRequest: (...a: Parameters<AppState['setAgentRequest']>) => appStore.getState().setAgentRequest(...a),
  setPaneLayout: (...a: Parameters<AppState['setLayout']>) => appStore.getState().setLayout(...a),
  setBoardOpen: (...a: Parameters<AppState['setBoardOpen']>) => appStore.getState().setBoardOpen(...a),
  hidePane: (...a: Parameters<AppState['hidePane']>) => appStore.getState().hidePane(...a),
  showPane: (...a: Parameters<AppState['showPane']>) => appStore.getState().showPane(...a),
  toggleMaximised: (...a: Parameters<AppState['toggleMaximised']>) => appStore.getState().toggleMaximised(...a),
  movePane: (...a: Parameters<AppState['movePane']>) => appStore.getState().movePane(...a),
  focusPane: (...a: Parameters<AppState['focusPane']>) => appStore.getState().focusPane(...a),
  setPaneScrollback: (...a: Parameters<AppState['setPaneScrollback']>) => appStore.getState().setPaneScrollback(...a),
  setTeam: (...a: Parameters<AppState['setTeam']>) => appStore.getState().setTeam(...a),
  requestFocus: (...a: Parameters<AppState['requestFocus']>) => appStore.getState().requestFocus(...a),
  setMemberAction: (...a: Parameters<AppState['setMemberAction']>) => appStore.getState().setMemberAction(...a),
  setSpawnForm: (...a: Parameters<AppState['setSpawnForm']>) => appStore.getState().setSpawnForm(...a),
  setSpawnOptions: (...a: Parameters<AppState['setSpawnOptions']>) => appStore.getState().setSpawnOptions(...a),
  setSpawnHosts: (...a: Parameters<AppState['setSpawnHosts']>) => appStore.getState().setSpawnHosts(...a),
  setStopAllPending: (...a: Parameters<AppState['setStopAllPending']>) => appStore.getState().setStopAllPending(...a)
}
