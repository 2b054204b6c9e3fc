import type { ClaudeTeamTask, ClaudeTeamView } from '../../../../shared/ipc'
import { CLAUDE_TASK_DRAG } from './claudeTeamsStore'

// A Claude Code team's task board (docs/claude-code-teams.md): its three columns as Swarmdesk's
// board has them. A card of a live team drags (HTML drag and drop, JSON `{team, taskId}`) onto
// one of that team's member rows, on the dashboard or in the Claude Code tab, to assign it.

const COLUMNS: ReadonlyArray<ClaudeTeamTask['status']> = ['pending', 'in_progress', 'completed']
const COLUMN_LABEL: Record<ClaudeTeamTask['status'], string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed'
}

/** The board of `team`: cards with owner, what still blocks them, and `wiped` once Claude Code cleared its list. */
export function ClaudeBoard({ team }: { team: ClaudeTeamView }) {
  const live = team.status === 'live'
  return (
    <div className="cc-board" aria-label={`Tasks of ${team.name}`} role="group">
      {COLUMNS.map((status) => (
        <div key={status} className="cc-column">
          <h4>{COLUMN_LABEL[status]}</h4>
          {team.tasks
            .filter((t) => t.status === status)
            .map((t) => (
              <div
                key={t.id}
                className={`cc-task${t.wiped ? ' wiped' : ''}`}
                data-cc-task={t.id}
                title={t.description}
                draggable={live && !t.wiped && t.status !== 'completed'}
                onDragStart={(e) =>
                  e.dataTransfer.setData(CLAUDE_TASK_DRAG, JSON.stringify({ team: team.name, taskId: t.id }))
                }
              >
                #{t.id} {t.subject}
                {t.owner ? <span className="cc-owner"> · {t.owner}</span> : null}
                {t.waitingFor.length > 0 ? (
                  <span className="cc-chip">waits for #{t.waitingFor.join(', #')}</span>
                ) : null}
                {t.wiped ? <span className="cc-chip">wiped by Claude Code</span> : null}
              </div>
            ))}
        </div>
      ))}
    </div>
  )
}
