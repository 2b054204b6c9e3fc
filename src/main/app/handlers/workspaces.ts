import type { RequestChannel, workspacesChannels } from '../../../shared/ipc'
import { IpcRequestError } from '../requestError'
import type { FeatureHandlers } from './context'

/**
 * Which workspaces are open is the host's business (src/main/electron/workspaces.ts,
 * src/main/host/workspaces.ts): a workspace refuses these channels (src/shared/ipc/workspaces.ts).
 */
export function workspacesHandlers(): FeatureHandlers<typeof workspacesChannels> {
  const elsewhere = (channel: RequestChannel) => async (): Promise<never> => {
    throw new IpcRequestError(`'${channel}' is answered by the app or the web host, not by a workspace.`)
  }
  return {
    'workspaces.menu': elsewhere('workspaces.menu'),
    'workspaces.open': elsewhere('workspaces.open'),
    'workspaces.forget': elsewhere('workspaces.forget')
  }
}
