/**
 * What a key does to the active permission card (the focused one, else the oldest): answer it
 * (allow once, always allow), open its reason field (deny), `dismiss` — close a reason field
 * left open, else let go of the focused card so the keys act on the oldest again — or move to
 * the `next` or `previous` card (↓ and ↑).
 */
export type ShortcutAction = 'allow-once' | 'always-allow' | 'deny' | 'dismiss' | 'next' | 'previous'

/** The keys, as shown on the buttons and in the queue's key line (issue 7 item 5: A, Shift+A, D, Esc; issue 19: ↑ ↓). */
export const SHORTCUT_KEYS: Record<ShortcutAction, string> = {
  'allow-once': 'A',
  'always-allow': '⇧A',
  deny: 'D',
  dismiss: 'Esc',
  next: '↓',
  previous: '↑'
}

/** The actions that answer a request or open its reason field (what `run` carries out). */
export type AnswerAction = Exclude<ShortcutAction, 'dismiss' | 'next' | 'previous'>

/** The parts of a keyboard event the decision needs. */
export interface KeyLike {
  key: string
  shiftKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  target: EventTarget | null
}

/**
 * True when the key goes to something the person types into, so it is not a shortcut: an input,
 * a textarea, a select or editable content. xterm's hidden helper textarea is the exception: it
 * takes focus whenever a pane is clicked, and most panes are output only; a teammate's pane
 * (`data-keys="message"`) is not, since what is typed there goes to its message line.
 */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as (Partial<HTMLElement> & { classList?: DOMTokenList }) | null
  if (!el || typeof el.tagName !== 'string') return false
  // ...unless its pane takes the keyboard (a teammate's: keys go to its message line, AgentPane.tsx)
  if (el.classList?.contains('xterm-helper-textarea'))
    return typeof el.closest === 'function' && el.closest('[data-keys="message"]') !== null
  const tag = el.tagName.toLowerCase()
  return tag === 'input' || tag === 'textarea' || tag === 'select' || el.isContentEditable === true
}

/**
 * The shortcut a key press means, if any: `A` allow once, `Shift+A` always allow, `D` deny (opens
 * the reason field; Enter in it confirms), `Esc` dismiss, `↓`/`↑` the next/previous card. Letters match either case (Caps Lock),
 * Shift alone telling the two A's apart. Ignored with Ctrl, Meta or Alt (the browser's and the
 * OS's shortcuts) and while the person types in a field (where Esc belongs to the field).
 */
export function shortcutFor(e: KeyLike): ShortcutAction | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return undefined
  switch (e.key) {
    case 'a':
    case 'A':
      return e.shiftKey ? 'always-allow' : 'allow-once'
    case 'd':
    case 'D':
      return e.shiftKey ? undefined : 'deny'
    case 'Escape':
      return 'dismiss'
    case 'ArrowDown':
      return e.shiftKey ? undefined : 'next'
    case 'ArrowUp':
      return e.shiftKey ? undefined : 'previous'
    default:
      return undefined
  }
}
