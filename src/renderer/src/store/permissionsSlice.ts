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
    /** Which of the focused request's two cards was clicked: where `D` opens the reason field. */
    focusedPlacement?: CardPlacement | undefined
    /** A denial being written: the request, its reason so far, and the card that opened the form. */
    deny: { requestId: string; reason: string; origin: CardPlacement } | undefined
    /** Requests whose answer is on its way (buttons disabled). */
    responding: Record<string, true>
    /** A word for the person on one request's cards (e.g. why Shift+A did nothing), until the next key or answer. */
    notice?: { requestId: string; text: string } | undefined
  }
  /** Replaces the pending list; forgets UI state of requests no longer pending. */
  setPermissions(list: PendingPermission[]): void
  /**
   * Makes a card the one the keyboard acts on (`placement`: which of its two cards the person
   * used); `undefined` lets go, so the keys act on the oldest again (Esc).
   */
  focusPermission(requestId: string | undefined, placement?: CardPlacement): void
  beginDeny(requestId: string, origin: CardPlacement): void
  setDenyReason(reason: string): void
  cancelDeny(): void
  setResponding(requestId: string, responding: boolean): void
  /** Shows `text` on the request's cards; `undefined` clears it. */
  setPermissionNotice(requestId: string | undefined, text?: string): void
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
      const keepFocus = p.focusedId !== undefined && ids.has(p.focusedId)
      return {
        permissions: {
          pending: list,
          focusedId: keepFocus ? p.focusedId : undefined,
          focusedPlacement: keepFocus ? p.focusedPlacement : undefined,
          deny: p.deny && ids.has(p.deny.requestId) ? p.deny : undefined,
          responding,
          notice: p.notice && ids.has(p.notice.requestId) ? p.notice : undefined
        }
      }
    }),
  focusPermission: (requestId, placement) =>
    set((s) => ({
      permissions: {
        ...s.permissions,
        focusedId: requestId,
        focusedPlacement: requestId === undefined ? undefined : placement
      }
    })),
  beginDeny: (requestId, origin) =>
    set((s) => ({
      permissions: {
        ...s.permissions,
        focusedId: requestId,
        focusedPlacement: origin,
        deny: { requestId, reason: '', origin }
      }
    })),
  setDenyReason: (reason) =>
    set((s) =>
      s.permissions.deny ? { permissions: { ...s.permissions, deny: { ...s.permissions.deny, reason } } } : s
    ),
  cancelDeny: () => set((s) => ({ permissions: { ...s.permissions, deny: undefined } })),
  setPermissionNotice: (requestId, text) =>
    set((s) => ({
      permissions: { ...s.permissions, notice: requestId !== undefined && text ? { requestId, text } : undefined }
    })),
  setResponding: (requestId, responding) =>
    set((s) => {
      const next = { ...s.permissions.responding }
      if (responding) next[requestId] = true
      else delete next[requestId]
      return { permissions: { ...s.permissions, responding: next } }
    })
})

/**
 * How many requests wait for a person (docs/ui.md#the-workspace-ui permission queue): the count badge of the queue
 * and of the drawer tab that holds it. Plan approvals count: they wait the same way.
 */
export function selectPendingCount(s: AppState): number {
  return s.permissions.pending.length
}
