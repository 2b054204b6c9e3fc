import { MAILBOX_PAGE_MAX } from '../../../../shared/ipc'
import type { WorkspaceClient } from '../../api/client'
import { DisposableStore, toDisposable, type Disposable } from '../../lib/lifecycle'
import type { MailboxSlice } from '../../store/mailboxSlice'

/** The store actions the mailbox wiring drives (the app's module-level `actions`, or a test store's). */
export type MailboxActions = Pick<MailboxSlice, 'applyMailboxPage' | 'applyMailboxChange' | 'setMailboxError'>

/**
 * Feeds the mailbox slice (docs/ui.md#the-workspace-ui mailbox inspector): `mailbox.changed` pushes as they come, and
 * the whole `mailbox.list`, page by page, on every open of the connection (pushes sent while it
 * was down are lost) and whenever main starts following another team. Pages and pushes may
 * interleave: the slice keeps the higher revision of every message, so order does not matter.
 * @returns a disposable that stops it all; a listing still running is then ignored.
 */
export function wireMailbox(
  client: Pick<WorkspaceClient, 'on' | 'request' | 'status' | 'onDidChangeStatus'>,
  actions: MailboxActions
): Disposable {
  const store = new DisposableStore()
  let generation = 0
  const list = async (): Promise<void> => {
    const mine = ++generation
    try {
      for (let offset = 0; ;) {
        const page = await client.request('mailbox.list', { offset, limit: MAILBOX_PAGE_MAX })
        if (mine !== generation || store.isDisposed) return
        actions.applyMailboxPage(page)
        offset += page.entries.length
        if (page.entries.length === 0 || offset >= page.total) return
      }
    } catch (err) {
      if (mine === generation && !store.isDisposed)
        actions.setMailboxError(`The mailbox could not be listed: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  store.add(
    toDisposable(
      client.on('mailbox.changed', (change) => {
        actions.applyMailboxChange(change)
        if (change.type === 'team' && !change.deleted && change.team !== null) void list()
      })
    )
  )
  store.add(client.onDidChangeStatus((status) => status === 'open' && void list()))
  if (client.status === 'open') void list()
  return store
}
