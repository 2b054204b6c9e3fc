/** What a key does to the active permission card. */
export type ShortcutAction = 'allow-once' | 'always-allow' | 'deny'

/** The keys, shown on the buttons. */
export const SHORTCUT_KEYS: Record<ShortcutAction, string> = {
  'allow-once': 'y',
  'always-allow': 'a',
  deny: 'n'
}

/** The parts of a keyboard event the decision needs. */
export interface KeyLike {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  target: EventTarget | null
}

/** True when the key goes to something the person types into (so it is not a shortcut). */
function isTyping(target: EventTarget | null): boolean {
  const el = target as (Partial<HTMLElement> & { classList?: DOMTokenList }) | null
  if (!el || typeof el.tagName !== 'string') return false
  // xterm's hidden textarea takes focus when a pane is clicked; panes are output only.
  if (el.classList?.contains('xterm-helper-textarea')) return false
  const tag = el.tagName.toLowerCase()
  return tag === 'input' || tag === 'textarea' || tag === 'select' || el.isContentEditable === true
}

/**
 * The shortcut a key press means, if any: `y` allow once, `a` always allow, `n` deny (opens the
 * reason field). Ignored with modifiers and while typing in a field.
 */
export function shortcutFor(e: KeyLike): ShortcutAction | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return undefined
  switch (e.key) {
    case 'y':
      return 'allow-once'
    case 'a':
      return 'always-allow'
    case 'n':
      return 'deny'
    default:
      return undefined
  }
}
