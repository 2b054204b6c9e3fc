import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useLayoutEffect, useRef } from 'react'
import type { MailboxEntry } from '../../../../shared/ipc'
import { MessageCard } from './MessageCard'

/** Estimated height of a card before it is measured, px. */
const ESTIMATE_PX = 96
/** Cards rendered beyond the visible ones on each side. */
const OVERSCAN = 6
/** Distance from the bottom within which the list counts as "at the end" and follows new messages, px. */
const STICK_PX = 48

/**
 * The inspector's messages as a virtualised list (@tanstack/react-virtual): only the cards in view
 * (plus {@link OVERSCAN}) are in the DOM, so 10,000 messages scroll like 10 (docs/ui.md#the-workspace-ui). Cards
 * differ in height (a plan, a diff, the raw JSON) and are measured as they render. While the
 * person is at the end, new messages keep it at the end; scrolled up, it stays put.
 */
export function MessageList({ entries }: { entries: MailboxEntry[] }) {
  const scroller = useRef<HTMLDivElement>(null)
  const atEnd = useRef(true)
  /** The person scrolled since the list last followed the end. */
  const userScroll = useRef(false)
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATE_PX,
    overscan: OVERSCAN,
    getItemKey: (i) => entries[i]!.key
  })

  useEffect(() => {
    const el = scroller.current
    if (!el) return
    // Only the person's own scrolling decides whether to follow the end: the list's programmatic
    // scrolls and its growth also fire scroll events, measured against a content height that may
    // already be stale, and would otherwise unstick it during a burst of messages.
    const onInput = (): void => {
      userScroll.current = true
    }
    const onScroll = (): void => {
      if (!userScroll.current) return
      atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_PX
    }
    const inputs = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const
    for (const t of inputs) el.addEventListener(t, onInput, { passive: true })
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      for (const t of inputs) el.removeEventListener(t, onInput)
      el.removeEventListener('scroll', onScroll)
    }
  }, [])

  // re-run as cards are measured: the first jump used estimated heights
  const totalSize = virtualizer.getTotalSize()
  useLayoutEffect(() => {
    if (!atEnd.current || entries.length === 0) return
    userScroll.current = false
    virtualizer.scrollToIndex(entries.length - 1, { align: 'end' })
  }, [entries.length, virtualizer, totalSize])

  return (
    <div
      ref={scroller}
      className="mb-scroller"
      data-testid="mailbox-list"
      role="list"
      aria-label="Messages"
      tabIndex={0}
    >
      <div className="mb-spacer" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            className="mb-row"
            role="listitem"
            style={{ transform: `translateY(${item.start}px)` }}
          >
            <MessageCard entry={entries[item.index]!} />
          </div>
        ))}
      </div>
    </div>
  )
}
