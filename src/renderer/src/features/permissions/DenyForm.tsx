import { useEffect, useRef } from 'react'

/** The reason field of a denial: Enter confirms, Shift+Enter adds a line, Esc cancels. */
export function DenyForm(props: {
  reason: string
  disabled: boolean
  onChange(reason: string): void
  onConfirm(): void
  onCancel(): void
}) {
  const ref = useRef<HTMLTextAreaElement>(null)
  useEffect(() => ref.current?.focus(), [])
  return (
    <div className="perm-deny">
      <textarea
        ref={ref}
        className="perm-deny-reason"
        rows={2}
        placeholder="Why? (sent to the agent; optional)"
        aria-label="Reason for denying"
        value={props.reason}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            props.onConfirm()
          } else if (e.key === 'Escape') {
            e.preventDefault()
            props.onCancel()
          }
        }}
      />
      <div className="perm-actions">
        <button type="button" className="btn btn-deny" disabled={props.disabled} onClick={props.onConfirm}>
          Confirm deny <kbd>Enter</kbd>
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel <kbd>Esc</kbd>
        </button>
      </div>
    </div>
  )
}
