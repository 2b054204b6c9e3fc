import type { claudeTeamsChannels } from '../../../shared/ipc'
import type { FeatureHandlers, HandlerContext } from './context'

/** Claude Code's teams (src/shared/ipc/claudeTeams.ts): the recorder's views and the person's actions, from claudeCode/control.ts. */
export function claudeTeamsHandlers(ctx: HandlerContext): FeatureHandlers<typeof claudeTeamsChannels> {
  const teams = ctx.claudeTeams
  return {
    'claudeTeams.list': () => teams.list(),
    'claudeTeams.transcript': (p) =>
      teams.transcript(p.team, {
        ...(p.name !== undefined ? { name: p.name } : {}),
        ...(p.subagent !== undefined ? { subagent: p.subagent } : {})
      }),
    'claudeTeams.assign': (p) => teams.assign(p.team, p.taskId, p.owner),
    'claudeTeams.message': async (p) => {
      await teams.message(p.team, p.to, p.text)
      return { ok: true }
    },
    'claudeTeams.shutdown': (p) => teams.shutdown(p.team, p.name, p.reason),
    'claudeTeams.answerPlan': async (p) => {
      await teams.answerPlan(p.team, p.name, p.requestId, p.approve, p.feedback)
      return { ok: true }
    }
  }
}
