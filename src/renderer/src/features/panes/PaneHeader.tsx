import type { HTMLAttributes } from 'react'
import type { Usage } from '../../../../shared/events'
import type { AgentView } from '../../../../shared/ipc'
import { useNow } from '../../lib/clock'
import { commands } from '../../store/commands'
import type { CurrentTask } from '../../store/teammates'
import { selectAgent, selectCurrentTask, selectDescendantCount, selectIsRunningSubagent } from '../../store/selectors'
import { actions, useAppStore } from '../../store/store'
import { LEADER_AGENT_ID } from '../../store/workspaceSlice'
import { formatTokens } from '../status/format'
import { useTaskDropTarget } from '../tasks/dropTarget'
import { elapsedMs, formatElapsed } from './elapsed'
import { selectLostTransport, shownState } from '../dashboard/connectionLost'
import { ResumeButton } from '../restore/ResumeButton'
import { TodoChip } from '../todos/TodoChip'

/** Every token the agent's requests cost, cache included (what a notification's `total_tokens` counts). */
function totalTokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens
}

/** Where a teammate runs, as its header badge explains it on hover. */
const BACKEND_TITLES = {
  worker: 'worker teammate: runs in a worker thread of the workspace',
  process: 'process teammate: runs in its own process; this pane is its terminal'
} as const

/**
 * The drag handle a sortable tile puts in its header (dnd-kit's activator: pointer and keyboard —
 * focus it, Space to lift, arrows to move, Space to drop, Esc to cancel).
 */
export interface PaneDragHandle {
  setActivatorNodeRef(node: HTMLElement | null): void
  attributes: HTMLAttributes<HTMLElement>
  listeners: HTMLAttributes<HTMLElement> | undefined
}

/**
 * The name's tooltip: what a narrow header leaves out (its id when the name differs, type,
 * backend, model), since the header keeps to one line and drops those first.
 */
function nameTitle(name: string, agent: AgentView | undefined): string {
  if (!agent) return name
  return [name, agent.agentId !== name ? agent.agentId : undefined, agent.agentType, agent.backend, agent.model]
    .filter(Boolean)
    .join(' · ')
}

/** The current-task chip: `#3 subject`, ellipsised by CSS, the whole text on hover. */
function TaskChip({ task }: { task: CurrentTask }) {
  return (
    <span className="pane-task" data-testid="pane-task" data-task-id={task.id} title={`#${task.id} ${task.subject}`}>
      <span className="pane-task-id">#{task.id}</span> {task.subject}
    </span>
  )
}

/**
 * A pane's header (docs/ui.md#the-workspace-ui): the agent's colour, name, type, state, elapsed time and tokens (and
 * its model when it differs from the leader's: tiles are narrow); for a teammate also its backend
 * (`worker`/`process`) and, for any team member, the task it works on; its own todo list (TodoChip); a toggle that hides or
 * shows its subagents' panes; Background and Stop while it is a running subagent, with the last
 * refusal shown until dismissed. The state label comes from `shownState` (dashboard/connectionLost.ts): `connection lost` while the team's server is out of reach, else its state.
 * The header stays one line at any width (panes.css): a narrow pane truncates the task and the
 * name, drops the cache, model and type (`pane-opt-wide`), then the backend and elapsed time
 * (`pane-opt-mid`), and shows Background and Stop as icons; the state and tokens always stay.
 * Double-click maximises the pane, and again restores the grid (as does its ⤢ button); ×
 * hides it (not the leader's); a tile's ⠿ handle drags it to another place.
 */
export function PaneHeader({ agentId, drag }: { agentId: string; drag?: PaneDragHandle }) {
  const agent = useAppStore(selectAgent(agentId))
  const lifetime = useAppStore((s) => s.workspace.lifetimes[agentId])
  const hidden = useAppStore((s) => s.panes.collapsed[agentId] === true)
  const below = useAppStore(selectDescendantCount(agentId))
  const running = useAppStore(selectIsRunningSubagent(agentId))
  const request = useAppStore((s) => s.panes.requests[agentId])
  const task = useAppStore(selectCurrentTask(agentId))
  const leaderModel = useAppStore((s) => s.workspace.agents[LEADER_AGENT_ID]?.model ?? s.workspace.model)
  const isLeader = agentId === LEADER_AGENT_ID
  const now = useNow(!isLeader && lifetime !== undefined && lifetime.endedAt === undefined)
  const elapsed = isLeader ? undefined : elapsedMs(lifetime, now || Date.now())
  const name = agent?.agentName ?? agentId
  const state = agent?.state
  const maximised = useAppStore((s) => s.panes.maximised === agentId)
  const drop = useTaskDropTarget(agent)
  const sandbox = useAppStore((s) => s.workspace.sandbox)
  const shown = shownState(state, lifetime?.endStatus, useAppStore(selectLostTransport(agentId)))
  return (
    <header
      className="pane-head"
      data-testid="pane-head"
      {...drop}
      title="Double-click to maximise or restore"
      onDoubleClick={(e) => {
        if ((e.target as HTMLElement).closest('button, input, a')) return
        actions.toggleMaximised(agentId)
      }}
    >
      {drag ? (
        <button
          type="button"
          className="pane-drag"
          ref={drag.setActivatorNodeRef}
          {...drag.attributes}
          {...drag.listeners}
          aria-label={`Move ${name}'s pane`}
          title="Drag to move (or focus, then Space and the arrow keys)"
        >
          ⠿
        </button>
      ) : null}
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
      <span className="pane-name" title={nameTitle(name, agent)}>
        {name}
      </span>
      {agent?.backend ? (
        <span
          className={`pane-backend pane-opt-mid backend-${agent.backend}`}
          data-testid="pane-backend"
          title={
            agent.host
              ? `${BACKEND_TITLES[agent.backend]}, on host ${agent.host} over SSH`
              : BACKEND_TITLES[agent.backend]
          }
        >
          {agent.host ? `${agent.backend} on ${agent.host}` : agent.backend}
        </span>
      ) : null}
      {sandbox?.active ? (
        <span
          className="pane-sandboxed pane-opt-mid"
          data-testid="pane-sandboxed"
          title={`Bash runs sandboxed: writes only in its folder and the session's temp folder; network ${sandbox.network === 'proxy' ? 'only to allowed domains, others ask' : 'none (socat is not installed)'}. excludedCommands and approved dangerouslyDisableSandbox runs are not.`}
        >
          sandboxed
        </span>
      ) : null}
      {agent && agent.agentType !== agent.agentName ? (
        <span className={`pane-type pane-opt-wide${agent.agentType === 'fork' ? ' pane-type-fork' : ''}`}>
          {agent.agentType}
        </span>
      ) : null}
      <span
        className={shown.className}
        data-testid="pane-state"
        data-state={shown.dataState}
        title={shown.title ?? (state === 'error' ? agent?.error : undefined)}
      >
        {shown.label}
      </span>
      {state === 'error' && agent?.error ? (
        <span
          className="pane-fail"
          data-testid="pane-error-reason"
          title={`${agent.error}\nThe next prompt or message retries it.`}
        >
          {agent.error}
        </span>
      ) : null}
      <ResumeButton agentId={agentId} compact />
      {task ? <TaskChip task={task} /> : null}
      <TodoChip todos={agent?.todos} agentName={name} variant="pane" />
      {elapsed !== undefined ? (
        <span className="pane-stat pane-opt-mid mono" title="elapsed since it started">
          {formatElapsed(elapsed)}
        </span>
      ) : null}
      {agent ? (
        <span className="pane-stat pane-tokens mono" title="tokens, cache included" data-testid="pane-tokens">
          {formatTokens(totalTokens(agent.usage))}
          <span className="pane-tokens-unit"> tok</span>
        </span>
      ) : null}
      {agent && (agent.usage.cacheReadInputTokens > 0 || agent.usage.cacheCreationInputTokens > 0) ? (
        <span
          className="pane-stat pane-opt-wide mono"
          title="prompt cache: tokens read / written by this agent"
          data-testid="pane-cache"
        >
          cache {formatTokens(agent.usage.cacheReadInputTokens)} r /{' '}
          {formatTokens(agent.usage.cacheCreationInputTokens)} w
        </span>
      ) : null}
      {agent?.model && (isLeader || agent.model !== leaderModel) ? (
        <span className="model-badge pane-opt-wide mono">{agent.model}</span>
      ) : null}
      {running || request?.error ? (
        <span className="pane-actions">
          {request?.error ? (
            <span className="pane-error" role="status" title={request.error}>
              <span className="pane-error-text">{request.error}</span>
              <button
                type="button"
                className="pane-error-close"
                aria-label="Dismiss"
                onClick={() => actions.setAgentRequest(agentId, {})}
              >
                ×
              </button>
            </span>
          ) : null}
          {running ? (
            <>
              <button
                type="button"
                className="btn btn-small pane-act"
                aria-label="Background"
                title="Move to the background: its parent carries on"
                disabled={request?.pending !== undefined}
                onClick={() => void commands.backgroundAgent(agentId)}
              >
                <span className="pane-act-icon" aria-hidden="true">
                  ⇣
                </span>
                <span className="pane-act-label">Background</span>
              </button>
              <button
                type="button"
                className="btn btn-small btn-stop pane-act"
                aria-label="Stop"
                title="Stop it, with its shells and subagents"
                disabled={request?.pending !== undefined}
                onClick={() => void commands.stopAgent(agentId)}
              >
                <span className="pane-act-icon" aria-hidden="true">
                  ■
                </span>
                <span className="pane-act-label">Stop</span>
              </button>
            </>
          ) : null}
        </span>
      ) : null}
      <span className="pane-window">
        <button
          type="button"
          className="pane-icon"
          aria-pressed={maximised}
          aria-label={maximised ? `Restore the grid from ${name}'s pane` : `Maximise ${name}'s pane`}
          title={maximised ? 'Restore (or double-click the header)' : 'Maximise (or double-click the header)'}
          onClick={() => actions.toggleMaximised(agentId)}
        >
          {maximised ? '⤡' : '⤢'}
        </button>
        {!isLeader ? (
          <button
            type="button"
            className="pane-icon"
            aria-label={`Hide ${name}'s pane`}
            title="Hide this pane (the toolbar's Hidden list shows it again)"
            onClick={() => actions.hidePane(agentId)}
          >
            ×
          </button>
        ) : null}
      </span>
    </header>
  )
}
