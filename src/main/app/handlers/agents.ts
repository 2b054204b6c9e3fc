import type { agentChannels } from '../../../shared/ipc'
import { LEADER_NAME } from '../../runtime/session'
import { IpcRequestError, refusing } from '../requestError'
import { interruptTeammate, TeamControlError } from '../teamControl'
import type { FeatureHandlers, HandlerContext } from './context'

/** What a person asks of one agent from its pane (src/shared/ipc/agents.ts): interrupt, stop, background. */
export function agentHandlers(ctx: HandlerContext): FeatureHandlers<typeof agentChannels> {
  return {
    'agent.interrupt': async (payload) => ({ ok: true, interrupted: await interrupt(ctx, payload.agentId) }),
    'agent.stop': async (payload) => {
      // a Claude Code session's row stops its claude
      if (await ctx.claude.stop(payload.agentId)) return { ok: true }
      await subagentsOf(ctx)
        .stop(payload.agentId)
        .catch((error: Error) => {
          throw new IpcRequestError(error.message)
        })
      return { ok: true }
    },
    'agent.background': async (payload) => {
      const agents = subagentsOf(ctx)
      const task = agents.get(payload.agentId)
      if (!task) throw new IpcRequestError(`No agent task with id ${payload.agentId}.`)
      if (task.status !== 'running') throw new IpcRequestError(`Agent ${payload.agentId} is not running.`)
      if (task.isAsync) throw new IpcRequestError(`Agent ${payload.agentId} already runs in the background.`)
      agents.background(payload.agentId)
      return { ok: true }
    }
  }
}

function subagentsOf(ctx: HandlerContext) {
  const subagents = ctx.session().subagents
  if (!subagents) throw new IpcRequestError('Subagents are not enabled in this workspace.')
  return subagents
}

/**
 * Esc in a pane (`agent.interrupt`): stops the agent's current turn and says so in its pane. The
 * leader goes idle and waits for the next prompt; a subagent's turn is its task, so it is
 * stopped as TaskStop stops it (its parent hears `killed`; SendMessage resumes it); a teammate
 * goes idle and tells the leader. False when it had no turn running.
 * @throws IpcRequestError for an agent this workspace does not know.
 */
async function interrupt(ctx: HandlerContext, agentId: string): Promise<boolean> {
  if (agentId === LEADER_NAME) return ctx.leader.interrupt()
  const view = ctx.projection.agents.get(agentId)
  if (!view) throw new IpcRequestError(`No agent '${agentId}' in this workspace.`)
  const session = ctx.session()
  if (view.backend) return refusing([TeamControlError], () => interruptTeammate(session, view.agentName))
  const task = session.subagents?.get(agentId)
  if (!task || task.status !== 'running') return false
  // the runner notes the interrupt in its pane, as for every agent
  await subagentsOf(ctx).interrupt(agentId)
  return true
}
