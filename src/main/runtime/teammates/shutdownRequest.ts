import { parseMessageBody, protocolBody } from '../../../shared/mailbox'
import { newRequestId } from '../mailbox'
import type { MailboxPort } from '../teamStore'
import { LEAD_NAME } from '../teams'
import type { TeammateHandle } from './executor'

/**
 * The leader's side of the shutdown handshake (docs/teams.md#teammate-life-cycle): sends `name` a
 * `shutdown_request` with `reason` and waits for its answer — it exits (`exited`, or `killed`
 * when its backend killed it meanwhile) or it sends `shutdown_rejected` (`rejected`). No timeout
 * here: the supervisor applies its own.
 */
export async function requestShutdown(
  mailbox: MailboxPort,
  team: string,
  name: string,
  handle: TeammateHandle,
  reason: string
): Promise<'exited' | 'rejected' | 'killed'> {
  const rejected = new Promise<'rejected'>((resolve) => {
    const sub = mailbox.watch(team, LEAD_NAME, (entry) => {
      const body = parseMessageBody(entry.message.text)
      if (entry.message.from === name && body.kind === 'structured' && body.body.type === 'shutdown_rejected') {
        sub.dispose()
        resolve('rejected')
      }
    })
    void handle.exited.then(() => sub.dispose())
  })
  await mailbox.send(team, name, {
    from: LEAD_NAME,
    body: protocolBody('shutdown_request', { requestId: newRequestId('shutdown'), reason })
  })
  return Promise.race([
    handle.exited.then((info) => (info.status === 'killed' ? ('killed' as const) : ('exited' as const))),
    rejected
  ])
}

/** Whether the teammate exits within `ms` milliseconds (the timer does not keep the process alive). */
export async function exitedWithin(handle: TeammateHandle, ms: number): Promise<boolean> {
  const gone = handle.exited.then(() => true)
  const timedOut = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref())
  return Promise.race([gone, timedOut])
}

/**
 * Asks each of `members` to shut down at once (`shutdown`); one that rejects and has not exited
 * within `ms` milliseconds is killed anyway (`kill`): a rejection does not keep a closing session
 * alive (docs/teams.md#teammate-life-cycle).
 */
export async function shutdownEach(
  members: ReadonlyArray<{ name: string; handle?: TeammateHandle }>,
  ms: number,
  shutdown: (name: string) => Promise<'exited' | 'rejected' | 'killed' | 'gone'>,
  kill: (name: string, reason: string) => Promise<void>
): Promise<void> {
  await Promise.all(
    members.map(async (m) => {
      const outcome = await shutdown(m.name).catch(() => 'gone' as const)
      if (outcome === 'rejected' && m.handle && !(await exitedWithin(m.handle, ms)))
        await kill(m.name, `did not shut down within ${Math.round(ms / 1000)} s`)
    })
  )
}
