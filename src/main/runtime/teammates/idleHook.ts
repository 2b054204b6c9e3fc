import { parseMessageBody } from '../../../shared/mailbox'
import type { EventBus } from '../events'
import type { HookRunner } from '../hooks'
import type { MailboxPort } from '../teamStore'

/**
 * Runs the TeammateIdle hooks (docs/hooks.md#hooks): the reason to keep working when one blocks (exit 2),
 * else undefined. A waiting shutdown request wins over a block.
 */
export async function runIdleHook(
  hooks: HookRunner,
  mailbox: MailboxPort,
  team: string,
  name: string,
  signal: AbortSignal,
  bus: EventBus,
  agentId: string
): Promise<string | undefined> {
  const outcome = await hooks.run('TeammateIdle', { teammate_name: name, team_name: team }, { signal })
  for (const message of outcome.warnings)
    bus.emit({ type: 'notice', level: 'warning', message, agentId, agentName: name })
  if (outcome.kind !== 'block' || signal.aborted) return undefined
  const unread = await mailbox.read(team, name, { unreadOnly: true })
  const shutdownWaiting = unread.some((e) => {
    const body = parseMessageBody(e.message.text)
    return body.kind === 'structured' && body.body.type === 'shutdown_request'
  })
  return shutdownWaiting ? undefined : outcome.reason
}
