import type { MailboxMessage } from '../../../shared/mailbox'
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
 * notice of the leader's, one per message, instead of another turn.
 * @returns the run's last turn end: that one more turn's, else `end`.
 */
export async function endTeam(session: Session, bus: EventBus, end: TurnEnd, mayTurn: boolean): Promise<TurnEnd> {
  const team = session.teammates
  if (!team) return end
  const words = await team.shutdownAll()
  if (words.length === 0) return end
  if (!mayTurn || session.pendingCount === 0) {
    tell(session, bus, words)
    return end
  }
  const last = await session.prompt()
  tell(session, bus, await team.shutdownAll())
  return last
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
