import type { StoreApi } from 'zustand/vanilla'
import { toDisposable, type Disposable } from '../../lib/lifecycle'
import { appStore, type AppState } from '../../store/store'

/**
 * The `paneScrollbackLines` setting as a pane follows it: how many lines of scrollback its
 * terminal keeps in the page now, and each change (a snapshot, a save in Settings), so open panes
 * follow at once (SETTING_TAKES_EFFECT: `now`).
 */
export interface PaneScrollbackSetting {
  /** Lines of scrollback now (100–100,000). */
  readonly lines: number
  /** Calls `listener` with the new number of lines after each change; dispose to stop. */
  onDidChange(listener: (lines: number) => void): Disposable
}

/** The setting as the panes slice of `store` holds it (`panes.scrollbackLines`). */
export function scrollbackSettingOf(store: StoreApi<AppState>): PaneScrollbackSetting {
  return {
    get lines() {
      return store.getState().panes.scrollbackLines
    },
    onDidChange(listener) {
      return toDisposable(
        store.subscribe((s, prev) => {
          if (s.panes.scrollbackLines !== prev.panes.scrollbackLines) listener(s.panes.scrollbackLines)
        })
      )
    }
  }
}

/** The app's setting, from {@link appStore}: what every {@link AgentPane}'s owner follows. */
export const paneScrollbackSetting: PaneScrollbackSetting = scrollbackSettingOf(appStore)
