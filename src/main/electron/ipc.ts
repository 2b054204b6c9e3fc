import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron'
import { PUSH_CHANNELS, REQUEST_CHANNELS, requestChannels, type PushChannel, type PushOf } from '../../shared/ipc'
import { toIpcError, type IpcResult } from '../../shared/ipcResult'
import { DisposableStore, toDisposable, type Disposable } from '../runtime/base'
import type { AppOrigin } from './origin'

/** The part of `WorkspaceService` the IPC layer uses, so these handlers stay testable alone. */
export interface WorkspaceHost {
  /**
   * Answers one request; rejects with an error whose `name`/`message` are shown to the UI.
   * `sender` is the web contents that asked (its `id` tells a host serving several windows which
   * workspace is meant, see workspaces.ts); a single-workspace host may ignore it.
   */
  handle(channel: string, payload: unknown, sender?: { readonly id: number }): Promise<unknown>
  onPush(listener: (channel: PushChannel, payload: unknown) => void): Disposable
}

/** A request came from a page that is not the app's own top-level page. */
export class ForbiddenSenderError extends Error {
  override readonly name = 'ForbiddenSenderError'
}

/** A request payload failed the contract's schema; the service was not called. */
export class InvalidPayloadError extends Error {
  override readonly name = 'InvalidPayloadError'
}

/** Inputs of {@link registerWorkspaceIpc}. */
export interface WorkspaceIpcOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>
  host: WorkspaceHost
  origin: AppOrigin
  /** The web contents that receive pushes (the app's windows); asked on every push. */
  targets: () => WebContents[]
}

/**
 * True when `event` comes from the app's own page in its top frame. The renderer is untrusted
 * (STYLE.md 3), and a subframe or a page navigated elsewhere could otherwise drive the workspace.
 * `senderFrame` is null when the frame navigated or was destroyed before the message arrived.
 */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, origin: AppOrigin): boolean {
  const frame = event.senderFrame
  if (!frame || frame.parent !== null) return false
  return origin.isAppUrl(frame.url)
}

/**
 * Registers one `ipcMain.handle` per request channel of the contract and forwards every push
 * of `host` to the app's windows. Each handler checks the sender, validates the payload with the
 * channel's request schema and answers an {@link IpcResult}; it never throws across IPC.
 * @returns a disposable that removes the handlers and the push subscription.
 */
export function registerWorkspaceIpc(options: WorkspaceIpcOptions): Disposable {
  const { ipcMain, host, origin, targets } = options
  const store = new DisposableStore()
  for (const channel of REQUEST_CHANNELS) {
    const schema = requestChannels[channel].request
    ipcMain.handle(channel, async (event, payload: unknown): Promise<IpcResult> => {
      try {
        if (!isTrustedSender(event, origin))
          throw new ForbiddenSenderError(`${channel} refused: the sender is not the app's own page`)
        const parsed = schema.safeParse(payload)
        if (!parsed.success)
          throw new InvalidPayloadError(`${channel}: ${parsed.error.issues.map(formatIssue).join('; ')}`)
        return { ok: true, result: await host.handle(channel, parsed.data, event.sender) }
      } catch (error) {
        return { ok: false, error: toIpcError(error) }
      }
    })
    store.add(toDisposable(() => ipcMain.removeHandler(channel)))
  }
  store.add(forwardPushes(host, origin, targets))
  return store
}

/** The push subscription {@link forwardPushes} returns: dispose to stop forwarding. */
export interface PushForwarder extends Disposable {
  /**
   * Stops (`muted: true`) or resumes sending the agent's `pane.data` to the targets (`pane.mute`
   * from their page). A chunk left out is acknowledged to the host in the targets' name, batched
   * per macrotask (`pane.ack`): the page acknowledges what it is sent straight to the service,
   * whose backpressure would otherwise wait for chunks it never gets. Applied at once, so an
   * unmute followed by `pane.scrollback` leaves no chunk after the scrollback's unsent.
   */
  mute(agentId: string, muted: boolean): void
}

/**
 * Forwards every push of `host` to `targets()` (asked on every push), skipping web contents that
 * are destroyed or no longer show the app's page. Mutes ({@link PushForwarder.mute}) apply to every target at
 * once: the app gives each workspace's forwarder its one window (workspaces.ts), so they are that
 * window's; a forwarder shared by several windows must not be muted.
 * @returns the forwarder; disposing it ends the push subscription and drops acknowledgements not yet made.
 */
export function forwardPushes(
  host: Pick<WorkspaceHost, 'onPush' | 'handle'>,
  origin: AppOrigin,
  targets: () => WebContents[]
): PushForwarder {
  const pushable = new Set<string>(PUSH_CHANNELS)
  const muted = new Set<string>()
  /** Highest chunk left out per muted agent, not yet acknowledged. */
  const skipped = new Map<string, number>()
  let ackTimer: ReturnType<typeof setImmediate> | undefined
  const acknowledge = (): void => {
    ackTimer = undefined
    const acks = [...skipped].map(([agentId, chunk]) => ({ agentId, chunk }))
    skipped.clear()
    // a service that is closing waits for nobody
    if (acks.length > 0) host.handle('pane.ack', { acks }).catch(() => undefined)
  }
  const subscription = host.onPush((channel, payload) => {
    if (!pushable.has(channel)) return
    if (channel === 'pane.data') {
      const { agentId, chunk } = payload as PushOf<'pane.data'>
      if (muted.has(agentId)) {
        skipped.set(agentId, chunk)
        ackTimer ??= setImmediate(acknowledge)
        return
      }
    }
    for (const contents of targets()) {
      if (contents.isDestroyed() || !origin.isAppUrl(contents.getURL())) continue
      contents.send(channel, payload)
    }
  })
  return {
    mute(agentId, on) {
      if (on) muted.add(agentId)
      else muted.delete(agentId)
    },
    dispose() {
      subscription.dispose()
      if (ackTimer !== undefined) clearImmediate(ackTimer)
      ackTimer = undefined
      skipped.clear()
      muted.clear()
    }
  }
}

function formatIssue(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message
}
