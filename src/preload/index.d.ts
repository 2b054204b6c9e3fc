import type { WorkspaceApi } from '../shared/ipc'

declare global {
  interface Window {
    /**
     * The workspace API exposed by the preload (src/preload/index.ts), the renderer's only way to
     * main. Absent when the same renderer is served to a browser by the web host.
     */
    readonly swarmdesk?: WorkspaceApi
  }
}

export {}
