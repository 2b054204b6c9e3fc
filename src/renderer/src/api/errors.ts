import type { IpcError } from '../../../shared/ipc'
import { issuesSentence, type IssueLike } from '../lib/fieldIssues'

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

/**
 * A request the contract refuses before it leaves the page (the renderer checks every request,
 * STYLE.md 3): its message names each field and what is wrong with it in words, never zod's JSON;
 * `issues` keeps them for a form to put beside its fields.
 */
export class RequestInvalidError extends BridgeError {
  override name = 'RequestInvalidError'
  constructor(
    readonly channel: string,
    readonly issues: IssueLike[]
  ) {
    super(issuesSentence(issues))
  }
}
