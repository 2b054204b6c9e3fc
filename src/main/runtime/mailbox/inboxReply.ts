import { parseMessageBody, type ProtocolBody } from '../../../shared/mailbox'
import type { MailboxMessage } from '../../../shared/mailbox'
import type { Disposable } from '../base'

/**
 * What {@link sendAndAwaitReply} needs of an inbox: a watch of its unread messages and marking
 * one read — the team store's mailbox (`MailboxPort`, teamStore/port.ts) on either transport.
 */
export interface ReplyInbox {
  watch(
    team: string,
    agent: string,
    listener: (entry: { message: MailboxMessage }) => void
  ): Disposable & { ready: Promise<void> }
  markRead(team: string, agent: string, ids: readonly string[]): Promise<unknown>
}

/**
 * Sends a request and waits for the structured reply to it in `name`'s own inbox (docs/teams.md#permission-requests,
 * docs/teams.md#plan-approval: a teammate's permission and plan-approval requests). Subscribes before sending, so a reply
 * cannot arrive unseen; the first reply `match` accepts wins and is marked read before this
 * resolves (the idle loop never sees it as unread); later replies stay unread and are dropped by
 * the idle loop as runtime-only messages.
 * @param match returns the value to resolve with for the awaited reply, `undefined` for any other message.
 * @returns the matched value, or `'aborted'` when `signal` aborts first (also when already aborted:
 *   nothing is sent then).
 * @throws the mailbox's error when sending fails.
 */
export async function sendAndAwaitReply<T>(options: {
  mailbox: ReplyInbox
  team: string
  name: string
  send: () => Promise<unknown>
  match: (body: ProtocolBody) => T | undefined
  signal: AbortSignal
}): Promise<T | 'aborted'> {
  const { mailbox, team, name, signal } = options
  if (signal.aborted) return 'aborted'
  let settle: (value: T | 'aborted') => void = () => undefined
  const answered = new Promise<T | 'aborted'>((resolve) => (settle = resolve))
  let done = false
  const subscription = mailbox.watch(team, name, (entry) => {
    if (done) return
    const body = parseMessageBody(entry.message.text)
    if (body.kind !== 'structured') return
    const value = options.match(body.body)
    if (value === undefined) return
    done = true
    void mailbox
      .markRead(team, name, [entry.message.id])
      .catch(() => undefined)
      .then(() => settle(value))
  })
  const onAbort = (): void => {
    if (done) return
    done = true
    settle('aborted')
  }
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    await subscription.ready
    await options.send()
    return await answered
  } finally {
    done = true
    signal.removeEventListener('abort', onAbort)
    subscription.dispose()
  }
}
