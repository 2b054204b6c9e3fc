import type { claudeChannels } from '../../../shared/ipc'
import { ClaudeNotFoundError, ClaudeSessionError } from '../claudeSessions'
import { IpcRequestError, refusing } from '../requestError'
import type { FeatureHandlers, HandlerContext } from './context'

/** Claude Code sessions in panes (src/shared/ipc/claude.ts), for claudeSessions/. */
export function claudeHandlers(ctx: HandlerContext): FeatureHandlers<typeof claudeChannels> {
  return {
    'claude.start': (payload) =>
      refusing([ClaudeSessionError, ClaudeNotFoundError], () => ({
        agentId: ctx.claude.start(payload.cwd ? { cwd: payload.cwd } : {})
      })),
    'claude.stop': async (payload) => {
      if (!(await ctx.claude.stop(payload.agentId)))
        throw new IpcRequestError(`${payload.agentId} is not a running Claude Code session.`)
      return { ok: true }
    },
    'pane.input': async (payload) => {
      if (!ctx.claude.input(payload.agentId, payload.data))
        throw new IpcRequestError(
          `The pane of ${payload.agentId} takes no keys: only a running Claude Code session's pane does.`
        )
      return { ok: true }
    }
  }
}
