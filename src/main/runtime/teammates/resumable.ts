import type { TeamMember } from '../../../shared/teams'
import type { TeamContext } from '../teamStore'
import type { TeammateBackend, TeammateExecutorRegistry } from './executor'
import { TeammateSpawnError } from './supervisorOptions'

/**
 * The member `name` of the session's team as a resume finds it (restore after restart,
 * docs/teams.md#teammate-life-cycle): its config entry and backend, checked.
 * @throws TeammateSpawnError with no team, a name no longer in the team, a teammate still running
 *   (`running`), or a backend not available here.
 */
export async function resumableMember(
  context: Pick<TeamContext, 'team' | 'store'>,
  registry: Pick<TeammateExecutorRegistry, 'has'>,
  name: string,
  running: boolean
): Promise<{ team: string; member: TeamMember; backend: TeammateBackend }> {
  const team = context.team()
  if (!team)
    throw new TeammateSpawnError(`There is no team, so '${name}' cannot be resumed; create a team and spawn it again.`)
  const member = (await context.store.config.read(team)).members.find((m) => m.name === name)
  if (!member)
    throw new TeammateSpawnError(`'${name}' is no longer a member of team '${team}'; spawn it again instead.`)
  if (running) throw new TeammateSpawnError(`${name} is already running.`)
  const backend = member.backendType as TeammateBackend
  if (!registry.has(backend)) throw new TeammateSpawnError(`The '${backend}' teammate backend is not available here.`)
  return { team, member, backend }
}
