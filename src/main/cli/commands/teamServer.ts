import { deleteStaleServerTeam, listServerTeams, type ServerTeam, type TeamTransport } from '../../runtime/teamStore'
import { withCommandStore } from '../teamTransport'
import { teamCommandFailure } from './teamFailure'

const out = (text: string) => process.stdout.write(text + '\n')

/**
 * `swarmdesk team list --team-transport nats://…` (docs/nats.md#the-leader-lease): the teams on the
 * server with their leader's state, handed to `print` with where they are (team.ts prints them as
 * it prints the data directory's). Exit 1 when the server is unusable.
 */
export function listServerTeamsCommand(
  transport: TeamTransport,
  print: (teams: ServerTeam[], where: string) => void
): Promise<number> {
  return withCommandStore('team list', transport, async (store) => {
    print(await listServerTeams(store), store.describe)
    return 0
  })
}

/**
 * `swarmdesk team delete --team T --team-transport nats://…`: removes a stale team from the server,
 * refused (exit 1) while its leader beats, as on files. Exit 2 for an unknown team.
 */
export function deleteServerTeamCommand(transport: TeamTransport, team: string): Promise<number> {
  return withCommandStore('team delete', transport, async (store) => {
    try {
      const removed = await deleteStaleServerTeam(store, team)
      out(
        `Deleted stale team '${removed.team}' (${removed.reason}) from ${store.describe}: its config, inboxes and task list are gone.`
      )
      return 0
    } catch (error) {
      return teamCommandFailure('team delete', error)
    }
  })
}
