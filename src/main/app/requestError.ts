/** A request the service refused: unknown channel, a payload that fails the contract, or a refusal (busy). `name` survives IPC. */
export class IpcRequestError extends Error {
  override readonly name = 'IpcRequestError'
}

/** An error class whose instances are refusals a person should read (TeamControlError, RestoreError, ...). */
export type RefusalClass = abstract new (...args: never[]) => Error

/**
 * Runs `work`; an error of one of the `refusals` classes becomes an {@link IpcRequestError} with
 * its message (the person sees why), any other error passes through unchanged.
 */
export async function refusing<T>(refusals: readonly RefusalClass[], work: () => T | Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (refusals.some((refusal) => error instanceof refusal)) throw new IpcRequestError((error as Error).message)
    throw error
  }
}
