import type { mailboxChannels } from '../../../shared/ipc'
import { IpcRequestError } from '../requestError'
import type { FeatureHandlers, HandlerContext } from './context'

/** The mailbox inspector's page of messages (src/shared/ipc/mailbox.ts), from mailboxFeed.ts. */
export function mailboxHandlers(ctx: HandlerContext): FeatureHandlers<typeof mailboxChannels> {
  return {
    'mailbox.list': async (payload) => {
      const feed = ctx.mailbox()
      if (!feed) throw new IpcRequestError('The mailbox inspector is not ready yet.')
      return feed.list(payload.offset, payload.limit)
    }
  }
}
