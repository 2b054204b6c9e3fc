import { commands } from '../../store/commands'
import { selectBusy } from '../../store/selectors'
import { useAppStore } from '../../store/store'
import './firstScreen.css'

/**
 * What a newcomer meets in the leader's empty pane (docs/ui.md#the-first-screen), until the leader's
 * conversation begins: with the scripted model, the scenario's suggested prompt as a button that
 * sends it as the person's prompt; without an API key, that the leader waits for one — the
 * {@link NoApiKeyBanner} above the panes says how to add it, so this card points there instead of
 * saying it twice; otherwise, where to type. Earlier sessions are one menu away in the top bar.
 */
export function FirstScreen() {
  const started = useAppStore((s) => s.workspace.leaderStarted)
  const synced = useAppStore((s) => s.workspace.synced)
  const scripted = useAppStore((s) => s.workspace.scripted)
  const suggested = useAppStore((s) => s.workspace.suggestedPrompt)
  const noApiKey = useAppStore((s) => s.workspace.modelAccess.noApiKey)
  const busy = useAppStore(selectBusy)
  const connected = useAppStore((s) => s.connection.status === 'open')
  if (started || !synced) return null
  return (
    <aside className="first-screen" aria-label="Getting started" data-testid="first-screen">
      <p className="first-screen-title">What to do first</p>
      {noApiKey ? (
        <p data-testid="first-screen-no-key">
          The leader needs an API key before it can answer: <b>add one as the “No API key” banner above says</b>, and it
          starts at once. Meanwhile the task board, the mailbox and Settings work.
        </p>
      ) : scripted && suggested ? (
        <>
          <p>
            This workspace answers from the scripted model (offline, no API key). Its scenario is written for this
            prompt:
          </p>
          <button
            type="button"
            className="btn first-screen-prompt"
            data-testid="suggested-prompt"
            disabled={busy || !connected}
            title="Send it to the leader as your prompt"
            onClick={() => void commands.prompt(suggested)}
          >
            ▶ {suggested}
          </button>
          <p className="first-screen-more">…or type your own in the box below.</p>
        </>
      ) : scripted ? (
        <p>
          This workspace answers from the scripted model: type a prompt its scenario expects in the box below (Enter
          sends).
        </p>
      ) : (
        <p>
          Tell the leader what to do in the box below: Enter sends, Shift+Enter starts a new line. It asks before it
          edits files or runs commands that change things; its requests wait in the Permissions drawer.
        </p>
      )}
      <p className="first-screen-more">
        Earlier sessions of this folder: the <b>Sessions</b> menu in the top bar.
      </p>
    </aside>
  )
}
