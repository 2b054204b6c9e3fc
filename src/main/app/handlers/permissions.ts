import type { permissionChannels } from '../../../shared/ipc'
import { teamAllowDirOf } from '../../../shared/teamAllowOffer'
import { IpcRequestError, refusing } from '../requestError'
import { UnofferedRuleError } from '../uiPrompter'
import type { FeatureHandlers, HandlerContext } from './context'

/** A person's answer to a permission request (src/shared/ipc/permissions.ts), given to the UI prompter. */
export function permissionHandlers(ctx: HandlerContext): FeatureHandlers<typeof permissionChannels> {
  return {
    'permission.respond': (payload) =>
      refusing([UnofferedRuleError], () => ({ ok: ctx.prompter.respond(payload.requestId, payload) })),
    'permission.allowForTeam': async ({ requestId }) => {
      const waiting = ctx.prompter.list().find((p) => p.requestId === requestId)
      if (!waiting) return { ok: false, allowedPaths: await ctx.allowedPaths.refresh() }
      const session = ctx.session()
      // computed here from the waiting request, never taken from the renderer (STYLE.md 3)
      const dir = teamAllowDirOf(waiting, session.team?.team(), session.identity.cwd)
      if (!dir)
        throw new IpcRequestError(
          `"Allow for the team" is offered only for a teammate's Read, Edit or Write of a file outside the workspace; allow this request once instead.`
        )
      const allowedPaths = await ctx.allowedPaths.edit('add', dir)
      return { ok: ctx.prompter.respond(requestId, { decision: 'allow' }), allowedPaths }
    }
  }
}
