import type { CSSProperties } from 'react'
import type { MailboxEntry } from '../../../../shared/ipc'
import { actions, useAppStore } from '../../store/store'
import { focusAgentPane, resolveAgent, type NamedAgent } from './agents'
import { CardBody } from './CardBody'
import { KIND_LABELS, prettyRaw, teamLabel, timeOf } from './format'

/**
 * One message of the inspector: time, sender → recipient (colour dots; a click focuses the agent's
 * pane), kind, summary, read state, a broadcast mark, and the readable body — or its raw JSON,
 * pretty-printed, after the person pressed "Raw". A Claude Code team's message is marked with its
 * team (docs/claude-code-teams.md#in-the-workspace); once Claude Code removed it on delivery it says so.
 * Markup: `article.mb-card[data-key][data-kind][data-read][data-from][data-to][data-source][data-team]`.
 */
export function MessageCard({ entry }: { entry: MailboxEntry }) {
  const agents = useAppStore((s) => s.workspace.agents)
  const raw = useAppStore((s) => s.mailbox.raw[entry.key] === true)
  const from = resolveAgent(agents, entry.from, entry.color)
  const to = resolveAgent(agents, entry.to)
  return (
    <article
      className={`mb-card mb-kind-${entry.kind}${entry.read ? '' : ' mb-unread'}`}
      data-key={entry.key}
      data-kind={entry.kind}
      data-read={entry.read ? 'true' : 'false'}
      data-from={entry.from}
      data-to={entry.to}
      data-source={entry.source}
      data-team={entry.team}
    >
      <header className="mb-head">
        <time className="mb-time mono" dateTime={entry.timestamp} title={entry.timestamp}>
          {timeOf(entry.timestamp)}
        </time>
        <AgentName agent={from} />
        <span className="mb-arrow" aria-label="to">
          →
        </span>
        <AgentName agent={to} />
        <span className="mb-kind">{KIND_LABELS[entry.kind]}</span>
        {entry.source === 'claude-code' ? (
          <span className="mb-team-cc" title="A message of Claude Code's agent team, read from its inbox">
            {teamLabel(entry.source, entry.team)}
          </span>
        ) : null}
        {entry.broadcast ? (
          <span className="mb-broadcast" title={`One copy per inbox: ${entry.broadcast.join(', ')}`}>
            broadcast · {entry.broadcast.length}
          </span>
        ) : null}
        <span
          className={`mb-read ${entry.read ? 'is-read' : 'is-unread'}`}
          title={
            entry.delivered
              ? `Delivered to ${entry.to}: Claude Code removed it from the inbox`
              : entry.read
                ? `${entry.to} has read it`
                : `${entry.to} has not read it yet`
          }
        >
          {entry.delivered ? 'delivered' : entry.read ? 'read' : 'unread'}
        </span>
        <button
          type="button"
          className="mb-raw-toggle"
          aria-pressed={raw}
          onClick={() => actions.toggleMailboxRaw(entry.key)}
        >
          Raw
        </button>
      </header>
      <div className="mb-summary">{entry.summary}</div>
      {raw ? (
        <pre className="mb-raw mono">{prettyRaw(entry.text)}</pre>
      ) : entry.kind === 'plain' && entry.text.trim() === entry.summary.trim() ? null : (
        <CardBody entry={entry} />
      )}
    </article>
  )
}

/** An agent's dot and name; a button that focuses its pane when it has one. */
function AgentName({ agent }: { agent: NamedAgent }) {
  const style = { '--agent-color': agent.color } as CSSProperties
  if (!agent.agentId) {
    return (
      <span className="mb-agent" style={style}>
        <span className="agent-dot" aria-hidden="true" />
        {agent.name}
      </span>
    )
  }
  const agentId = agent.agentId
  return (
    <button
      type="button"
      className="mb-agent"
      style={style}
      data-agent-id={agentId}
      title={`Show ${agent.name}'s pane`}
      onClick={() => focusAgentPane(agentId)}
    >
      <span className="agent-dot" aria-hidden="true" />
      {agent.name}
    </button>
  )
}
