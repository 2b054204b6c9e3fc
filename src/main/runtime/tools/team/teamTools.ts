import { z } from 'zod'
import { TeamExistsError, type StaleTeamRemoval } from '../../teams'
import { ToolError, type Tool } from '../types'
import { asToolErrors, teamContextOf } from './errors'

/** TeamCreate input (docs/tools.md#tools). */
export const TeamCreateInputSchema = z.object({
  team_name: z.string().describe('Name of the new team ([a-z0-9-]; other characters become -)'),
  description: z.string().optional().describe('What the team is for')
})

/**
 * TeamCreate (docs/tools.md#tools, docs/teams.md#team-config): writes `<home>/teams/{team}/config.json` with the caller as lead and
 * only member (`team-lead@{team}`, backend `main`), and makes it the session's team: from then on
 * the task tools use `<home>/tasks/{team}/` and SendMessage reaches its members. One team per
 * leader session: a second TeamCreate fails naming the current one. The name is sanitised as
 * the team store does (`My Team` → `my-team`). A team of that name whose leader is alive (here or
 * in another process) is never touched: the call fails. One whose leader session is gone (a crash,
 * a new session) is stale: it is removed — its config, inboxes, task list and its teammates'
 * leftover processes — and the new team takes the name; the result says so (teams/leader.ts).
 * Permission subject none: the team's files are the session's own bookkeeping under `<home>`.
 */
export const TeamCreateTool: Tool<z.infer<typeof TeamCreateInputSchema>> = {
  name: 'TeamCreate',
  description:
    'Create your agent team: you become its lead (team-lead), and the task tools and SendMessage then work on this team. One team per session.',
  inputSchema: TeamCreateInputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  async call(input, ctx) {
    const team = teamContextOf(ctx, 'TeamCreate')
    const current = team.team()
    if (current)
      throw new ToolError(
        `This session already leads team '${current}'; a leader has one team at a time. Use it, or delete it with TeamDelete first.`
      )
    const self = ctx.services?.self
    const lead = {
      name: team.leaderName,
      agentType: team.leaderName,
      model: self?.model ?? '',
      backendType: 'main' as const,
      cwd: ctx.cwd,
      ...(self ? { mode: self.mode() } : {})
    }
    const { config, replaced } = await asToolErrors(async () => {
      try {
        return await team.store.config.createAsLeader(
          {
            name: input.team_name,
            ...(input.description !== undefined ? { description: input.description } : {}),
            lead
          },
          team.sessionId
        )
      } catch (error) {
        if (error instanceof TeamExistsError) throw new ToolError(`${error.message} Choose another team_name.`)
        throw error
      }
    })
    team.setTeam(config.name)
    const created = `Team '${config.name}' created (${team.store.config.where(config.name)}). You lead it as ${config.leadAgentId}; the task tools now use its task list and SendMessage reaches its members by name.`
    return { content: replaced ? `${staleNote(replaced)}\n${created}` : created }
  }
}

/** What TeamCreate says about the stale team of the same name it removed first. */
function staleNote(r: StaleTeamRemoval): string {
  const killed = r.leftovers.killed.length
    ? ` ${r.leftovers.killed.length} leftover teammate process(es) were killed (pids ${r.leftovers.killed.join(', ')}).`
    : ''
  const survived = r.leftovers.survivors.length
    ? ` Still running despite SIGKILL: pids ${r.leftovers.survivors.join(', ')}.`
    : ''
  return `Note: a stale team '${r.team}' was in the way (${r.reason}); it was removed with its inboxes and task list, and this new team takes its name.${killed}${survived}`
}

/** TeamDelete input (docs/tools.md#tools): none. */
export const TeamDeleteInputSchema = z.object({})

/**
 * TeamDelete (docs/tools.md#tools, docs/teams.md#team-config): deletes the session's team — config, inboxes and task list — and
 * forgets it, so TeamCreate may create another. Fails while a teammate is active, naming every
 * active one (shut them down first); fails when the session has no team.
 */
export const TeamDeleteTool: Tool<z.infer<typeof TeamDeleteInputSchema>> = {
  name: 'TeamDelete',
  description:
    'Delete your team (its config, inboxes and task list). Fails while any teammate is still active: shut them down first.',
  inputSchema: TeamDeleteInputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  async call(_input, ctx) {
    const team = teamContextOf(ctx, 'TeamDelete')
    const current = team.team()
    if (!current) throw new ToolError('This session has no team to delete.')
    // refused while a teammate is active: check before telling anyone the team is going
    const config = await asToolErrors(() => team.store.config.read(current))
    if (!config.members.some((m) => m.isActive && m.agentId !== config.leadAgentId)) await team.willDeleteTeam(current)
    await asToolErrors(() => team.store.config.delete(current))
    team.setTeam(undefined)
    return { content: `Team '${current}' deleted: its config, inboxes and task list are gone.` }
  }
}
