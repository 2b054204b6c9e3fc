import { useEffect, useRef } from 'react'

/** One entry of a pane's context menu. */
export interface PaneMenuItem {
  label: string
  shortcut?: string
  disabled?: boolean
  run(): void
}

/**
 * A pane's context menu at (x, y) in the pane body's coordinates: Copy, Select all, Find. Closes on
 * Esc, on a click elsewhere, and after an item runs; the first item takes focus so the keyboard
 * can use it.
 */
export function PaneContextMenu({
  x,
  y,
  items,
  onClose
}: {
  x: number
  y: number
  items: PaneMenuItem[]
  onClose(): void
}) {
  const menu = useRef<HTMLDivElement>(null)
  useEffect(() => {
    menu.current?.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus()
    const away = (e: MouseEvent): void => {
      if (!menu.current?.contains(e.target as Node)) onClose()
    }
    window.addEventListener('mousedown', away)
    return () => window.removeEventListener('mousedown', away)
  }, [onClose])
  return (
    <div
      ref={menu}
      className="pane-menu"
      role="menu"
      style={{ left: x, top: y }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation()
          onClose()
        }
      }}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          className="pane-menu-item"
          disabled={item.disabled}
          onClick={() => {
            item.run()
            onClose()
          }}
        >
          <span>{item.label}</span>
          {item.shortcut ? <kbd>{item.shortcut}</kbd> : null}
        </button>
      ))}
    </div>
  )
}
