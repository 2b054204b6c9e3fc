import type { WorkspaceApi } from '../../../shared/ipc'

/**
 * What the preload script leaves on `window`: in Electron, `contextBridge` exposes exactly
 * `window.swarmdesk: WorkspaceApi`; a browser served by the web host has none, and the renderer
 * then talks over the WebSocket bridge. Declared as a separate shape (not a `Window`
 * augmentation) so it cannot clash with a declaration the preload itself ships.
 */
export interface PreloadGlobals {
  readonly swarmdesk?: WorkspaceApi
}
