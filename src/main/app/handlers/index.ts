import { agentHandlers } from './agents'
import { claudeTeamsHandlers } from './claudeTeams'
import { claudeHandlers } from './claude'
import type { HandlerContext, RequestHandlers } from './context'
import { mailboxHandlers } from './mailbox'
import { mcpHandlers } from './mcp'
import { paneHandlers } from './panes'
import { permissionHandlers } from './permissions'
import { restoreHandlers } from './restore'
import { sessionsHandlers } from './sessions'
import { settingsHandlers } from './settings'
import { taskHandlers } from './tasks'
import { teamHandlers } from './team'
import { workspaceHandlers } from './workspace'
import { workspacesHandlers } from './workspaces'

export type { FeatureHandlers, HandlerContext, RequestHandler, RequestHandlers } from './context'

/**
 * Every request channel's handler for one workspace, one table per feature of the contract
 * (handlers/<feature>.ts beside src/shared/ipc/<feature>.ts). Typed as {@link RequestHandlers}, so
 * a channel without a handler, or a handler whose payload or response does not match its
 * channel, fails to typecheck.
 */
export function requestHandlers(ctx: HandlerContext): RequestHandlers {
  return {
    ...workspaceHandlers(ctx),
    ...teamHandlers(ctx),
    ...permissionHandlers(ctx),
    ...paneHandlers(ctx),
    ...agentHandlers(ctx),
    ...mailboxHandlers(ctx),
    ...taskHandlers(ctx),
    ...workspacesHandlers(),
    ...settingsHandlers(ctx),
    ...restoreHandlers(ctx),
    ...sessionsHandlers(ctx),
    ...claudeTeamsHandlers(ctx),
    ...mcpHandlers(ctx),
    ...claudeHandlers(ctx)
  }
}
