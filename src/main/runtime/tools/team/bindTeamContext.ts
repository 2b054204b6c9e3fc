import type { TeamContext } from '../../teamStore'
import type { Tool } from '../types'

/**
 * `tool`, with `team` as the context of a caller that has none of its own: a sync subagent that
 * inherits the leader's task tools (docs/agents.md#agent-definitions) then shares the leader's task list and team, in its
 * own name. A caller with its own context (the leader, later a teammate) keeps it.
 */
export function bindTeamContext<I>(tool: Tool<I>, team: TeamContext): Tool<I> {
  return {
    ...tool,
    call: (input, ctx) =>
      tool.call(input, ctx.services && !ctx.services.team ? { ...ctx, services: { ...ctx.services, team } } : ctx)
  }
}
