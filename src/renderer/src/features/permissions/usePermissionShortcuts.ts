import { useEffect } from 'react'
import { appStore } from '../../store/store'
import { runAction } from './answer'
import { onPermissionKey } from './keyboard'

let mounted = 0
let uninstall: (() => void) | undefined

/** Whether a card of a request is laid out (the drawer may show another tab; a pane may be hidden). */
function cardShows(requestId: string, placement: 'queue' | 'pane'): boolean {
  const card = document.querySelector(
    `section.perm-card[data-placement="${placement}"][data-request-id="${CSS.escape(requestId)}"]`
  )
  return card !== null && card.getClientRects().length > 0
}

function shows(requestId: string): { queue: boolean; pane: boolean } {
  return { queue: cardShows(requestId, 'queue'), pane: cardShows(requestId, 'pane') }
}

function blurCard(): void {
  const el = document.activeElement
  if (el instanceof HTMLElement && el.closest('section.perm-card')) el.blur()
}

function focusCard(requestId: string, placement: 'queue' | 'pane'): void {
  const card = document.querySelector<HTMLElement>(
    `section.perm-card[data-placement="${placement}"][data-request-id="${CSS.escape(requestId)}"]`
  )
  card?.focus({ preventScroll: true })
  card?.scrollIntoView({ block: 'nearest' })
}

/**
 * The arrows move between cards when nothing in particular has the focus, or a card or the queue
 * has it; elsewhere (a list, a select, a pane's terminal) they keep their own meaning.
 */
function arrowsFree(target: EventTarget | null): boolean {
  if (!(target instanceof Element) || target === document.body || target === document.documentElement) return true
  return target.closest('section.perm-card, aside.perm-queue') !== null
}

function install(): () => void {
  const onKey = (e: KeyboardEvent): void => {
    if (onPermissionKey(e, { store: appStore, run: runAction, shows, blur: blurCard, focus: focusCard, arrowsFree }))
      e.preventDefault()
  }
  // Capture phase: xterm stops the propagation of keys pressed in a focused pane.
  window.addEventListener('keydown', onKey, true)
  return () => window.removeEventListener('keydown', onKey, true)
}

/**
 * Installs the permission shortcuts (A, Shift+A, D, Esc, ↑ ↓: see {@link onPermissionKey}) on the
 * window while at least one calling component is mounted. Both the global queue and the cards
 * pinned to panes call it, so the keys work whichever of them is on screen (the queue may sit in
 * a closed drawer tab); one listener serves all.
 */
export function usePermissionShortcuts(): void {
  useEffect(() => {
    if (mounted++ === 0) uninstall = install()
    return () => {
      if (--mounted === 0) {
        uninstall?.()
        uninstall = undefined
      }
    }
  }, [])
}
