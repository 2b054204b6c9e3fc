import type { IpcError } from './ipc'

/**
 * What an Electron IPC request answers: the response, or the error as `{name, message}`.
 *
 * Electron's `ipcRenderer.invoke` turns a thrown error into a new Error whose message is
 * prefixed with "Error invoking remote method …" and whose `name` is lost, so main never throws
 * across IPC: it answers this envelope and the preload turns `ok: false` back into a rejection.
 * Same shape as the web bridge's response frame (`BridgeFrameSchema`).
 */
export type IpcResult = { ok: true; result: unknown } | { ok: false; error: IpcError }

/** Reduces anything thrown to the `{name, message}` that survives a process boundary. */
export function toIpcError(error: unknown): IpcError {
  if (error instanceof Error) return { name: error.name, message: error.message }
  if (typeof error === 'object' && error !== null) {
    const { name, message } = error as { name?: unknown; message?: unknown }
    if (typeof name === 'string' && typeof message === 'string') return { name, message }
  }
  return { name: 'Error', message: String(error) }
}

/** True for a well-formed {@link IpcResult}; anything else is a protocol error. */
export function isIpcResult(value: unknown): value is IpcResult {
  if (typeof value !== 'object' || value === null) return false
  const v = value as { ok?: unknown; error?: { name?: unknown; message?: unknown } }
  if (v.ok === true) return 'result' in v
  return (
    v.ok === false &&
    typeof v.error === 'object' &&
    v.error !== null &&
    typeof v.error.name === 'string' &&
    typeof v.error.message === 'string'
  )
}
