import { useEffect, useRef } from 'react'
import { createPortal } from 'react-dom'
import type { DiffLine } from './readableInput'

/**
 * An edit's diff, large: a modal dialog over the workspace (80 % of the window), the diff scrolling
 * both ways with its lines unwrapped, as in an editor's diff view. Esc, the Close button or a
 * click beside it closes it. `div.diff-dialog[role=dialog]` labelled "Diff of <path>".
 */
export function DiffDialog({ path, lines, onClose }: { path: string | undefined; lines: DiffLine[]; onClose(): void }) {
  const close = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    close.current?.focus()
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return
      // the permission keys must not see this Esc: it closes the dialog only
      e.stopPropagation()
      onClose()
    }
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [onClose])
  const title = `Diff of ${path ?? 'the file'}`
  return createPortal(
    <div className="diff-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="diff-dialog" role="dialog" aria-modal="true" aria-label={title}>
        <header className="diff-dialog-head">
          <span className="mono">{path ?? 'the file'}</span>
          <button ref={close} type="button" className="btn btn-small" onClick={onClose}>
            Close <kbd>Esc</kbd>
          </button>
        </header>
        <pre className="perm-diff diff-dialog-body" data-testid="diff-dialog-body">
          {lines.map((l, i) => (
            <div key={i} className={`diff-${l.kind}`}>
              {l.text || ' '}
            </div>
          ))}
        </pre>
      </div>
    </div>,
    document.body
  )
}
