import { permissionAnswerOf, permissionRequestBody, type ProtocolBody } from '../../../shared/mailbox'
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
 * Sends the leader one question of a process teammate and waits for its answer in the teammate's
 * own inbox (the request/answer wait of {@link createMailboxPrompter} and the network asker):
 * `onWaiting` brackets the wait; `match` picks the answer out of the structured messages that
 * arrive; `aborted` is what an abort through `signal` resolves to, before or during the wait.
 */
export async function askLeader<T>(
  options: MailboxPrompterOptions,
  question: {
    body: ProtocolBody
    summary: string
    match: (body: ProtocolBody) => T | undefined
  },
  signal: AbortSignal,
  aborted: T
): Promise<T> {
  const { mailbox, team, name, leader } = options
  if (signal.aborted) return aborted
  options.onWaiting?.(true)
  try {
    const answer = await sendAndAwaitReply<T>({
      mailbox,
      team,
      name,
      signal,
      send: () =>
        mailbox.send(team, leader, {
          from: name,
          body: question.body,
          summary: question.summary,
          ...(options.color ? { color: options.color } : {})
        }),
      match: question.match
    })
    return answer === 'aborted' ? aborted : answer
  } finally {
    options.onWaiting?.(false)
  }
}

/**
 * Permission sync of a process teammate (docs/teams.md#permission-requests): what the engine could not decide becomes a
 * `permission_request` in the leader's inbox, and the call blocks until a `permission_response`
 * with the same `requestId` arrives in the teammate's own inbox. The first answer wins (later ones
 * stay unread and are dropped by the idle loop); an abort resolves as a `cancelled` denial.
 */
export function createMailboxPrompter(options: MailboxPrompterOptions): PermissionPrompter {
  return {
    prompt: (request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer> =>
      askLeader<PermissionPromptAnswer>(
        options,
        {
          body: permissionRequestBody(request),
          summary: `${request.tool} needs permission`,
          match: (b) =>
            b.type === 'permission_response' && b.requestId === request.requestId ? permissionAnswerOf(b) : undefined
        },
        signal,
        { decision: 'deny', by: 'cancelled' }
      )
  }
}
