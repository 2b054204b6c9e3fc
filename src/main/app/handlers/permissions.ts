import type { permissionChannels } from '../../../shared/ipc'
import { refusing } from '../requestError'
import { UnofferedRuleError } from '../uiPrompter'
import type { FeatureHandlers, HandlerContext } from './context'

/** A person's answer to a permission request (src/shared/ipc/permissions.ts), given to the UI prompter. */
export function permissionHandlers(ctx: HandlerContext): FeatureHandlers<typeof permissionChannels> {
  return {
    'permission.respond': (payload) =>
      refusing([UnofferedRuleError], () => ({ ok: ctx.prompter.respond(payload.requestId, payload) }))
  }
}
