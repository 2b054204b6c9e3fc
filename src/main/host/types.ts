import type { PushChannel } from '../../shared/ipc'
import type { Disposable } from '../runtime/base'

/**
 * What the web host needs from the workspace: the three methods of `WorkspaceService`
 * (src/main/app). Typed structurally so the host does not own the service's
 * lifetime: whoever started the service disposes it after closing the host.
 */
export interface BridgedService {
  /**
   * Answers one request. Validates the channel and payload against the contract itself.
   * @throws an error with a `name` that survives the wire (`IpcRequestError` for an unknown
   *   channel, a bad payload or a refusal such as "busy").
   */
  handle(channel: string, payload: unknown): Promise<unknown>
  /** Subscribes to every pushed event; the host forwards each to every open socket. */
  onPush(listener: (channel: PushChannel, payload: unknown) => void): Disposable
}
