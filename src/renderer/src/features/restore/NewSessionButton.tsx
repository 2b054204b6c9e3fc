import { useState } from 'react'
import { selectBusy } from '../../store/selectors'
import { useAppStore } from '../../store/store'
import { ActionError, usePendingAction } from '../../lib/pendingAction'
import { restoreCommands } from './commands'
import './restore.css'

/**
 * The top bar's "New session": asks once, then ends this session (its transcript and files stay
 * on disk) and opens an empty one in the same workspace. Disabled while the leader works.
 */
export function NewSessionButton() {
  const busy = useAppStore(selectBusy)
  const open = useAppStore((s) => s.connection.status === 'open')
  const [confirming, setConfirming] = useState(false)
  // on success the workspace reloads into the new session: the button stays pending until then
  const {
    pending,
    error,
    run: start
  } = usePendingAction(() => restoreCommands.newSession(), { staysPending: true, onError: () => setConfirming(false) })
  if (confirming) {
    return (
      <span className="new-session-confirm" role="group" aria-label="Start a new session?">
        <span>End this session and start a new one?</span>
        <button type="button" className="btn btn-small" disabled={pending} onClick={() => void start()}>
          {pending ? 'Starting…' : 'New session'}
        </button>
        <button type="button" className="btn btn-small" disabled={pending} onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </span>
    )
  }
  return (
    <span className="new-session">
      <button
        type="button"
        className="btn btn-small"
        data-testid="new-session"
        disabled={!open || busy}
        title={busy ? 'Stop the leader first' : 'End this session (it stays on disk) and start an empty one'}
        onClick={() => setConfirming(true)}
      >
        New session
      </button>
      <ActionError error={error} />
    </span>
  )
}
