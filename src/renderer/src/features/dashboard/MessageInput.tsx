import { useState } from 'react'

/**
 * The inline message box of a member row: Enter sends, Escape closes, the text stays if sending
 * fails (the row shows why). What is sent reaches the teammate as from `team-lead`, marked as the
 * person's (see the `teammate.message` channel).
 */
export function MessageInput({
  name,
  disabled,
  onSend,
  onCancel
}: {
  name: string
  disabled: boolean
  onSend: (text: string) => Promise<boolean>
  onCancel: () => void
}) {
  const [text, setText] = useState('')
  const send = async (): Promise<void> => {
    const trimmed = text.trim()
    if (!trimmed || disabled) return
    if (await onSend(trimmed)) setText('')
  }
  return (
    <form
      className="member-message"
      onSubmit={(e) => {
        e.preventDefault()
        void send()
      }}
    >
      <input
        className="member-message-input"
        aria-label={`Message to ${name}`}
        placeholder={`Message ${name}…`}
        value={text}
        autoFocus
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel()
        }}
      />
      <button type="submit" className="btn btn-small btn-send" disabled={disabled || !text.trim()}>
        Send
      </button>
    </form>
  )
}
