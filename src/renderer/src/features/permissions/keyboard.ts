import type { StoreApi } from 'zustand/vanilla'
import type { PendingPermission } from '../../../../shared/ipc'
import type { CardPlacement } from '../../store/permissionsSlice'
import { selectActivePermission } from '../../store/selectors'
import type { AppState } from '../../store/store'
import { shortcutFor, type AnswerAction, type KeyLike } from './shortcuts'

/** What {@link onPermissionKey} needs from its surroundings (the DOM and the IPC commands). */
export interface PermissionKeyDeps {
  store: StoreApi<AppState>
  /** Carries out an answer or opens the reason field (answer.ts `runAction`). */
  run(p: PendingPermission, action: AnswerAction, origin: CardPlacement): void
  /**
   * Which of this request's cards are on screen: the queue's (the drawer may show another tab)
   * and the one pinned to its agent's pane (the pane may be hidden or collapsed).
   */
  shows(requestId: string): { queue: boolean; pane: boolean }
  /** Takes DOM focus off a permission card, if one has it. */
  blur(): void
  /** Gives DOM focus to a request's card at `placement` (and scrolls it into view). */
  focus?(requestId: string, placement: CardPlacement): void
  /**
   * Whether the arrow keys may move between cards for this key's target: not while the focus is
   * somewhere the arrows already mean something (a list, a pane's terminal). Default: always.
   */
  arrowsFree?(target: EventTarget | null): boolean
}

/**
 * The permission shortcuts (issue 7 item 5, docs/ui.md#the-workspace-ui) for one key press: `A` allows the active
 * request once, `Shift+A` always allows it (the rule its card shows), `D` opens its reason field
 * — on the card the person last used, else the queue's when the queue is on screen, else the
 * pane's — and `Esc` closes an open reason field, else lets go of the focused card so the keys act
 * on the oldest again; `↓`/`↑` make the next/previous card on screen the active one (round the
 * end), focused where the person last used one. The active request is the focused card's, else the oldest. Nothing happens
 * while the person types in a field, to a request whose answer is on its way, or to one none of
 * whose cards is on screen (a key never answers what the person cannot see).
 * @returns true when the key was a shortcut that did something (the caller then prevents its default).
 */
export function onPermissionKey(e: KeyLike, deps: PermissionKeyDeps): boolean {
  const action = shortcutFor(e)
  if (!action) return false
  const state = deps.store.getState()
  const { permissions } = state
  // a notice answers the key that caused it; the next key replaces it
  if (permissions.notice) state.setPermissionNotice(undefined)
  if (action === 'dismiss') {
    if (permissions.deny) {
      state.cancelDeny()
      return true
    }
    if (permissions.focusedId === undefined) return false
    state.focusPermission(undefined)
    deps.blur()
    return true
  }
  const active = selectActivePermission(state)
  if (!active) return false
  if (action === 'next' || action === 'previous') {
    if (deps.arrowsFree && !deps.arrowsFree(e.target)) return false
    const visible = permissions.pending.filter((p) => {
      const on = deps.shows(p.requestId)
      return on.queue || on.pane
    })
    if (visible.length === 0) return false
    const at = visible.findIndex((p) => p.requestId === active.requestId)
    // from the oldest (nothing picked yet), ↓ goes to the second, ↑ to the last
    const next = visible[(at + (action === 'next' ? 1 : -1) + visible.length) % visible.length]!
    const on = deps.shows(next.requestId)
    const used = permissions.focusedPlacement
    const placement: CardPlacement = used !== undefined && on[used] ? used : on.queue ? 'queue' : 'pane'
    state.focusPermission(next.requestId, placement)
    deps.focus?.(next.requestId, placement)
    return true
  }
  if (permissions.responding[active.requestId]) return true
  const on = deps.shows(active.requestId)
  if (!on.queue && !on.pane) return false
  const used = permissions.focusedPlacement
  const origin = used !== undefined && on[used] ? used : on.queue ? 'queue' : 'pane'
  deps.run(active, action, origin)
  return true
}
