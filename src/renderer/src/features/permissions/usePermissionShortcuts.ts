import { useEffect } from 'react'
import { selectActivePermission } from '../../store/selectors'
import { appStore } from '../../store/store'
import { runAction } from './answer'
import { shortcutFor } from './shortcuts'

/**
 * Installs the permission shortcuts (y / a / n) on the window for as long as the calling component
 * is mounted; they act on the active card (focused, else the oldest).
 */
export function usePermissionShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const action = shortcutFor(e)
      if (!action) return
      const active = selectActivePermission(appStore.getState())
      if (!active || appStore.getState().permissions.responding[active.requestId]) return
      e.preventDefault()
      runAction(active, action, 'queue')
    }
    // Capture phase: xterm stops the propagation of keys pressed in a focused pane.
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [])
}
