import type { teamChannels } from '../../../shared/ipc'
import { LEADER_NAME } from '../../runtime/session'
import { refusing } from '../requestError'
import * as teamControl from '../teamControl'
import type { FeatureHandlers, HandlerContext } from './context'

/** The team dashboard's requests (src/shared/ipc/team.ts), answered by teamControl.ts; its refusals reach the person as the request's error. */
export function teamHandlers(ctx: HandlerContext): FeatureHandlers<typeof teamChannels> {
  const team = <T>(work: () => T | Promise<T>): Promise<T> => refusing([teamControl.TeamControlError], work)
  const tell = (level: 'info' | 'error', message: string): void => {
    ctx.bus.emit({ type: 'notice', level, message, agentId: LEADER_NAME, agentName: LEADER_NAME })
  }
  return {
    'team.spawnOptions': async () =>
      teamControl.spawnOptions(ctx.session(), ctx.settings.defaultBackend, ctx.settings.hostNames),
    'team.create': async (payload) => {
      const created = await team(() => teamControl.createTeam(ctx.session(), payload.name, payload.description))
      tell('info', `A person created team '${created}' from the workspace.`)
      return { team: created }
    },
    'teams.stale': async () => ({ teams: await teamControl.staleTeams(ctx.session()) }),
    'teams.deleteStale': async (payload) => {
      const removed = await team(() => teamControl.deleteStaleTeam(ctx.session(), payload.team))
      tell(
        'info',
        `A person deleted the stale team '${removed.team}'${removed.killed ? ` (${removed.killed} leftover teammate process(es) killed)` : ''}.`
      )
      return removed
    },
    'team.editAllowedPath': (payload) => ctx.allowedPaths.edit(payload.action, payload.path),
    'teammate.spawn': async (payload) => {
      ctx.leader.requireModel('A teammate')
      return team(() => teamControl.spawnTeammate(ctx.session(), payload))
    },
    'teammate.message': async (payload) => {
      await team(() => teamControl.messageTeammate(ctx.session(), payload.name, payload.text))
      return { ok: true }
    },
    'teammate.shutdown': async (payload) => {
      await team(async () =>
        teamControl.shutdownTeammate(ctx.session(), payload.name, payload.reason, (outcome) => {
          if (outcome === 'rejected') tell('info', `${payload.name} declined to shut down and keeps working.`)
          else if (outcome.startsWith('failed')) tell('error', `Shutting down ${payload.name} ${outcome}`)
        })
      )
      return { ok: true }
    },
    'teammate.kill': async (payload) => {
      await team(() => teamControl.killTeammate(ctx.session(), payload.name))
      return { ok: true }
    }
  }
}
