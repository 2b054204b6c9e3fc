import { useState, type CSSProperties } from 'react'
import type { Usage } from '../../../../shared/events'
import { contextFraction } from '../../../../shared/contextWindows'
import { CLAUDE_CODE_AGENT_TYPE } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'
import { useNow } from '../../lib/clock'
import { selectCurrentTask } from '../../store/selectors'
import { useAppStore } from '../../store/store'
import { LEADER_AGENT_ID } from '../../store/workspaceSlice'
import { elapsedMs, formatElapsed } from '../panes/elapsed'
import { ResumeButton } from '../restore/ResumeButton'
import { TodoChip } from '../todos/TodoChip'
import { formatTokens, formatUsd } from '../status/format'
import { useTaskDropTarget } from '../tasks/dropTarget'
import { dashboardCommands } from './commands'
import { focusPane } from './focusPane'
import { MessageInput } from './MessageInput'
import { isAlive, isStuck } from './selectors'
import { selectLostTransport, shownState } from './connectionLost'

/** Every token the member's requests cost, cache included (as its pane header counts them). */
function totalTokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens
}

/** Context used as a whole percentage, with the bar's fill class: calm, filling, nearly full. */
function contextLevel(fraction: number): { percent: number; level: 'ok' | 'high' | 'full' } {
  const percent = Math.round(fraction * 100)
  return { percent, level: fraction >= 0.9 ? 'full' : fraction >= 0.7 ? 'high' : 'ok' }
}

/**
 * One member of the team on the dashboard (docs/ui.md#the-workspace-ui): colour, name, backend, state (waiting on a
 * person stands out), a "stuck" marker, current task, its todo list, elapsed time, tokens, cost, context used,
 * the last thing it said; and the actions — message, shut down, kill (teammates that still run)
 * and focus pane (everyone).
 */
export function MemberRow({ agentId }: { agentId: string }) {
  const agent = useAppStore((s) => s.workspace.agents[agentId])
  const lifetime = useAppStore((s) => s.workspace.lifetimes[agentId])
  const activity = useAppStore((s) => s.dashboard.activity[agentId])
  const stuckAfter = useAppStore((s) => s.dashboard.stuckAfterMinutes)
  const task = useAppStore(selectCurrentTask(agentId))
  const action = useAppStore((s) => s.dashboard.actions[agentId])
  const alive = useAppStore((s) => isAlive(s, agentId))
  const lost = useAppStore(selectLostTransport(agentId))
  const [composing, setComposing] = useState(false)
  const [confirmKill, setConfirmKill] = useState(false)
  const now = useNow(alive)
  const drop = useTaskDropTarget(agent)
  if (!agent) return null
  const isLeader = agentId === LEADER_AGENT_ID
  const claudeCode = agent.agentType === CLAUDE_CODE_AGENT_TYPE
  const elapsed = elapsedMs(lifetime, now || Date.now())
  const stuck = alive && isStuck(agent.state, activity?.lastEventAt, stuckAfter, now)
  const context =
    activity?.contextTokens !== undefined
      ? contextLevel(contextFraction(activity.contextTokens, activity.contextModel ?? agent.model))
      : undefined
  const busy = action?.pending !== undefined
  const shown = shownState(agent.state, lifetime?.endStatus, lost)
  return (
    <li
      className={`member-row${stuck ? ' stuck' : ''}`}
      data-agent-id={agentId}
      data-state={shown.dataState}
      {...drop}
      style={{ '--agent-color': agent.color } as CSSProperties}
    >
      <div className="member-line">
        <span className="agent-dot" aria-hidden="true" />
        <span className="member-name" title={agentId}>
          {agent.agentName}
        </span>
        <span className={`pane-backend backend-${agent.backend ?? 'main'}`} data-testid="member-backend">
          {agent.backend ?? (isLeader ? 'leader' : agent.agentType)}
          {agent.host ? ` on ${agent.host}` : ''}
        </span>
        <span className={shown.className} data-testid="member-state" data-state={shown.dataState} title={shown.title}>
          {shown.label}
        </span>
        {stuck ? (
          <span
            className="member-stuck"
            data-testid="member-stuck"
            title={`No event for ${stuckAfter < 1 ? `${Math.round(stuckAfter * 60)} s` : `${stuckAfter} min`} while ${agent.state}`}
          >
            stuck
          </span>
        ) : null}
        {elapsed !== undefined ? (
          <span className="member-elapsed mono" title="elapsed since it started" data-testid="member-elapsed">
            {formatElapsed(elapsed)}
          </span>
        ) : null}
      </div>
      {agent.state === 'error' && agent.error ? (
        <div
          className="member-error"
          data-testid="member-error"
          role="status"
          title={`${agent.error}\nThe next prompt or message retries it.`}
        >
          {agent.error}
        </div>
      ) : null}
      <div
        className="member-task"
        data-testid="member-task"
        title={task && alive ? `#${task.id} ${task.subject}` : undefined}
      >
        {task && alive ? (
          <>
            <span className="mono member-task-id">#{task.id}</span> {task.subject}
          </>
        ) : (
          <span className="muted">no task</span>
        )}
      </div>
      {agent.todos && agent.todos.length > 0 ? (
        <div className="member-todos">
          <TodoChip todos={agent.todos} agentName={agent.agentName} variant="member" />
        </div>
      ) : null}
      <div className="member-stats mono">
        <span title="tokens, cache included" data-testid="member-tokens">
          {formatTokens(totalTokens(agent.usage))} tok
        </span>
        <span title="cost of its model requests" data-testid="member-cost">
          {formatUsd(agent.costUsd)}
        </span>
        <span
          className={`member-context level-${context?.level ?? 'none'}`}
          data-testid="member-context"
          title={
            context
              ? `context used: ${formatTokens(activity!.contextTokens!)} tokens of its model's window (last request)`
              : 'no model request yet'
          }
        >
          <span className="context-bar" aria-hidden="true">
            <span className="context-fill" style={{ width: `${Math.min(100, context?.percent ?? 0)}%` }} />
          </span>
          {context ? `${context.percent}%` : '–'}
        </span>
      </div>
      {activity?.lastMessage ? (
        <div className="member-last" data-testid="member-last" title={activity.lastMessage.text}>
          {activity.lastMessage.to ? <span className="member-last-to">→ {activity.lastMessage.to}: </span> : null}
          {activity.lastMessage.text}
        </div>
      ) : null}
      <div className="member-actions">
        <ResumeButton agentId={agentId} />
        {claudeCode && alive ? (
          <button
            type="button"
            className="btn btn-small btn-stop"
            title="End this Claude Code session (it is not reopened at the next start)"
            onClick={() =>
              void connectedApi()
                .request('claude.stop', { agentId })
                .catch(() => undefined)
            }
          >
            Stop
          </button>
        ) : null}
        {!isLeader && !claudeCode && alive ? (
          <>
            <button
              type="button"
              className="btn btn-small"
              aria-expanded={composing}
              onClick={() => setComposing((v) => !v)}
              disabled={busy}
            >
              Message
            </button>
            <button
              type="button"
              className="btn btn-small"
              title="Send a shutdown request; it may decline"
              disabled={busy}
              onClick={() => void dashboardCommands.shutdown(agentId, agent.agentName)}
            >
              Shut down
            </button>
            {confirmKill ? (
              <span className="member-confirm">
                <button
                  type="button"
                  className="btn btn-small btn-stop"
                  disabled={busy}
                  onClick={() => {
                    setConfirmKill(false)
                    void dashboardCommands.kill(agentId, agent.agentName)
                  }}
                >
                  Kill {agent.agentName}
                </button>
                <button type="button" className="btn btn-small" onClick={() => setConfirmKill(false)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="btn btn-small btn-stop"
                title="End it now, without asking"
                disabled={busy}
                onClick={() => setConfirmKill(true)}
              >
                Kill
              </button>
            )}
          </>
        ) : null}
        <button
          type="button"
          className="btn btn-small member-focus"
          title="Show its pane"
          onClick={() => focusPane(agentId)}
        >
          Focus
        </button>
      </div>
      {composing && alive && !isLeader && !claudeCode ? (
        <MessageInput
          name={agent.agentName}
          disabled={busy}
          onCancel={() => setComposing(false)}
          onSend={async (text) => {
            const ok = await dashboardCommands.message(agentId, agent.agentName, text)
            if (ok) setComposing(false)
            return ok
          }}
        />
      ) : null}
      {action?.pending ? (
        <div className="member-note muted">
          {action.pending === 'message' ? 'sending…' : action.pending === 'kill' ? 'killing…' : 'asking…'}
        </div>
      ) : null}
      {action?.error || action?.done ? (
        <div className={`member-note${action.error ? ' error' : ''}`} role={action.error ? 'alert' : 'status'}>
          <span>{action.error ?? action.done}</span>
          <button
            type="button"
            className="pane-error-close"
            aria-label="Dismiss"
            onClick={() => dashboardCommands.dismiss(agentId)}
          >
            ×
          </button>
        </div>
      ) : null}
    </li>
  )
}
