import type { StateCreator } from 'zustand/vanilla'
import type { PendingPermission } from '../../../shared/ipc'
import type { AppState } from './store'

/** Where a permission card is drawn: pinned to its agent's pane, or in the global queue. */
export type CardPlacement = 'pane' | 'queue'

/**
 * Permission requests waiting for a person (the full list from every `permissions.changed`), and
 * the little UI state around answering them: which card the keyboard acts on, a denial being
 * written, answers on their way.
 */
export interface PermissionsSlice {
  permissions: {
    pending: PendingPermission[]
    /** The card keyboard shortcuts act on; falls back to the first (see selectActivePermission). */
    focusedId: string | undefined
    /** A denial being written: the request, its reason so far, and the card that opened the form. */
    deny: { requestId: string; reason: string; origin: CardPlacement } | undefined
    /** Requests whose answer is on its way (buttons disabled). */
    responding: Record<string, true>
  }
  /** Replaces the pending list; forgets UI state of requests no longer pending. */
  setPermissions(list: PendingPermission[]): void
  focusPermission(requestId: string): void
  beginDeny(requestId: string, origin: CardPlacement): void
  setDenyReason(reason: string): void
  cancelDeny(): void
  setResponding(requestId: string, responding: boolean): void
}

/** Creates the permissions slice (zustand slices pattern). */
export const createPermissionsSlice: StateCreator<AppState, [], [], PermissionsSlice> = (set) => ({
  permissions: { pending: [], focusedId: undefined, deny: undefined, responding: {} },
  setPermissions: (list) =>
    set((s) => {
      const ids = new Set(list.map((p) => p.requestId))
      const p = s.permissions
      const responding: Record<string, true> = {}
      for (const id of Object.keys(p.responding)) if (ids.has(id)) responding[id] = true
      return {
        permissions: {
          pending: list,
          focusedId: p.focusedId !== undefined && ids.has(p.focusedId) ? p.focusedId : undefined,
          deny: p.deny && ids.has(p.deny.requestId) ? p.deny : undefined,
          responding
        }
      }
    }),
  focusPermission: (requestId) => set((s) => ({ permissions: { ...s.permissions, focusedId: requestId } })),
  beginDeny: (requestId, origin) =>
    set((s) => ({ permissions: { ...s.permissions, focusedId: requestId, deny: { requestId, reason: '', origin } } })),
  setDenyReason: (reason) =>
    set((s) => (s.permissions.deny ? { permissions: { ...s.permissions, deny: { ...s.permissions.deny, reason } } } : s)),
  cancelDeny: () => set((s) => ({ permissions: { ...s.permissions, deny: undefined } })),
  setResponding: (requestId, responding) =>
    set((s) => {
      const next = { ...s.permissions.responding }
      if (responding) next[requestId] = true
      else delete next[requestId]
      return { permissions: { ...s.permissions, responding: next } }
    })
})
