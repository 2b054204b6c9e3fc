import type { StoreApi } from 'zustand/vanilla'
import type { PendingPermission } from '../../../../shared/ipc'
import { toDisposable, type Disposable } from '../../lib/lifecycle'
import type { AppState } from '../../store/store'
import { isPlanApproval } from './readableInput'

/** The part of the DOM Notification API used here (injectable for tests). */
export interface Notifier {
  readonly permission: NotificationPermission
  requestPermission(): Promise<NotificationPermission>
  show(title: string, body: string, tag: string): void
}

/** Whether the person is looking at the window. */
export type FocusProbe = () => boolean

/** The browser's notifications, or `undefined` where there are none. */
export function domNotifier(): Notifier | undefined {
  if (typeof Notification === 'undefined') return undefined
  return {
    get permission() {
      return Notification.permission
    },
    requestPermission: () => Notification.requestPermission(),
    show: (title, body, tag) => void new Notification(title, { body, tag })
  }
}

/** The notification's title and body for a request: a plan approval names the plan's first line. */
function describe(p: PendingPermission): { title: string; body: string } {
  if (isPlanApproval(p)) {
    const plan = (p.input as { plan?: unknown } | null)?.plan
    const first = typeof plan === 'string' ? (plan.split('\n').find((l) => l.trim() !== '') ?? '') : ''
    return { title: `${p.agentName} asks to approve its plan`, body: first.replace(/^#+\s*/, '').slice(0, 120) }
  }
  return { title: `${p.agentName} asks to use ${p.tool}`, body: toolDetail(p) }
}

function toolDetail(p: PendingPermission): string {
  const input = p.input as { command?: unknown; file_path?: unknown; pattern?: unknown } | null
  const detail = input && typeof input === 'object' ? (input.command ?? input.file_path ?? input.pattern) : undefined
  return typeof detail === 'string' ? `${p.tool}: ${detail.slice(0, 120)}` : p.tool
}

/**
 * Shows an OS notification for each new permission request while the window is not focused
 * (SPEC §11). Electron grants notifications to its pages; a browser is asked once, on the first
 * request that would notify.
 */
export function notifyNewPermissions(store: StoreApi<AppState>, notifier: Notifier | undefined, focused: FocusProbe): Disposable {
  const seen = new Set(store.getState().permissions.pending.map((p) => p.requestId))
  let asked = false
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.permissions.pending === prev.permissions.pending) return
    const fresh = s.permissions.pending.filter((p) => !seen.has(p.requestId))
    for (const p of fresh) seen.add(p.requestId)
    const current = new Set(s.permissions.pending.map((p) => p.requestId))
    for (const id of [...seen]) if (!current.has(id)) seen.delete(id)
    if (fresh.length === 0 || !notifier || focused()) return
    const show = (): void => {
      for (const p of fresh) {
        const { title, body } = describe(p)
        notifier.show(title, body, p.requestId)
      }
    }
    if (notifier.permission === 'granted') show()
    else if (notifier.permission === 'default' && !asked) {
      asked = true
      void notifier.requestPermission().then((answer) => answer === 'granted' && show(), () => undefined)
    }
  })
  return toDisposable(unsubscribe)
}
