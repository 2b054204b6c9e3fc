import { ActionError, usePendingAction } from '../../lib/pendingAction'
import { selectAgent } from '../../store/selectors'
import { useAppStore } from '../../store/store'
import { restoreCommands } from './commands'
import './restore.css'

/**
 * "Resume" for an agent shown `interrupted` (it was working when the workspace's process ended):
 * in its pane header and its dashboard row. Renders nothing for any other state. A refusal (the
 * teammate left the team, a fork) shows beside the button.
 */
export function ResumeButton({ agentId, compact = false }: { agentId: string; compact?: boolean }) {
  const agent = useAppStore(selectAgent(agentId))
  const { pending, error, run: resume } = usePendingAction(() => restoreCommands.resume(agentId))
  if (agent?.state !== 'interrupted') return null
  return (
    <span className="resume">
      <button
        type="button"
        className={`btn btn-small btn-resume${compact ? ' compact' : ''}`}
        data-testid="resume"
        aria-label={`Resume ${agent.agentName}`}
        title="Continue it from its transcript: the workspace stopped while it worked"
        disabled={pending}
        onClick={() => void resume()}
      >
        {pending ? 'Resuming…' : '▶ Resume'}
      </button>
      <ActionError error={error} />
    </span>
  )
}
