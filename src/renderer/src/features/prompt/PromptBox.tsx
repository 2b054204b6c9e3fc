import { useState } from 'react'
import { commands } from '../../store/commands'
import { selectBusy } from '../../store/selectors'
import { useAppStore } from '../../store/store'

/**
 * The person's message to the leader: Enter sends, Shift+Enter starts a new line. While the
 * leader works the box is disabled with a note, and Stop ends the turn.
 */
export function PromptBox() {
  const [text, setText] = useState('')
  const busy = useAppStore(selectBusy)
  const connected = useAppStore((s) => s.connection.status === 'open')
  const send = async (): Promise<void> => {
    if (busy || !connected || text.trim() === '') return
    if (await commands.prompt(text)) setText('')
  }
  return (
    <form
      className="prompt-box"
      onSubmit={(e) => {
        e.preventDefault()
        void send()
      }}
    >
      <textarea
        className="prompt-input"
        aria-label="Message to the leader"
        placeholder={busy ? 'working…' : 'Message the leader (Enter to send, Shift+Enter for a new line)'}
        rows={3}
        value={text}
        disabled={busy || !connected}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            void send()
          }
        }}
      />
      <div className="prompt-side">
        {busy ? (
          <>
            <span className="working" role="status">
              working…
            </span>
            <button type="button" className="btn btn-stop" onClick={() => void commands.stop()}>
              Stop
            </button>
          </>
        ) : (
          <button type="submit" className="btn btn-send" disabled={!connected || text.trim() === ''}>
            Send
          </button>
        )}
      </div>
    </form>
  )
}
