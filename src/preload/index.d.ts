import type { WorkspaceApi } from '../shared/ipc'

declare global {
  interface Window {
    /** The workspace API exposed by the preload (src/preload/index.ts); the renderer's only way to main. */
    readonly swarmdesk: WorkspaceApi
  }
}

export {}
