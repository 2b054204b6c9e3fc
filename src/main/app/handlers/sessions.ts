import type { sessionsChannels } from '../../../shared/ipc'
import { refusing } from '../requestError'
import { RestoreError } from '../restore'
import { TeamControlError } from '../teamControl'
import type { FeatureHandlers, HandlerContext } from './context'

/**
 * The Sessions menu (src/shared/ipc/sessions.ts): the workspace's sessions, and reopening one in
 * place of the current one (restore/controller.ts).
 */
export function sessionsHandlers(ctx: HandlerContext): FeatureHandlers<typeof sessionsChannels> {
  return {
    'sessions.list': async () => ctx.restore.sessions(),
    'workspace.openSession': (payload) =>
      refusing([RestoreError, TeamControlError], () => ctx.restore.openSession(payload.sessionId))
  }
}
