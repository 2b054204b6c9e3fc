import type { IpcRenderer, IpcRendererEvent } from 'electron'
import { PUSH_CHANNELS, REQUEST_CHANNELS, type WorkspaceApi } from '../shared/ipc'
import { isIpcResult } from '../shared/ipcResult'

const requestable = new Set<string>(REQUEST_CHANNELS)
const subscribable = new Set<string>(PUSH_CHANNELS)

/** An error answered by main, rebuilt in the page with the `name` it had there. */
function remoteError(name: string, message: string): Error {
  const error = new Error(message)
  error.name = name
  return error
}

/**
 * The page's whole view of main (STYLE.md 3): `request` and `on` of the contract, nothing else.
 * Channels outside the contract are refused here (main refuses them too: it has no handler);
 * listeners receive the payload only, never the `IpcRendererEvent`, whose `sender` is the
 * ipcRenderer itself. Payloads are not validated here: main validates what the page sends and
 * the renderer's client validates what it receives.
 */
export function createWorkspaceApi(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>): WorkspaceApi {
  const api: WorkspaceApi = {
    async request(channel, payload) {
      if (typeof channel !== 'string' || !requestable.has(channel))
        throw new TypeError(`Unknown request channel: ${String(channel)}`)
      const answer: unknown = await ipc.invoke(channel, payload)
      if (!isIpcResult(answer))
        throw remoteError('IpcProtocolError', `${channel}: main answered something that is not an IPC result`)
      if (!answer.ok) throw remoteError(answer.error.name, answer.error.message)
      return answer.result as never
    },
    on(channel, listener) {
      if (typeof channel !== 'string' || !subscribable.has(channel))
        throw new TypeError(`Unknown push channel: ${String(channel)}`)
      if (typeof listener !== 'function') throw new TypeError('listener must be a function')
      const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload as never)
      ipc.on(channel, wrapped)
      let subscribed = true
      return () => {
        if (!subscribed) return
        subscribed = false
        ipc.removeListener(channel, wrapped)
      }
    }
  }
  return Object.freeze(api)
}
