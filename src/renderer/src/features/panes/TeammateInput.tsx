import { useState } from 'react'
import { connectedApi } from '../../store/commands'

/**
 * A teammate pane's input line (SPEC §11: "typing into a teammate pane sends that teammate a
 * message"): Enter sends the text through `teammate.message`, which main delivers to the
 * teammate's inbox as a plain message from the team lead (the person speaks for the lead; the
 * teammate answers the lead). The field clears once it is sent; a refusal (the teammate has
 * exited, the text is empty) is shown under it.
 */
export function TeammateInput({ name }: { name: string }) {
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const send = async (): Promise<void> => {
    const message = text.trim()
    if (!message || sending) return
    setSending(true)
    setError(undefined)
    try {
      await connectedApi().request('teammate.message', { name, text: message })
      setText('')
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setSending(false)
    }
  }
  return (
    <form
      className="pane-input"
      onSubmit={(e) => {
        e.preventDefault()
        void send()
      }}
    >
      <span className="pane-input-prompt" aria-hidden="true">
        ›
      </span>
      <input
        className="pane-input-field mono"
        aria-label={`Message to ${name}`}
        placeholder={`Message ${name}…`}
        value={text}
        disabled={sending}
        onChange={(e) => setText(e.target.value)}
      />
      {error ? (
        <span className="pane-input-error" role="alert">
          {error}
        </span>
      ) : null}
    </form>
  )
}
