import type { IpcError } from '../../../shared/ipc'

/** Base of the renderer bridge's errors; `name` identifies the case. */
export class BridgeError extends Error {
  override name = 'BridgeError'
}

/** The connection dropped (or the client was disposed) before an answer came. */
export class BridgeDisconnectedError extends BridgeError {
  override name = 'BridgeDisconnectedError'
}

/** The host answered something the contract does not allow. */
export class BridgeProtocolError extends BridgeError {
  override name = 'BridgeProtocolError'
}

/** Rebuilds an error the host answered, keeping its `name` (e.g. the runtime's error class). */
export function remoteError(e: IpcError): Error {
  const err = new Error(e.message)
  err.name = e.name
  return err
}
