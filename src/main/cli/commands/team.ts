import type { TeamConfig } from '../../../shared/teams'
import { TeamStore, type LeaderStatus } from '../../runtime/teams'
import { swarmdeskHome } from '../../runtime/storage'
import { parseCommandArgs, UsageError } from '../io'
import type { ServerLeaderStatus, TeamTransport } from '../../runtime/teamStore'
import { commandTransport, TEAM_TRANSPORT_FLAG, withCommandStore } from '../teamTransport'
import { TEAM_PATHS_USAGE, teamPathsCommand } from './teamPaths'
import { deleteServerTeamCommand, listServerTeamsCommand } from './teamServer'
import { teamCommandFailure } from './teamFailure'

const USAGE = `Use: swarmdesk team list [--json] [--team-transport nats://host:port]
     swarmdesk team show --team T [--json] [--team-transport nats://host:port]
     swarmdesk team delete --team T [--team-transport nats://host:port]
                                      delete a stale team (its leader session is gone): its config,
                                      inboxes, task list and its teammates' leftover processes
${TEAM_PATHS_USAGE}`
const out = (text: string) => process.stdout.write(text + '\n')

/** How `team list --json` states a team's leader: alive (its session and pid) or stale (why); `host` for a team on a server. */
export type LeaderJson =
  | { state: 'alive'; sessionId: string; pid: number; host?: string }
  | { state: 'stale'; reason: string; sessionId?: string; pid?: number; host?: string }

function leaderJson(status: LeaderStatus): LeaderJson {
  if (status.state === 'alive') return { state: 'alive', sessionId: status.lease.sessionId, pid: status.lease.pid }
  return {
    state: 'stale',
    reason: status.reason,
    ...(status.lease ? { sessionId: status.lease.sessionId, pid: status.lease.pid } : {})
  }
}

/** A server lease as `team list --json` states it: the file lease's fields, with the host it runs on. */
function serverLeaderJson(status: ServerLeaderStatus): LeaderJson {
  if (status.state === 'alive') {
    const { sessionId, pid, host } = status.lease
    return { state: 'alive', sessionId, pid, host }
  }
  const l = status.lease
  return { state: 'stale', reason: status.reason, ...(l ? { sessionId: l.sessionId, pid: l.pid, host: l.host } : {}) }
}

/**
 * `swarmdesk team list|show|delete` (docs/events.md#event-stream-and-command-line; `allow|disallow` in teamPaths.ts): the teams under `<home>/teams/`
 * (or, with a JetStream transport, on the server: teamServer.ts, docs/nats.md#the-leader-lease), one team's config,
 * and the removal of a stale team (teams/leader.ts: its leader session is gone, after a crash or a
 * new session). `list` says of each team whether its leader is alive or it is stale, and counts no
 * member of a stale team as active; `list --json` prints an array of configs, each with `leader`
 * ({@link LeaderJson}); unreadable configs are named on stderr and skipped.
 * Exit codes: 0; 1 a config that cannot be read, or `delete` of a team whose leader is alive;
 * 2 bad usage or an unknown team.
 */
export async function teamCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === 'allow' || sub === 'disallow') return teamPathsCommand(sub, rest)
  const store = new TeamStore(swarmdeskHome())
  if (sub === 'list') {
    const { values } = parseCommandArgs('team list', rest, { json: { type: 'boolean' }, ...TEAM_TRANSPORT_FLAG })
    const transport = commandTransport('team list', values['team-transport'])
    if (transport.kind === 'nats')
      return listServerTeamsCommand(transport, (teams, where) => {
        const listed = teams.map((t) => ({ ...t.config, leader: serverLeaderJson(t.leader) }))
        if (values.json) out(JSON.stringify(listed))
        else out(listed.length === 0 ? `No teams on ${where}.` : formatTeamList(listed))
      })
    const { teams, problems } = store.list()
    for (const p of problems) process.stderr.write(`swarmdesk team list: warning: skipped ${p.file}: ${p.problem}\n`)
    const listed = teams.map((t) => ({ ...t, leader: leaderJson(store.leaderStatus(t.name)) }))
    if (values.json) out(JSON.stringify(listed))
    else out(listed.length === 0 ? 'No teams.' : formatTeamList(listed))
    return 0
  }
  if (sub === 'delete') {
    const { values } = parseCommandArgs('team delete', rest, { team: { type: 'string' }, ...TEAM_TRANSPORT_FLAG })
    if (!values.team) throw new UsageError(`swarmdesk team delete: --team is required.\n${USAGE}`)
    const transport = commandTransport('team delete', values['team-transport'])
    if (transport.kind === 'nats') return deleteServerTeamCommand(transport, values.team)
    try {
      const removed = await store.deleteStale(values.team)
      const killed = removed.leftovers.killed.length
        ? ` Killed ${removed.leftovers.killed.length} leftover teammate process(es): ${removed.leftovers.killed.join(', ')}.`
        : ''
      out(
        `Deleted stale team '${removed.team}' (${removed.reason}): its config, inboxes and task list are gone.${killed}`
      )
      if (removed.leftovers.survivors.length)
        process.stderr.write(
          `swarmdesk team delete: still running despite SIGKILL: ${removed.leftovers.survivors.join(', ')}\n`
        )
      return 0
    } catch (error) {
      // TeamLeaderAliveError (the team is not stale) or an unreadable config: exit 1
      return teamCommandFailure('team delete', error)
    }
  }
  if (sub === 'show') {
    const { values } = parseCommandArgs('team show', rest, {
      team: { type: 'string' },
      json: { type: 'boolean' },
      ...TEAM_TRANSPORT_FLAG
    })
    if (!values.team) throw new UsageError(`swarmdesk team show: --team is required.\n${USAGE}`)
    const team = values.team
    const transport = commandTransport('team show', values['team-transport'])
    let config: TeamConfig
    try {
      config = transport.kind === 'files' ? store.read(team) : await readOverTransport(transport, team)
    } catch (error) {
      if (error instanceof TeamStoreExit) return error.code
      return teamCommandFailure('team show', error)
    }
    out(values.json ? JSON.stringify(config) : formatTeam(config))
    return 0
  }
  throw new UsageError(`swarmdesk team: unknown subcommand '${sub ?? ''}'. ${USAGE}`)
}

/** An unusable team store server, already reported on stderr by withCommandStore. */
class TeamStoreExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}

/** A team's config from the team store of `transport`. @throws TeamStoreExit when the server is unusable. */
async function readOverTransport(transport: TeamTransport, team: string): Promise<TeamConfig> {
  let config: TeamConfig | undefined
  const code = await withCommandStore('team show', transport, async (s) => {
    config = await s.config.read(team)
    return 0
  })
  if (config === undefined) throw new TeamStoreExit(code)
  return config
}

/**
 * The human view of `team list`: one line per team — name, leader state, members, description —
 * and, when any is stale, how to remove it. A stale team's members are never counted active: their
 * `isActive` flags are what its leader's end left behind.
 */
export function formatTeamList(teams: Array<TeamConfig & { leader: LeaderJson }>): string {
  const rows = teams.map((t) => [
    t.name,
    t.leader.state === 'alive'
      ? `${t.members.filter((m) => m.isActive).length}/${t.members.length} active`
      : `STALE, ${t.members.length} member${t.members.length === 1 ? '' : 's'}`,
    [t.description, t.leader.state === 'stale' ? `(${t.leader.reason})` : ''].filter(Boolean).join(' ')
  ])
  const widths = [0, 1].map((i) => Math.max(...rows.map((r) => r[i].length)))
  const lines = rows.map((r) => [r[0].padEnd(widths[0]), r[1].padEnd(widths[1]), r[2]].join('  ').trimEnd())
  if (teams.some((t) => t.leader.state === 'stale'))
    lines.push(
      '',
      "A stale team's leader session is gone. Remove one with: swarmdesk team delete --team NAME (or create a team of that name)."
    )
  return lines.join('\n')
}

/** The human view of `team show`: a header, then one row per member. */
export function formatTeam(c: TeamConfig): string {
  const rows = [
    ['NAME', 'AGENT ID', 'TYPE', 'MODEL', 'BACKEND', 'COLOR', 'MODE', 'ACTIVE'],
    ...c.members.map((m) => [
      m.name,
      m.agentId,
      m.agentType,
      m.model,
      m.backendType,
      m.color,
      m.mode,
      m.isActive ? 'yes' : 'no'
    ])
  ]
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  const table = rows
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  '))
    .join('\n')
  const extra = c.allowedPaths.length ? `\nallowed paths: ${c.allowedPaths.join(', ')}` : ''
  return `${c.name}${c.description ? ` — ${c.description}` : ''}\nlead: ${c.leadAgentId}  created: ${c.createdAt}${extra}\n\n${table}`
}
