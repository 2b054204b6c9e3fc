import { ActionError, usePendingAction } from '../../lib/pendingAction'
import { connectedApi } from '../../store/commands'
import { useAppStore } from '../../store/store'

/**
 * The top bar's "New Claude Code session" (docs/claude-code.md#sessions-in-panes): starts the
 * person's own `claude` interactively in a new pane of the workspace. A refusal (no claude found)
 * is shown beside the button.
 */
export function ClaudeSessionButton() {
  const open = useAppStore((s) => s.connection.status === 'open')
  const { pending, error, run: start } = usePendingAction(() => connectedApi().request('claude.start', {}))
  return (
    <span className="new-session">
      <button
        type="button"
        className="btn btn-small"
        data-testid="new-claude-session"
        disabled={!open || pending}
        title="Open your own Claude Code (claude) in a new pane of this workspace"
        aria-label={pending ? 'Starting a Claude Code session' : 'New Claude Code session'}
        onClick={() => void start()}
      >
        {pending ? (
          'Starting…'
        ) : (
          // below 1100 px the bar reads "Claude Code" (topbar.css), so it keeps ⚙ and the drawer toggle on screen
          <>
            <span className="topbar-wide-only">New </span>Claude Code<span className="topbar-wide-only"> session</span>
          </>
        )}
      </button>
      <ActionError error={error} />
    </span>
  )
}
