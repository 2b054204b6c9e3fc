import type { LoadedSettings } from '../../permissions'
import type { TeamTransport } from '../../teamStore'
import type { TeammateHost } from '../../../../shared/teammateHosts'
import type { TeammateBackend } from '../executor'
import { TeammateSpawnError } from '../supervisorOptions'

/**
 * The `teammateHosts` setting (docs/hosts.md#the-teammatehosts-setting): the list of the highest
 * settings source that sets it (a project's list replaces a user's, as every list-valued Swarmdesk
 * setting); none when no source does. Values are validated when the settings load.
 */
export function teammateHostsSetting(settings: Pick<LoadedSettings, 'sources'>): TeammateHost[] {
  let hosts: TeammateHost[] = []
  for (const source of settings.sources) {
    const value = (source.data as Record<string, unknown>).teammateHosts
    if (Array.isArray(value)) hosts = value as TeammateHost[]
  }
  return hosts
}

/**
 * The host a spawn asks for (docs/hosts.md#spawning-on-a-host), checked: undefined when it names
 * none (the teammate runs here).
 * @throws TeammateSpawnError for an unknown host (naming the known ones), a `worker` backend (a
 *   thread cannot run elsewhere), or a team on files (a host shares nothing with the leader but
 *   the team transport: it must be JetStream, docs/nats.md).
 */
export function resolveTeammateHost(
  hosts: readonly TeammateHost[],
  requested: string | undefined,
  backend: TeammateBackend | undefined,
  transport: TeamTransport
): TeammateHost | undefined {
  if (requested === undefined || requested === '') return undefined
  const host = hosts.find((h) => h.name === requested)
  if (!host) {
    const known = hosts.map((h) => h.name)
    throw new TeammateSpawnError(
      known.length
        ? `No teammate host named '${requested}': the teammateHosts setting has ${known.map((n) => `'${n}'`).join(', ')}.`
        : `No teammate host named '${requested}': the teammateHosts setting names no hosts (docs/hosts.md). Omit host to run the teammate here.`
    )
  }
  if (backend === 'worker')
    throw new TeammateSpawnError(
      `A teammate on host '${host.name}' runs on the process backend; a worker thread runs only here. Omit backend or use "process".`
    )
  if (transport.kind !== 'nats')
    throw new TeammateSpawnError(
      `A teammate on host '${host.name}' needs the team on a NATS JetStream transport (--team-transport nats://… or the teamTransport setting, docs/nats.md): this team is on files, which another host cannot reach.`
    )
  return host
}

/**
 * The host a member of the team config runs on when it is resumed (docs/hosts.md#resume): its
 * recorded `host` looked up again in the setting as it is now; undefined for a member that ran here.
 * @throws TeammateSpawnError naming the member and the hosts the setting has when its host is no
 *   longer there (it is never started here instead), or the team is no longer on JetStream.
 */
export function memberHost(
  hosts: readonly TeammateHost[],
  member: { name: string; host?: string },
  transport: TeamTransport
): TeammateHost | undefined {
  if (member.host === undefined) return undefined
  if (!hosts.some((h) => h.name === member.host)) {
    const known = hosts.map((h) => `'${h.name}'`).join(', ')
    throw new TeammateSpawnError(
      `'${member.name}' ran on host '${member.host}', which the teammateHosts setting no longer has (${known ? `it has ${known}` : 'it names no hosts'}), so it is not started again, neither there nor here. Add '${member.host}' back to the setting and resume it, or spawn a new teammate.`
    )
  }
  return resolveTeammateHost(hosts, member.host, 'process', transport)
}
