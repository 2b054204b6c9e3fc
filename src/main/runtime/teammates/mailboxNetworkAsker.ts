import { protocolBody } from '../../../shared/mailbox'
import type { ConnectionVerdict, NetworkAsker } from '../sandbox'
import { askLeader, type MailboxPrompterOptions } from './mailboxPrompter'

/** Options of {@link createMailboxNetworkAsker}: the same as a process teammate's permission prompter's. */
export type MailboxNetworkAskerOptions = MailboxPrompterOptions

/**
 * A process teammate's network questions (docs/sandbox.md#network): a host its sandboxed command
 * may not reach yet becomes a `sandbox_permission_request` in the leader's inbox, and the proxy
 * holds the connection until the `sandbox_permission_response` with the same `requestId` arrives
 * in the teammate's own inbox. The first answer wins; an abort withdraws the question.
 */
export function createMailboxNetworkAsker(options: MailboxNetworkAskerOptions): NetworkAsker {
  const withdrawn: ConnectionVerdict = { allow: false, reason: 'the question was withdrawn' }
  return (question, signal): Promise<ConnectionVerdict> =>
    askLeader<ConnectionVerdict>(
      options,
      {
        body: protocolBody('sandbox_permission_request', {
          requestId: question.requestId,
          workerId: question.agentId,
          workerName: question.agentName,
          ...(options.color ? { workerColor: options.color } : {}),
          hostPattern: { host: question.host },
          createdAt: Date.now()
        }),
        summary: `network: ${question.host}`,
        match: (b) =>
          b.type === 'sandbox_permission_response' && b.requestId === question.requestId
            ? b.allow
              ? { allow: true }
              : { allow: false, reason: b.reason ? `refused: ${b.reason}` : 'the leader refused it' }
            : undefined
      },
      signal,
      withdrawn
    )
}
