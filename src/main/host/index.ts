/**
 * The web host (docs/design.md#process-model, docs/events.md#event-stream-and-command-line): the renderer and the workspace API served to a browser over HTTP and
 * a WebSocket bridge on 127.0.0.1, token-protected. Electron-free; used by `swarmdesk serve`, the
 * demo where no app window can open, and the end-to-end tests.
 */
export { startWebHost, BRIDGE_PATH, type WebHost, type WebHostOptions } from './webHost'
export { Bridge, CloseCode, STUCK_CLIENT_MS, toIpcError, type BridgeOptions } from './bridge'
export { PaneAckLedger } from './paneAcks'
export { tokenCookieName, newToken, tokensMatch } from './auth'
export { hostToken, hostTokenPath, rememberedPort, rememberPort } from './hostState'
export { FALLBACK_CSP } from './securityHeaders'
export { packageRoot, rendererDir } from './rendererDir'
export type { BridgedService } from './types'
export { WebWorkspaces, WORKSPACE_PARAM, workspaceId, type WebService, type WebWorkspacesOptions } from './workspaces'
