import type { restoreChannels } from '../../../shared/ipc'
import { refusing } from '../requestError'
import { RestoreError } from '../restore'
import { TeamControlError } from '../teamControl'
import type { FeatureHandlers, HandlerContext } from './context'

/** Restore after restart (src/shared/ipc/restore.ts): resume an interrupted agent, start a new session (restore/controller.ts). */
export function restoreHandlers(ctx: HandlerContext): FeatureHandlers<typeof restoreChannels> {
  const refused = [RestoreError, TeamControlError]
  return {
    'agent.resume': async (payload) => {
      ctx.leader.requireModel('Resuming an agent')
      return refusing(refused, () => ctx.restore.resume(payload.agentId))
    },
    'workspace.newSession': () => refusing(refused, () => ctx.restore.newSession())
  }
}
