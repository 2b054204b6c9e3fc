import type { StoreApi } from 'zustand/vanilla'
import { CLAUDE_CODE_AGENT_TYPE, type PendingPermission } from '../../../../shared/ipc'
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

/** A short sound that says "something waits for you" (injectable for tests). */
export interface Chime {
  play(): void
}

/**
 * A two-note chime synthesised with WebAudio (no asset to ship): 880 Hz then 1320 Hz, 90 ms each,
 * at a quiet gain with a fast attack and an exponential release so it does not click. The
 * AudioContext is made on first use and reused; `undefined` where WebAudio is missing. A page
 * that has never had a user gesture may keep the context suspended (the browser's autoplay
 * rule); `resume()` is tried, and a refusal only means no sound — the notification still shows.
 */
export function webAudioChime(): Chime | undefined {
  const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext
  if (!Ctx) return undefined
  let ctx: AudioContext | undefined
  return {
    play() {
      try {
        ctx ??= new Ctx()
        if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined)
        const start = ctx.currentTime + 0.01
        for (const [i, freq] of [880, 1320].entries()) {
          const t = start + i * 0.1
          const osc = ctx.createOscillator()
          const gain = ctx.createGain()
          osc.type = 'sine'
          osc.frequency.value = freq
          gain.gain.setValueAtTime(0.0001, t)
          gain.gain.exponentialRampToValueAtTime(0.15, t + 0.01)
          gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.09)
          osc.connect(gain).connect(ctx.destination)
          osc.start(t)
          osc.stop(t + 0.1)
        }
      } catch {
        // no audio device, or the context was refused: the notification is enough
      }
    }
  }
}

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
 * Shows an OS notification for each new permission request, and plays the chime once per batch of
 * new requests, while the window is not focused (docs/ui.md#the-workspace-ui, issue 7 item 5). Electron grants
 * notifications to its pages; a browser is asked once, on the first request that would notify.
 * The chime plays whatever the notification permission (a person who refused pop-ups still hears
 * that something waits). `chime` defaults to {@link webAudioChime}; `null` for silence.
 */
export function notifyNewPermissions(
  store: StoreApi<AppState>,
  notifier: Notifier | undefined,
  focused: FocusProbe,
  chime: Chime | null | undefined = webAudioChime()
): Disposable {
  const seen = new Set(store.getState().permissions.pending.map((p) => p.requestId))
  let asked = false
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.permissions.pending === prev.permissions.pending) return
    const fresh = s.permissions.pending.filter((p) => !seen.has(p.requestId))
    for (const p of fresh) seen.add(p.requestId)
    const current = new Set(s.permissions.pending.map((p) => p.requestId))
    for (const id of [...seen]) if (!current.has(id)) seen.delete(id)
    if (fresh.length === 0 || focused()) return
    chime?.play()
    if (!notifier) return
    const show = (): void => {
      for (const p of fresh) {
        const { title, body } = describe(p)
        notifier.show(title, body, p.requestId)
      }
    }
    if (notifier.permission === 'granted') show()
    else if (notifier.permission === 'default' && !asked) {
      asked = true
      void notifier.requestPermission().then(
        (answer) => answer === 'granted' && show(),
        () => undefined
      )
    }
  })
  return toDisposable(unsubscribe)
}

/**
 * Shows an OS notification, and plays the chime, each time one of the person's own Claude Code
 * sessions starts waiting for them (its `sessions/<pid>.json` says `waiting`: the dashboard state
 * `awaiting_permission`, docs/claude-code.md#state-on-the-dashboard) while the window is not
 * focused — as for Swarmdesk's own permission requests ({@link notifyNewPermissions}). A session
 * that stops waiting and waits again notifies again.
 */
export function notifyClaudeWaiting(
  store: StoreApi<AppState>,
  notifier: Notifier | undefined,
  focused: FocusProbe,
  chime: Chime | null | undefined = webAudioChime()
): Disposable {
  const waitingNow = (s: AppState) =>
    Object.values(s.workspace.agents).filter(
      (a) => a.agentType === CLAUDE_CODE_AGENT_TYPE && a.state === 'awaiting_permission'
    )
  const waiting = new Set(waitingNow(store.getState()).map((a) => a.agentId))
  let asked = false
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.workspace.agents === prev.workspace.agents) return
    const now = waitingNow(s)
    const fresh = now.filter((a) => !waiting.has(a.agentId))
    waiting.clear()
    for (const a of now) waiting.add(a.agentId)
    if (fresh.length === 0 || focused()) return
    chime?.play()
    if (!notifier) return
    const show = (): void => {
      for (const a of fresh)
        notifier.show(`${a.agentName} waits for you`, 'Claude Code asks something in its pane.', `claude:${a.agentId}`)
    }
    if (notifier.permission === 'granted') show()
    else if (notifier.permission === 'default' && !asked) {
      asked = true
      void notifier.requestPermission().then(
        (answer) => answer === 'granted' && show(),
        () => undefined
      )
    }
  })
  return toDisposable(unsubscribe)
}
