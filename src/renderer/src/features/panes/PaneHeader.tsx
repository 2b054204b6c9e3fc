import type { Usage } from '../../../../shared/events'
import { useNow } from '../../lib/clock'
import { commands } from '../../store/commands'
import { selectAgent, selectDescendantCount, selectIsRunningSubagent } from '../../store/selectors'
import { actions, useAppStore } from '../../store/store'
import { LEADER_AGENT_ID } from '../../store/workspaceSlice'
import { formatTokens } from '../status/format'
import { elapsedMs, formatElapsed } from './elapsed'
import { paneStateLabel } from './stateLabel'

/** Every token the agent's requests cost, cache included (what a notification's `total_tokens` counts). */
function totalTokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens
}

/**
 * A pane's header (SPEC §11): the agent's colour, name, type, state, elapsed time and tokens (and
 * its model when it differs from the leader's: tiles are narrow); a toggle that hides or shows its
 * subagents' panes; Background and Stop while it is a running subagent, with the last refusal
 * shown until dismissed.
 */
export function PaneHeader({ agentId }: { agentId: string }) {
  const agent = useAppStore(selectAgent(agentId))
  const lifetime = useAppStore((s) => s.workspace.lifetimes[agentId])
  const hidden = useAppStore((s) => s.panes.collapsed[agentId] === true)
  const below = useAppStore(selectDescendantCount(agentId))
  const running = useAppStore(selectIsRunningSubagent(agentId))
  const request = useAppStore((s) => s.panes.requests[agentId])
  const leaderModel = useAppStore((s) => s.workspace.agents[LEADER_AGENT_ID]?.model ?? s.workspace.model)
  const isLeader = agentId === LEADER_AGENT_ID
  const now = useNow(!isLeader && lifetime !== undefined && lifetime.endedAt === undefined)
  const elapsed = isLeader ? undefined : elapsedMs(lifetime, now || Date.now())
  const name = agent?.agentName ?? agentId
  const state = agent?.state
  return (
    <header className="pane-head">
      {below > 0 ? (
        <button
          type="button"
          className="pane-toggle"
          aria-expanded={!hidden}
          aria-label={hidden ? `Show ${below} subagent panes of ${name}` : `Hide ${below} subagent panes of ${name}`}
          title={hidden ? 'Show its subagents' : 'Hide its subagents'}
          onClick={() => actions.toggleCollapsed(agentId)}
        >
          {hidden ? '▸' : '▾'} {below}
        </button>
      ) : null}
      <span className="agent-dot" aria-hidden="true" />
      <span className="pane-name">{name}</span>
      {agent && agent.agentType !== agent.agentName ? <span className={`pane-type${agent.agentType === 'fork' ? ' pane-type-fork' : ''}`}>{agent.agentType}</span> : null}
      <span className={`pane-state state-${state ?? 'unknown'} end-${lifetime?.endStatus ?? 'none'}`} data-testid="pane-state">
        {state ? paneStateLabel(state, lifetime?.endStatus) : '…'}
      </span>
      {elapsed !== undefined ? (
        <span className="pane-stat mono" title="elapsed since it started">
          {formatElapsed(elapsed)}
        </span>
      ) : null}
      {agent && !isLeader ? (
        <span className="pane-stat mono" title="tokens, cache included">
          {formatTokens(totalTokens(agent.usage))} tok
        </span>
      ) : null}
      {agent && (agent.usage.cacheReadInputTokens > 0 || agent.usage.cacheCreationInputTokens > 0) ? (
        <span className="pane-stat mono" title="prompt cache: tokens read / written by this agent" data-testid="pane-cache">
          cache {formatTokens(agent.usage.cacheReadInputTokens)} r / {formatTokens(agent.usage.cacheCreationInputTokens)} w
        </span>
      ) : null}
      {agent?.model && (isLeader || agent.model !== leaderModel) ? <span className="model-badge mono">{agent.model}</span> : null}
      {running || request?.error ? (
        <span className="pane-actions">
          {request?.error ? (
            <span className="pane-error" role="status" title={request.error}>
              <span className="pane-error-text">{request.error}</span>
              <button type="button" className="pane-error-close" aria-label="Dismiss" onClick={() => actions.setAgentRequest(agentId, {})}>
                ×
              </button>
            </span>
          ) : null}
          {running ? (
            <>
              <button type="button" className="btn btn-small" disabled={request?.pending !== undefined} onClick={() => void commands.backgroundAgent(agentId)}>
                Background
              </button>
              <button type="button" className="btn btn-small btn-stop" disabled={request?.pending !== undefined} onClick={() => void commands.stopAgent(agentId)}>
                Stop
              </button>
            </>
          ) : null}
        </span>
      ) : null}
    </header>
  )
}
