import type { TeamConfig } from '../../../shared/teams'
import { TeamLeaderAliveError, TeamNotFoundError } from '../teams'
import type { ServerLeaderStatus, TeamStorePort } from './port'

/** A team on a server with its leader's state (docs/nats.md#the-leader-lease). */
export interface ServerTeam {
  config: TeamConfig
  leader: ServerLeaderStatus
}

/**
 * Every team on the JetStream store `store` with its leader's state, by name
 * (`swarmdesk team list --team-transport`, the dashboard's stale teams). A team deleted while
 * listed is left out. Empty on files, whose teams are listed from their folders (TeamStore.list).
 */
export async function listServerTeams(store: TeamStorePort): Promise<ServerTeam[]> {
  if (!store.leader) return []
  const out: ServerTeam[] = []
  for (const name of await store.leader.teams()) {
    try {
      const [config, leader] = await Promise.all([store.config.read(name), store.leader.status(name)])
      out.push({ config, leader })
    } catch (error) {
      if (!(error instanceof TeamNotFoundError)) throw error
    }
  }
  return out
}

/**
 * Removes a stale team from the JetStream store (docs/nats.md#the-leader-lease): its config, lease,
 * task list, read marks and inboxes' messages. Its members are marked inactive first (their flags
 * are what its leader's end left behind). A teammate of it still running somewhere is not stopped:
 * it finds its team gone at its next send. Returns why it was stale.
 * @throws TeamLeaderAliveError while its leader beats; TeamNotFoundError when there is no such team.
 */
export async function deleteStaleServerTeam(
  store: TeamStorePort,
  team: string
): Promise<{ team: string; reason: string }> {
  if (!store.leader) throw new Error('deleteStaleServerTeam: the store is not on a server')
  const config = await store.config.read(team)
  const status = await store.leader.status(config.name)
  if (status.state === 'alive') throw new TeamLeaderAliveError(config.name, status.lease.sessionId, status.lease.pid)
  await store.config.update(config.name, (c) => ({
    ...c,
    members: c.members.map((m) => (m.agentId === c.leadAgentId ? m : { ...m, isActive: false }))
  }))
  await store.config.delete(config.name)
  return { team: config.name, reason: status.reason }
}
