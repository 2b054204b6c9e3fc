import type { WorkspaceClient } from '../api/client'
import { BridgeDisconnectedError } from '../api/errors'
import { DisposableStore, toDisposable, type Disposable } from '../lib/lifecycle'
import type { PaneRouter } from '../features/panes/paneRouter'
import { setCommandApi } from './commands'
import { wireMailbox } from '../features/mailbox/wireMailbox'
import { followSettingsChange } from '../features/settings/settingsStore'
import type { actions as appActions } from './store'

/** The actions the wiring drives (the app's module-level `actions`, or a test store's). */
export type WiringActions = Pick<
  typeof appActions,
  | 'applyEvent'
  | 'loadSnapshot'
  | 'beginResync'
  | 'setPermissions'
  | 'setConnection'
  | 'setError'
  | 'setModelAccess'
  | 'setTeamTransport'
  | 'setAllowedPaths'
  | 'applyMailboxPage'
  | 'applyMailboxChange'
  | 'setMailboxError'
>

/**
 * The one place where the client's pushes enter the store and the pane router. On every open
 * (the first and each reconnect) it marks the workspace stale, fetches the snapshot (events that
 * arrive meanwhile are buffered by the store) and asks every pane to restore its scrollback, since
 * pushes sent while the link was down are gone.
 * @returns a disposable that undoes all of it.
 */
export function wireClient(client: WorkspaceClient, actions: WiringActions, router: PaneRouter): Disposable {
  const store = new DisposableStore()
  store.add(toDisposable(client.on('runtime.event', (e) => actions.applyEvent(e))))
  store.add(toDisposable(client.on('permissions.changed', (p) => actions.setPermissions(p.permissions))))
  store.add(toDisposable(client.on('pane.data', (c) => router.dispatch(c))))
  store.add(toDisposable(client.on('model.access', (a) => actions.setModelAccess(a))))
  store.add(toDisposable(client.on('team.transport', (t) => actions.setTeamTransport(t))))
  store.add(toDisposable(client.on('team.allowedPaths', (p) => actions.setAllowedPaths(p))))
  // a settings file edited by hand, or another window's save (docs/permissions.md#reloading-while-it-runs)
  store.add(toDisposable(client.on('settings.changed', (c) => void followSettingsChange(c))))

  router.setScrollbackFetcher((agentId, lines) =>
    client.request('pane.scrollback', lines === undefined ? { agentId } : { agentId, lines })
  )
  store.add(toDisposable(() => router.setScrollbackFetcher(undefined)))
  // A lost acknowledgement only delays a resume until the next one (or main's stall timeout).
  router.setAckSender((acks) => void client.request('pane.ack', { acks }).catch(() => undefined))
  store.add(toDisposable(() => router.setAckSender(undefined)))
  // A lost size only leaves the process teammate's terminal at its old width until the next fit.
  router.setSizeSender(
    (agentId, size) =>
      void client.request('pane.resize', { agentId, cols: size.cols, rows: size.rows }).catch(() => undefined)
  )
  store.add(toDisposable(() => router.setSizeSender(undefined)))
  // A lost mute only costs the bytes it would have saved; a lost unmute goes with its connection,
  // and the next one starts unmuted (the router unmutes again on reconnect).
  router.setMuteSender((agentId, muted) => void client.request('pane.mute', { agentId, muted }).catch(() => undefined))
  store.add(toDisposable(() => router.setMuteSender(undefined)))
  // the mailbox inspector lists the team's messages on every open and follows mailbox.changed
  store.add(wireMailbox(client, actions))
  setCommandApi(client)
  store.add(toDisposable(() => setCommandApi(undefined)))

  let syncing = 0
  const sync = async (): Promise<void> => {
    const mine = ++syncing
    actions.beginResync()
    try {
      const snap = await client.request('workspace.snapshot', {})
      if (mine !== syncing || store.isDisposed) return
      actions.loadSnapshot(snap)
      actions.setPermissions(snap.permissions)
    } catch (err) {
      // a drop mid-fetch is not a failure to report: the next open fetches again (and the banner says it)
      if (err instanceof BridgeDisconnectedError) return
      if (!store.isDisposed) actions.setError(`Snapshot failed: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  actions.setConnection(client.status, client.transport)
  store.add(
    client.onDidChangeStatus((status) => {
      actions.setConnection(status)
      if (status === 'open') void sync()
    })
  )
  store.add(client.onDidReconnect(() => router.resyncAll()))
  if (client.status === 'open') void sync()
  return store
}
