// Preload of the workspace window (sandboxed: bundled into one CommonJS file that requires only
// 'electron'). Exposes the contract's API as `window.swarmdesk`, and nothing else.
import { contextBridge, ipcRenderer } from 'electron'
import { createWorkspaceApi } from './api'

contextBridge.exposeInMainWorld('swarmdesk', createWorkspaceApi(ipcRenderer))
