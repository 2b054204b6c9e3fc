import { protocolBody } from '../../../shared/mailbox'
import { LEAD_NAME } from '../teams'
import { type TeamContext } from '../teamStore'
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
  if (info.reported || context.team() !== team || !(await stillActive(context, team, name))) return
  const { store } = context
  const released = await store.tasks.releaseOwnedBy(team, name).catch(() => [])
  await store.config
    .update(team, (c) => ({ ...c, members: c.members.map((m) => (m.name === name ? { ...m, isActive: false } : m)) }))
    .catch(() => undefined)
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
  await store.mailbox.send(team, LEAD_NAME, { from: name, body }).catch(() => enqueue(summary))
}

/** Whether `name` is marked active in `team`'s config; false when the team or member is gone. */
async function stillActive(context: TeamContext, team: string, name: string): Promise<boolean> {
  try {
    return (await context.store.config.read(team)).members.find((m) => m.name === name)?.isActive === true
  } catch {
    return false
  }
}
