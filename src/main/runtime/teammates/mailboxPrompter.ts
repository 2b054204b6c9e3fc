import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../../shared/permissions'
import { parseMessageBody } from '../../../shared/mailbox'
import type { Mailbox } from '../mailbox'
import type { PermissionPrompter } from '../permissions/prompter'

/** Options of {@link createMailboxPrompter}. */
export interface MailboxPrompterOptions {
  mailbox: Mailbox
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
 * Permission sync of a process teammate (SPEC §9.7): what the engine could not decide becomes a
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
      let settle: (answer: PermissionPromptAnswer) => void = () => undefined
      const answered = new Promise<PermissionPromptAnswer>((resolve) => (settle = resolve))
      let done = false
      // subscribe before sending, so an answer cannot arrive unseen
      const subscription = mailbox.onDidReceive(team, name, (entry) => {
        if (done) return
        const body = parseMessageBody(entry.message.text)
        if (body.kind !== 'structured' || body.body.type !== 'permission_response' || body.body.requestId !== request.requestId) return
        done = true
        const b = body.body
        const answer: PermissionPromptAnswer = b.decision === 'allow' ? { decision: 'allow', by: 'user' } : { decision: 'deny', by: 'user', ...(b.reason ? { reason: b.reason } : {}) }
        // consumed before the call goes on, so the idle loop never sees it as unread
        void mailbox
          .markRead(team, name, [entry.message.id])
          .catch(() => undefined)
          .then(() => settle(answer))
      })
      const onAbort = (): void => {
        if (done) return
        done = true
        settle({ decision: 'deny', by: 'cancelled' })
      }
      signal.addEventListener('abort', onAbort, { once: true })
      try {
        await subscription.ready
        const input = typeof request.input === 'object' && request.input !== null && !Array.isArray(request.input) ? (request.input as Record<string, unknown>) : { value: request.input }
        const body = {
          type: 'permission_request',
          requestId: request.requestId,
          agentId: request.agentId,
          agentName: request.agentName,
          toolName: request.tool,
          input,
          description: request.reason
        }
        await mailbox.send(team, leader, { from: name, text: JSON.stringify(body), summary: `${request.tool} needs permission`, ...(options.color ? { color: options.color } : {}) })
        return await answered
      } finally {
        done = true
        signal.removeEventListener('abort', onAbort)
        subscription.dispose()
        options.onWaiting?.(false)
      }
    }
  }
}
