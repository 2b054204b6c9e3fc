import { protocolBody } from '../../../shared/mailbox'
import { LEAD_NAME, type TeamContext } from '../teams'
import type { TeammateExitInfo } from './executor'

/**
 * What the leader's side does for a teammate that ended without its own cleanup — a crash, a
 * kill, a hang (docs/teams.md#teammate-life-cycle): its unfinished tasks go back to pending with
 * no owner, it is marked inactive, and the leader gets an `idle_notification` in its name saying
 * what happened (`interrupted` for a kill, `failed` otherwise), or, when even that cannot be
 * delivered, the same words through `enqueue`. Nothing is done when the teammate reported its
 * own end, is already inactive (its report lost the race with its exit) or its team is gone.
 */
export async function cleanUpAfter(
  context: TeamContext,
  team: string,
  name: string,
  info: TeammateExitInfo,
  enqueue: (text: string) => void
): Promise<void> {
  if (info.reported || context.team() !== team || !stillActive(context, team, name)) return
  const released = await context
    .tasks()
    .releaseOwnedBy(name)
    .catch(() => [])
  await context.teams.setActive(team, name, false).catch(() => undefined)
  const freed = released.length
    ? ` Its unfinished tasks are pending again: ${released.map((t) => `#${t.id}`).join(', ')}.`
    : ''
  const what = info.status === 'killed' ? 'was killed' : 'crashed'
  const summary = `${name} ${what}${info.reason ? ` (${info.reason})` : ''}.${freed}`
  const body = protocolBody('idle_notification', {
    from: name,
    idleReason: info.status === 'killed' ? 'interrupted' : 'failed',
    summary
  })
  await context.mailbox.send(team, LEAD_NAME, { from: name, body }).catch(() => enqueue(summary))
}

/** Whether `name` is marked active in `team`'s config; false when the team or member is gone. */
function stillActive(context: TeamContext, team: string, name: string): boolean {
  try {
    return context.teams.read(team).members.find((m) => m.name === name)?.isActive === true
  } catch {
    return false
  }
}
