import { parseMessageBody } from '../../../shared/mailbox'
import type { Disposable } from '../base'
import type { MailboxPort } from '../teamStore'

/**
 * Watches a teammate's inbox while it waits in the middle of a turn for an answer (its plan's
 * approval, docs/teams.md#plan-approval, or a permission answer, docs/teams.md#permission-requests) and calls `interrupt` as soon as a
 * `shutdown_request` from the leader is there (one already waiting included). The idle loop reads
 * a shutdown request only between turns, so without this a teammate whose question nobody answers
 * (a headless run whose leader left a plan unanswered) would hold out until the shutdown timeout
 * killed it. The request itself is left unread: the idle loop answers it once the turn has ended
 * (an interrupted approval is a rejection, docs/teams.md#plan-approval). Requests from anyone else are ignored (docs/teams.md#sendmessage-between-teammates).
 * @returns a disposable that stops watching; `interrupt` is called at most once.
 */
export function interruptOnShutdownRequest(options: {
  mailbox: MailboxPort
  team: string
  name: string
  leader: string
  interrupt: () => void
}): Disposable {
  let fired = false
  const subscription = options.mailbox.watch(
    options.team,
    options.name,
    (entry) => {
      if (fired || entry.message.from !== options.leader) return
      const body = parseMessageBody(entry.message.text)
      if (body.kind !== 'structured' || body.body.type !== 'shutdown_request') return
      fired = true
      options.interrupt()
    },
    // an unreadable inbox is reported by the idle loop's next read; the wait goes on meanwhile
    { onError: () => undefined }
  )
  return { dispose: () => subscription.dispose() }
}
