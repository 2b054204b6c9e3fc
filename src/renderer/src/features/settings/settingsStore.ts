import { createStore } from 'zustand/vanilla'
import { useStore } from 'zustand'
import type {
  ApiKeyStatus,
  SettingsChanged,
  SettingsEffective,
  SettingsPatch,
  SettingsView
} from '../../../../shared/settings'
import { connectedApi } from '../../store/commands'
import { DEFAULT_PANE_SCROLLBACK_LINES } from '../../../../shared/paneScrollback'
import { actions, appStore } from '../../store/store'
import { DEFAULT_STUCK_AFTER_MINUTES } from '../../store/dashboardSlice'
import { errorText } from '../../lib/errorText'

/**
 * The Settings view's state (docs/ui.md#the-workspace-ui). Its own small vanilla store rather than a slice of the app
 * store: nothing else reads it, and it lives only while the dialog is open. Every change goes to
 * main as a typed request (src/shared/ipc/ `settings.*`); main validates it and answers with the
 * view as it now stands, or refuses with a message shown here — the renderer never writes a file.
 */
export interface SettingsState {
  open: boolean
  view: SettingsView | undefined
  /** A request is in flight. */
  busy: boolean
  /** main's refusal of the last request, shown in the view; cleared by the next request. */
  error: string | undefined
  /** What the last successful request did, for the person. */
  notice: string | undefined
  /**
   * Why main's last settings reload was refused (a settings file that does not load), naming the
   * file and what to fix; main keeps its previous settings meanwhile (docs/permissions.md#reloading-while-it-runs).
   */
  reloadProblem: string | undefined
}

export const settingsStore = createStore<SettingsState>(() => ({
  open: false,
  view: undefined,
  busy: false,
  error: undefined,
  notice: undefined,
  reloadProblem: undefined
}))

/** React hook over {@link settingsStore}. */
export function useSettings<T>(select: (s: SettingsState) => T): T {
  return useStore(settingsStore, select)
}

/** Runs one request; its answer (a view) replaces the shown one, its refusal is shown. Resolves true when main accepted it. */
async function run(work: () => Promise<SettingsView | undefined>, notice: string): Promise<boolean> {
  settingsStore.setState({ busy: true, error: undefined, notice: undefined })
  try {
    const view = await work()
    settingsStore.setState((s) => ({
      busy: false,
      notice,
      view: view ?? s.view,
      reloadProblem: view ? view.reloadProblem : s.reloadProblem
    }))
    return true
  } catch (err) {
    settingsStore.setState({ busy: false, error: errorText(err) })
    return false
  }
}

/** The requests of the Settings view. */
export const settingsCommands = {
  /** Opens the view and loads it from main. */
  async open(): Promise<void> {
    settingsStore.setState({ open: true, error: undefined, notice: undefined })
    await run(() => connectedApi().request('settings.get', {}), '')
    settingsStore.setState({ notice: undefined })
  },
  close(): void {
    settingsStore.setState({ open: false, error: undefined, notice: undefined })
  },
  /**
   * Saves `patch` to the user settings file; the stuck threshold also applies to the dashboard at
   * once, and the panes' scrollback length to every open pane: the values main says apply now
   * (`effective`: a project or local settings file outranks the user file), else the user file's.
   */
  async save(patch: SettingsPatch): Promise<boolean> {
    if (Object.keys(patch).length === 0) {
      settingsStore.setState({ notice: 'Nothing changed.', error: undefined })
      return true
    }
    const ok = await run(() => connectedApi().request('settings.update', { values: patch }), 'Saved.')
    if (ok) applyEffective()
    if (ok) settingsStore.setState({ notice: `Saved to ${settingsStore.getState().view?.file ?? 'settings.json'}.` })
    return ok
  },
  /** Grants or revokes trust of the workspace (the project's settings then count, or stop counting). */
  async trust(trusted: boolean): Promise<boolean> {
    const ok = await run(
      () => connectedApi().request('settings.trust', { trusted }),
      trusted
        ? 'This workspace is trusted: its hooks run from now on.'
        : 'Trust revoked: the project’s hooks no longer run.'
    )
    if (ok) applyEffective()
    return ok
  },
  /** Stores the API key in the keychain (the app only); the answer holds its status, never the key. */
  setApiKey(apiKey: string, acceptUnencrypted: boolean): Promise<boolean> {
    return run(
      async () =>
        withKey(
          await connectedApi().request('settings.setApiKey', {
            apiKey,
            ...(acceptUnencrypted ? { acceptUnencrypted } : {})
          })
        ),
      'API key stored; the leader uses it from now on.'
    )
  },
  /** Uses a key for this run only (the web host): main keeps it in memory; the answer holds its status, never the key. */
  setRunApiKey(apiKey: string): Promise<boolean> {
    return run(
      async () => withKey(await connectedApi().request('settings.setRunApiKey', { apiKey })),
      'API key set for this run: the leader uses it from now on. It is kept in memory only and is gone when `swarmdesk serve` stops.'
    )
  },
  clearApiKey(): Promise<boolean> {
    return run(async () => withKey(await connectedApi().request('settings.clearApiKey', {})), 'Stored API key removed.')
  }
}

/**
 * Follows a settings reload in main (`settings.changed`: a settings file edited by hand, or a save
 * or trust change of any window; docs/permissions.md#reloading-while-it-runs): the page takes the
 * values that apply now, the refusal (if any) is kept to show, and an open dialog reloads its view.
 * The dialog's draft starts again only when the user file's values changed (its effect compares
 * them by reference: equal values keep the shown ones).
 */
export async function followSettingsChange(change: SettingsChanged): Promise<void> {
  settingsStore.setState({ reloadProblem: change.reloadProblem })
  applyEffective(change.effective)
  if (!settingsStore.getState().open || settingsStore.getState().busy) return
  try {
    const next = await connectedApi().request('settings.get', {})
    const shown = settingsStore.getState().view
    const values = shown && JSON.stringify(shown.values) === JSON.stringify(next.values) ? shown.values : next.values
    settingsStore.setState({ view: { ...next, values }, reloadProblem: next.reloadProblem, error: undefined })
  } catch (err) {
    settingsStore.setState({ error: errorText(err) })
  }
}

/**
 * Applies the settings the page uses itself from the view main answered: the stuck threshold to
 * the dashboard, the scrollback length to every open pane, the sandbox to the panes' mark, the
 * teammate hosts to the spawn form. The values that apply now when main
 * sends them (`effective`, or `pushed` from a `settings.changed`), else the user file's, else the defaults.
 */
function applyEffective(pushed?: SettingsEffective): void {
  const shown = settingsStore.getState().view
  const view = pushed ? { effective: pushed, values: shown?.values ?? {} } : shown
  const stuck = view?.effective?.stuckAfterMinutes ?? view?.values.stuckAfterMinutes ?? DEFAULT_STUCK_AFTER_MINUTES
  if (appStore.getState().dashboard.stuckAfterMinutes !== stuck)
    appStore.setState((s) => ({ dashboard: { ...s.dashboard, stuckAfterMinutes: stuck } }))
  actions.setPaneScrollback(
    view?.effective?.paneScrollbackLines ?? view?.values.paneScrollbackLines ?? DEFAULT_PANE_SCROLLBACK_LINES
  )
  // the panes' "sandboxed" mark follows a sandbox switched on or off here
  if (view?.effective?.sandbox) actions.setSandbox(view.effective.sandbox)
  // the spawn form's hosts follow the teammateHosts setting (docs/hosts.md#in-the-ui)
  const hosts = view?.effective?.teammateHosts
  if (hosts) actions.setSpawnHosts(hosts)
}

/** The shown view with a new key status. */
function withKey(apiKey: ApiKeyStatus): SettingsView | undefined {
  const view = settingsStore.getState().view
  return view ? { ...view, apiKey } : undefined
}
