import type { TeamConfig } from '../../../shared/teams'
import { TeamError, TeamNameError, TeamNotFoundError, TeamStore } from '../../runtime/teams'
import { swarmdeskHome } from '../../runtime/transcripts/paths'
import { parseCommandArgs, UsageError } from '../io'

const USAGE = 'Use: swarmdesk team list [--json] | swarmdesk team show --team T [--json]'
const out = (text: string) => process.stdout.write(text + '\n')

/**
 * `swarmdesk team list|show` (SPEC §14): the teams under `<home>/teams/` and one team's config.
 * `list --json` prints an array of configs; unreadable configs are named on stderr and skipped.
 * Exit codes: 0; 1 a config that cannot be read; 2 bad usage or an unknown team.
 */
export async function teamCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  const store = new TeamStore(swarmdeskHome())
  if (sub === 'list') {
    const { values } = parseCommandArgs('team list', rest, { json: { type: 'boolean' } })
    const { teams, problems } = store.list()
    for (const p of problems) process.stderr.write(`swarmdesk team list: warning: skipped ${p.file}: ${p.problem}\n`)
    if (values.json) out(JSON.stringify(teams))
    else out(teams.length === 0 ? 'No teams.' : teams.map((t) => `${t.name}  ${t.members.filter((m) => m.isActive).length}/${t.members.length} active  ${t.description}`).join('\n'))
    return 0
  }
  if (sub === 'show') {
    const { values } = parseCommandArgs('team show', rest, { team: { type: 'string' }, json: { type: 'boolean' } })
    if (!values.team) throw new UsageError(`swarmdesk team show: --team is required.\n${USAGE}`)
    let config: TeamConfig
    try {
      config = store.read(values.team)
    } catch (error) {
      if (error instanceof TeamNotFoundError || error instanceof TeamNameError) throw new UsageError(`swarmdesk team show: ${error.message}`)
      if (error instanceof TeamError) {
        process.stderr.write(`swarmdesk team show: ${error.message}\n`)
        return 1
      }
      throw error
    }
    out(values.json ? JSON.stringify(config) : formatTeam(config))
    return 0
  }
  throw new UsageError(`swarmdesk team: unknown subcommand '${sub ?? ''}'. ${USAGE}`)
}

/** The human view of `team show`: a header, then one row per member. */
export function formatTeam(c: TeamConfig): string {
  const rows = [
    ['NAME', 'AGENT ID', 'TYPE', 'MODEL', 'BACKEND', 'COLOR', 'MODE', 'ACTIVE'],
    ...c.members.map((m) => [m.name, m.agentId, m.agentType, m.model, m.backendType, m.color, m.mode, m.isActive ? 'yes' : 'no'])
  ]
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  const table = rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n')
  const extra = c.allowedPaths.length ? `\nallowed paths: ${c.allowedPaths.join(', ')}` : ''
  return `${c.name}${c.description ? ` — ${c.description}` : ''}\nlead: ${c.leadAgentId}  created: ${c.createdAt}${extra}\n\n${table}`
}
