import { useImperativeHandle, useRef, useState, type Ref } from 'react'
import { connectedApi } from '../../store/commands'

/** What the pane does with its message line when the person types into the terminal area. */
export interface MessageLine {
  /** Puts `text` at the caret (or the end) and moves the keyboard into the line. */
  insert(text: string): void
}

/**
 * A teammate pane's input line (docs/ui.md#the-workspace-ui: "typing into a teammate pane sends that teammate a
 * message"): Enter sends the text through `teammate.message`, which main delivers to the
 * teammate's inbox as a plain message from the team lead (the person speaks for the lead; the
 * teammate answers the lead). The field clears once it is sent; a refusal (the teammate has
 * exited, the text is empty) is shown under it. Keys typed into the pane's terminal area come
 * here through `line` (AgentPane.tsx), so the pane takes the keyboard as a terminal does.
 */
export function TeammateInput({ name, line }: { name: string; line?: Ref<MessageLine> }) {
  const [text, setText] = useState('')
  const field = useRef<HTMLInputElement>(null)
  useImperativeHandle(line, () => ({
    insert(more: string) {
      const el = field.current
      if (!el || el.disabled) return
      const at = el.selectionStart ?? el.value.length
      const end = el.selectionEnd ?? at
      const next = el.value.slice(0, at) + more + el.value.slice(end)
      // the field and its caret now, not at React's next render: the keys typed right after this
      // one go straight to the focused field and must land after it
      el.value = next
      el.focus()
      el.setSelectionRange(at + more.length, at + more.length)
      setText(next)
    }
  }))
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
        ref={field}
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
