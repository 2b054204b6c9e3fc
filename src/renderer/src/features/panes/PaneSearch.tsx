import { useEffect, useRef, useState } from 'react'
import { FIND_HIGHLIGHT_LIMIT, type FindResults } from './terminal'

/** What the search box drives: the pane owner's find. */
export interface PaneFinder {
  find(term: string, direction: 'next' | 'previous'): boolean
  clearFind(): void
  /** Follows the match count and position; returns the unsubscribe. */
  onFindResults?(listener: (results: FindResults) => void): () => void
}

/**
 * The status beside the search box, as VS Code's terminal find shows it: `3 of 12` (the selected
 * match of all), `1000+ matches` past the count limit, `no match` when the text is nowhere in the
 * scrollback; empty before a search.
 */
export function findStatus(found: boolean | undefined, results: FindResults | undefined): string {
  if (found === undefined) return ''
  if (found === false || (results !== undefined && results.count === 0)) return 'no match'
  if (!results) return ''
  if (results.index < 0)
    return results.count >= FIND_HIGHLIGHT_LIMIT
      ? `${FIND_HIGHLIGHT_LIMIT}+ matches`
      : `${results.count} ${results.count === 1 ? 'match' : 'matches'}`
  return `${results.index + 1} of ${results.count}`
}

/**
 * A pane's search box (Ctrl+F, issue 7): Enter finds the next match, Shift+Enter the previous,
 * the ↑/↓ buttons likewise, Esc closes it and clears the highlights. Says where the selected match
 * is among all ("3 of 12", {@link findStatus}), kept up to date as output arrives, or "no match"
 * when the text is not in the pane's scrollback. Focused when it opens.
 */
export function PaneSearch({
  finder,
  onClose,
  label
}: {
  finder: PaneFinder | undefined
  onClose(): void
  label: string
}) {
  const input = useRef<HTMLInputElement>(null)
  const [term, setTerm] = useState('')
  const [found, setFound] = useState<boolean | undefined>(undefined)
  const [results, setResults] = useState<FindResults | undefined>(undefined)
  useEffect(() => input.current?.focus(), [])
  useEffect(() => finder?.onFindResults?.(setResults), [finder])
  const go = (direction: 'next' | 'previous', text = term): void => {
    if (!finder || !text) {
      setResults(undefined)
      return setFound(undefined)
    }
    setFound(finder.find(text, direction))
  }
  const close = (): void => {
    finder?.clearFind()
    onClose()
  }
  const status = findStatus(found, results)
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
      <span
        className="pane-search-status"
        data-testid="pane-search-status"
        data-found={found === undefined ? 'none' : String(status !== 'no match')}
        role="status"
        aria-live="polite"
      >
        {status}
      </span>
      <button
        type="button"
        className="pane-icon"
        aria-label="Previous match"
        title="Previous match (Shift+Enter)"
        onClick={() => go('previous')}
      >
        ↑
      </button>
      <button
        type="button"
        className="pane-icon"
        aria-label="Next match"
        title="Next match (Enter)"
        onClick={() => go('next')}
      >
        ↓
      </button>
      <button type="button" className="pane-icon" aria-label="Close search" title="Close (Esc)" onClick={close}>
        ×
      </button>
    </div>
  )
}
