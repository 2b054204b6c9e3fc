import { protocolBody } from '../../../shared/mailbox'
import { sendAndAwaitReply } from '../mailbox'
import type { ConnectionVerdict, NetworkAsker } from '../sandbox'
import type { MailboxPrompterOptions } from './mailboxPrompter'

/** Options of {@link createMailboxNetworkAsker}: the same as a process teammate's permission prompter's. */
export type MailboxNetworkAskerOptions = MailboxPrompterOptions

/**
 * A process teammate's network questions (docs/sandbox.md#network): a host its sandboxed command
 * may not reach yet becomes a `sandbox_permission_request` in the leader's inbox, and the proxy
 * holds the connection until the `sandbox_permission_response` with the same `requestId` arrives
 * in the teammate's own inbox. The first answer wins; an abort withdraws the question.
 */
export function createMailboxNetworkAsker(options: MailboxNetworkAskerOptions): NetworkAsker {
  const { mailbox, team, name, leader } = options
  return async (question, signal): Promise<ConnectionVerdict> => {
    if (signal.aborted) return { allow: false, reason: 'the question was withdrawn' }
    options.onWaiting?.(true)
    try {
      const body = protocolBody('sandbox_permission_request', {
        requestId: question.requestId,
        workerId: question.agentId,
        workerName: question.agentName,
        ...(options.color ? { workerColor: options.color } : {}),
        hostPattern: { host: question.host },
        createdAt: Date.now()
      })
      const answer = await sendAndAwaitReply<ConnectionVerdict>({
        mailbox,
        team,
        name,
        signal,
        send: () =>
          mailbox.send(team, leader, {
            from: name,
            body,
            summary: `network: ${question.host}`,
            ...(options.color ? { color: options.color } : {})
          }),
        match: (b) =>
          b.type === 'sandbox_permission_response' && b.requestId === question.requestId
            ? b.allow
              ? { allow: true }
              : { allow: false, reason: b.reason ? `refused: ${b.reason}` : 'the leader refused it' }
            : undefined
      })
      return answer === 'aborted' ? { allow: false, reason: 'the question was withdrawn' } : answer
    } finally {
      options.onWaiting?.(false)
    }
  }
}
