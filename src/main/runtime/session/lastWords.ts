import type { MailboxMessage } from '../../../shared/mailbox'
import type { Task } from '../../../shared/tasks'
import type { EventBus } from '../events'
import type { TurnEnd } from '../runner'
import type { Session } from './session'

/**
 * Ends a headless run's team and loses none of its last words (docs/teams.md#teammate-life-cycle,
 * docs/events.md#event-stream-and-command-line): every live teammate is shut down
 * (`shutdownAll`), and what the teammates said to the leader meanwhile in plain messages — a final
 * report sent in a teammate's shutdown turn, where a host teammate's work now is — reaches the
 * leader's model in one more turn, with everything else queued for it, when `mayTurn` (the run
 * completed: no limit, failure or stop ended it). That turn is the last, whatever it does: the
 * team is shut down again after it (whoever the leader started in it), and what reaches the
 * leader then — or at all, when `mayTurn` is false — is written to the run's output as an `info`
 * notice of the leader's, one per message, instead of another turn. Last, the team's tasks not
 * completed are named in one `warning` notice.
 * @returns the run's last turn end: that one more turn's, else `end`.
 */
export async function endTeam(session: Session, bus: EventBus, end: TurnEnd, mayTurn: boolean): Promise<TurnEnd> {
  const team = session.teammates
  if (!team) return end
  const before = await teamTasks(session)
  const words = await team.shutdownAll()
  let last = end
  if (words.length > 0 && mayTurn && session.pendingCount > 0) {
    last = await session.prompt()
    tell(session, bus, await team.shutdownAll())
  } else tell(session, bus, words)
  await tellUnfinished(session, bus, before)
  return last
}

/** The task list of the session's team; none without a team, or when it cannot be read. */
async function teamTasks(session: Session): Promise<Task[]> {
  const context = session.team
  if (!context?.team()) return []
  return context.store.tasks.list(context.taskListName()).catch(() => [])
}

/**
 * The team's tasks not completed when the run ends, as one `warning` notice of the leader's
 * (docs/teams.md#teammate-life-cycle, "Headless runs"): a task a teammate was on when the team was
 * shut down went back to pending undone, and a run that ends `ok` must not hide it.
 */
async function tellUnfinished(session: Session, bus: EventBus, before: readonly Task[]): Promise<void> {
  const open = (await teamTasks(session)).filter((t) => t.status !== 'completed')
  if (open.length === 0) return
  const owners = new Map(before.filter((t) => t.status === 'in_progress' && t.owner).map((t) => [t.id, t.owner!]))
  const listed = open.map((t) => {
    const owner = owners.get(t.id)
    const state = owner && t.status === 'pending' ? `${owner} was on it when the team was shut down` : t.status
    return `#${t.id} "${t.subject}" (${state.replace('_', ' ')})`
  })
  bus.emit({
    type: 'notice',
    level: 'warning',
    message: `The run ends with ${open.length} task${open.length === 1 ? '' : 's'} not done: ${listed.join(', ')}.`,
    agentId: session.identity.id,
    agentName: session.identity.name
  })
}

/** Each of `messages` as a notice of the leader's: it reached the leader after its last turn. */
function tell(session: Session, bus: EventBus, messages: readonly MailboxMessage[]): void {
  for (const m of messages)
    bus.emit({
      type: 'notice',
      level: 'info',
      message: `${m.from} wrote to ${session.identity.name} after its last turn: ${m.text}`,
      agentId: session.identity.id,
      agentName: session.identity.name
    })
}
