import { useEffect, useRef, useState } from 'react'

/** What the search box drives: the pane owner's find. */
export interface PaneFinder {
  find(term: string, direction: 'next' | 'previous'): boolean
  clearFind(): void
}

/**
 * A pane's search box (Ctrl+F, issue 7): Enter finds the next match, Shift+Enter the previous,
 * the ↑/↓ buttons likewise, Esc closes it and clears the highlights. Says "no match" when the text
 * is not in the pane's scrollback. Focused when it opens.
 */
export function PaneSearch({ finder, onClose, label }: { finder: PaneFinder | undefined; onClose(): void; label: string }) {
  const input = useRef<HTMLInputElement>(null)
  const [term, setTerm] = useState('')
  const [found, setFound] = useState<boolean | undefined>(undefined)
  useEffect(() => input.current?.focus(), [])
  const go = (direction: 'next' | 'previous', text = term): void => {
    if (!finder || !text) return setFound(undefined)
    setFound(finder.find(text, direction))
  }
  const close = (): void => {
    finder?.clearFind()
    onClose()
  }
  return (
    <div className="pane-search" role="search" data-testid="pane-search">
      <input
        ref={input}
        className="pane-search-input"
        aria-label={`Find in ${label}`}
        placeholder="Find"
        value={term}
        spellCheck={false}
        onChange={(e) => {
          setTerm(e.target.value)
          go('next', e.target.value)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            go(e.shiftKey ? 'previous' : 'next')
          } else if (e.key === 'Escape') {
            e.preventDefault()
            e.stopPropagation()
            close()
          }
        }}
      />
      <span className="pane-search-status" data-testid="pane-search-status" data-found={found === undefined ? 'none' : String(found)}>
        {found === false ? 'no match' : ''}
      </span>
      <button type="button" className="pane-icon" aria-label="Previous match" title="Previous match (Shift+Enter)" onClick={() => go('previous')}>
        ↑
      </button>
      <button type="button" className="pane-icon" aria-label="Next match" title="Next match (Enter)" onClick={() => go('next')}>
        ↓
      </button>
      <button type="button" className="pane-icon" aria-label="Close search" title="Close (Esc)" onClick={close}>
        ×
      </button>
    </div>
  )
}
