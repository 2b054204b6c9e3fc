import { useState, type CSSProperties, type DragEvent } from 'react'
import type { ClaudeSubagent, ClaudeTeamMember, ClaudeTeamView } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'
import { MessageInput } from '../dashboard/MessageInput'
import { droppedTask } from './claudeTeamsStore'
import { TranscriptPane } from './TranscriptPane'

// A Claude Code team's members as dashboard rows (docs/ui.md#claude-codes-teams): marked as
// Claude Code's, each with the actions that apply to it — Message, Shut down, a drop target for
// the team's task cards, its pane rendered from its transcript — and the subagents it started
// nested under it. An ended team's rows are read-only.

const LEAD = 'team-lead'

/** What a row runs its requests through: the team's action runner (refusals shown above the rows). */
type Act = (work: () => Promise<unknown>) => void

/** The task a member works on now: its task in progress, else its first pending one. */
function currentTask(team: ClaudeTeamView, name: string) {
  const owned = team.tasks.filter((t) => t.owner === name && !t.wiped)
  return owned.find((t) => t.status === 'in_progress') ?? owned.find((t) => t.status === 'pending')
}

function Subagents({ team, list }: { team: ClaudeTeamView; list: ClaudeSubagent[] }) {
  if (list.length === 0) return null
  return (
    <ul className="cc-subagents" aria-label="Subagents">
      {list.map((a) => (
        <SubagentRow key={a.agentId} team={team} agent={a} />
      ))}
    </ul>
  )
}

function SubagentRow({ team, agent }: { team: ClaudeTeamView; agent: ClaudeSubagent }) {
  const [open, setOpen] = useState(false)
  const label = agent.description ?? agent.agentId
  return (
    <li className="cc-subagent" data-cc-subagent={agent.agentId}>
      <div className="member-line">
        <span className="cc-nest" aria-hidden="true">
          ↳
        </span>
        <span className="member-name" title={agent.agentId}>
          {label}
        </span>
        <span className="pane-backend backend-claude">{agent.agentType ?? 'subagent'}</span>
        <button type="button" className="btn btn-small" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
          Pane
        </button>
      </div>
      {open ? <TranscriptPane team={team} of={{ subagent: agent.agentId }} title={label} /> : null}
      <Subagents team={team} list={team.subagents.filter((s) => s.parentAgentId === agent.agentId)} />
    </li>
  )
}

function MemberRow({ team, member, act }: { team: ClaudeTeamView; member: ClaudeTeamMember; act: Act }) {
  const [composing, setComposing] = useState(false)
  const [open, setOpen] = useState(false)
  const [over, setOver] = useState(false)
  const live = team.status === 'live'
  const lead = member.name === LEAD
  const active = live && member.status === 'active'
  const task = currentTask(team, member.name)
  const last = [...team.messages].reverse().find((m) => m.from === member.name)
  const api = () => connectedApi()
  const target = active && !lead
  const drop = (e: DragEvent) => {
    e.preventDefault()
    setOver(false)
    const taskId = droppedTask(e.dataTransfer, team.name)
    if (taskId && target)
      act(() => api().request('claudeTeams.assign', { team: team.name, taskId, owner: member.name }))
  }
  return (
    <li
      className="member-row cc-row"
      data-cc-member={member.name}
      data-cc-status={member.status}
      data-task-drop-over={String(over)}
      style={member.color ? ({ '--agent-color': member.color } as CSSProperties) : undefined}
      {...(target
        ? {
            onDragOver: (e: DragEvent) => {
              e.preventDefault()
              setOver(true)
            },
            onDragLeave: () => setOver(false),
            onDrop: drop
          }
        : {})}
    >
      <div className="member-line">
        <span className="agent-dot" aria-hidden="true" />
        <span className="member-name">{member.name}</span>
        <span className="pane-backend backend-claude" title="A member of Claude Code's own team">
          Claude Code
        </span>
        <span className={`cc-member-status ${member.status}`}>
          {lead ? (live ? 'lead session' : 'lead session, ended') : member.status === 'active' ? 'active' : 'shut down'}
        </span>
        {member.planModeRequired ? <span className="cc-chip">plan mode</span> : null}
      </div>
      {!lead ? (
        <div className="member-task">
          {task ? (
            <>
              <span className="mono member-task-id">#{task.id}</span> {task.subject}
            </>
          ) : (
            <span className="muted">no task</span>
          )}
        </div>
      ) : null}
      {last ? (
        <div className="member-last" title={last.summary}>
          <span className="member-last-to">→ {last.to}: </span>
          {last.summary}
        </div>
      ) : null}
      <div className="member-actions">
        {active ? (
          <button
            type="button"
            className="btn btn-small"
            aria-expanded={composing}
            onClick={() => setComposing((v) => !v)}
          >
            Message
          </button>
        ) : null}
        {active && !lead ? (
          <button
            type="button"
            className="btn btn-small"
            title="Write a shutdown_request to its inbox; it may decline"
            onClick={() => act(() => api().request('claudeTeams.shutdown', { team: team.name, name: member.name }))}
          >
            Shut down
          </button>
        ) : null}
        {member.transcript ? (
          <button type="button" className="btn btn-small" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
            Pane
          </button>
        ) : null}
      </div>
      {composing && active ? (
        <MessageInput
          name={member.name}
          disabled={false}
          onCancel={() => setComposing(false)}
          onSend={async (text) => {
            try {
              await api().request('claudeTeams.message', { team: team.name, to: member.name, text })
              setComposing(false)
              return true
            } catch (e) {
              act(() => Promise.reject(e))
              return false
            }
          }}
        />
      ) : null}
      {open ? <TranscriptPane team={team} of={{ name: member.name }} title={member.name} /> : null}
      <Subagents team={team} list={team.subagents.filter((a) => a.parent === member.name)} />
    </li>
  )
}

/**
 * The rows of one Claude Code team: its lead session, then each teammate (active first), each with
 * its subagents nested under it; subagents whose Agent call was not found (yet) come last.
 */
export function ClaudeMemberRows({ team, act }: { team: ClaudeTeamView; act: Act }) {
  const members = team.members.some((m) => m.name === LEAD)
    ? team.members
    : [{ name: LEAD, status: team.status === 'live' ? 'active' : 'gone' } as ClaudeTeamMember, ...team.members]
  const ordered = [
    ...members.filter((m) => m.name === LEAD),
    ...members.filter((m) => m.name !== LEAD && m.status === 'active'),
    ...members.filter((m) => m.name !== LEAD && m.status !== 'active')
  ]
  const orphans = team.subagents.filter((a) => a.parent === undefined && a.parentAgentId === undefined)
  return (
    <ul className="member-list cc-members" aria-label={`Members of ${team.name}`}>
      {ordered.map((m) => (
        <MemberRow key={m.name} team={team} member={m} act={act} />
      ))}
      {orphans.length > 0 ? (
        <li className="cc-orphans">
          <span className="muted">Subagents whose starter is not known yet</span>
          <Subagents team={team} list={orphans} />
        </li>
      ) : null}
    </ul>
  )
}
