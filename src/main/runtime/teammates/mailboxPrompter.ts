import { permissionAnswerOf, permissionRequestBody } from '../../../shared/mailbox'
import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../../shared/permissions'
import { sendAndAwaitReply } from '../mailbox'
import type { MailboxPort } from '../teamStore'
import type { PermissionPrompter } from '../permissions'

/** Options of {@link createMailboxPrompter}. */
export interface MailboxPrompterOptions {
  /** The team store's mailbox (docs/nats.md#the-team-store). */
  mailbox: MailboxPort
  team: string
  /** The asking teammate: its inbox receives the answers. */
  name: string
  /** Who decides: the leader, whose inbox gets the requests. */
  leader: string
  color?: string
  /** Told when a request is sent and when it is answered (the runner's liveness state). */
  onWaiting?: (waiting: boolean) => void
}

/**
 * Permission sync of a process teammate (docs/teams.md#permission-requests): what the engine could not decide becomes a
 * `permission_request` in the leader's inbox, and the call blocks until a `permission_response`
 * with the same `requestId` arrives in the teammate's own inbox. The first answer wins (later ones
 * stay unread and are dropped by the idle loop); an abort resolves as a `cancelled` denial.
 */
export function createMailboxPrompter(options: MailboxPrompterOptions): PermissionPrompter {
  const { mailbox, team, name, leader } = options
  return {
    async prompt(request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer> {
      if (signal.aborted) return { decision: 'deny', by: 'cancelled' }
      options.onWaiting?.(true)
      try {
        const body = permissionRequestBody(request)
        const answer = await sendAndAwaitReply<PermissionPromptAnswer>({
          mailbox,
          team,
          name,
          signal,
          send: () =>
            mailbox.send(team, leader, {
              from: name,
              body,
              summary: `${request.tool} needs permission`,
              ...(options.color ? { color: options.color } : {})
            }),
          match: (b) =>
            b.type === 'permission_response' && b.requestId === request.requestId ? permissionAnswerOf(b) : undefined
        })
        return answer === 'aborted' ? { decision: 'deny', by: 'cancelled' } : answer
      } finally {
        options.onWaiting?.(false)
      }
    }
  }
}
