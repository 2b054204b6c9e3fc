import { useEffect, useRef } from 'react'

/** The words of a {@link DenyForm}: a tool denial's by default, a plan rejection's on plan cards. */
export interface DenyFormLabels {
  /** The confirm button's text (its accessible name starts with it). */
  confirm: string
  placeholder: string
  /** The text field's accessible name. */
  field: string
}

const DENY_LABELS: DenyFormLabels = {
  confirm: 'Confirm deny',
  placeholder: 'Why? (sent to the agent; optional)',
  field: 'Reason for denying'
}

/** The reason field of a denial: Enter confirms, Shift+Enter adds a line, Esc cancels. */
export function DenyForm(props: {
  reason: string
  disabled: boolean
  labels?: DenyFormLabels
  onChange(reason: string): void
  onConfirm(): void
  onCancel(): void
}) {
  const ref = useRef<HTMLTextAreaElement>(null)
  const labels = props.labels ?? DENY_LABELS
  useEffect(() => ref.current?.focus(), [])
  return (
    <div className="perm-deny">
      <textarea
        ref={ref}
        className="perm-deny-reason"
        rows={2}
        placeholder={labels.placeholder}
        aria-label={labels.field}
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
          {labels.confirm} <kbd>Enter</kbd>
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel <kbd>Esc</kbd>
        </button>
      </div>
    </div>
  )
}
