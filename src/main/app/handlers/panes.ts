import type { paneChannels } from '../../../shared/ipc'
import type { FeatureHandlers, HandlerContext } from './context'

/** The panes' requests (src/shared/ipc/panes.ts): scrollback, acknowledgements and sizes, for paneOutput.ts. */
export function paneHandlers(ctx: HandlerContext): FeatureHandlers<typeof paneChannels> {
  return {
    'pane.scrollback': (payload) => ctx.panes.scrollback(payload.agentId, payload.lines),
    'pane.ack': async (payload) => {
      for (const { agentId, chunk } of payload.acks) ctx.panes.ack(agentId, chunk)
      return { ok: true }
    },
    // Mutes are a page's, applied by the transport that tells pages apart (the web host's bridge
    // per socket, the app per window); the service pushes to whoever listens.
    'pane.mute': async () => ({ ok: true }),
    'pane.resize': async (payload) => {
      ctx.panes.resize(payload.agentId, { cols: payload.cols, rows: payload.rows })
      return { ok: true }
    }
  }
}
