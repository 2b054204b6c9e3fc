import { existsSync } from 'node:fs'
import { parseCommandArgs, UsageError } from '../io'
import { claudeConfigDir, readSessions, readTeam, teamNames, type ClaudeTeam, type Unreadable } from './tree'

const USAGE =
  'Use: swarmdesk claude sessions list [--json] | swarmdesk claude teams list [--json] | swarmdesk claude teams show TEAM [--json]'

/** Each unreadable file as one warning line on stderr: stdout stays one JSON document. */
function warn(unreadable: readonly Unreadable[]): void {
  for (const u of unreadable) process.stderr.write(`swarmdesk claude: warning: ${u.path}: ${u.reason}\n`)
}

function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : human())
}

function teamLine(t: ClaudeTeam): string {
  const active = t.members.filter((m) => m.status === 'active').length
  return `${t.name}  ${t.status}  ${active} active / ${t.members.length} members  ${t.tasks.length} tasks  ${t.messages.length} messages\n`
}

function teamText(t: ClaudeTeam): string {
  const lines = [
    `Team ${t.name} (${t.status})${t.leadSessionId ? `, lead session ${t.leadSessionId}` : ''}`,
    'Members:'
  ]
  for (const m of t.members)
    lines.push(
      `  ${m.name}  ${m.status}${m.agentId ? `  ${m.agentId}` : ''}${m.seenIn.length ? `  seen in: ${m.seenIn.join(', ')}` : ''}`
    )
  lines.push('Tasks:')
  for (const k of t.tasks)
    lines.push(
      `  #${k.id}  ${k.status}  ${k.subject}${k.owner ? `  (${k.owner})` : ''}${k.blockedBy.length ? `  blocked by ${k.blockedBy.join(', ')}` : ''}${k.blocks.length ? `  blocks ${k.blocks.join(', ')}` : ''}`
    )
  lines.push('Messages:')
  for (const m of t.messages)
    lines.push(
      `  ${m.timestamp ?? ''}  ${m.from} → ${m.to}  ${m.protocol ? `[${m.protocol}]` : (m.summary ?? m.text.slice(0, 80))}`
    )
  return `${lines.join('\n')}\n`
}

/**
 * `swarmdesk claude sessions list` and `swarmdesk claude teams list|show TEAM`
 * (docs/events.md#claude-code-sessions-and-teams): read Claude Code's `~/.claude` (or
 * `CLAUDE_CONFIG_DIR`). `--json` prints exactly one JSON document on stdout; files that do not
 * parse are warned about on stderr by path (and listed in a team's `unreadable`).
 * @returns 0, or 1 when `teams show` names a team not found; UsageError (exit 2) for bad usage.
 */
export async function claudeCommand(argv: string[]): Promise<number> {
  const [group, sub, ...rest] = argv
  const key = `${group ?? ''} ${sub ?? ''}`
  if (key !== 'sessions list' && key !== 'teams list' && key !== 'teams show')
    throw new UsageError(`swarmdesk claude: unknown subcommand '${key.trim()}'. ${USAGE}`)
  const { values, positionals } = parseCommandArgs(`claude ${key}`, rest, { json: { type: 'boolean' } }, true)
  const json = values.json === true
  const root = claudeConfigDir()
  if (!existsSync(root))
    process.stderr.write(
      `swarmdesk claude: warning: ${root} does not exist (set CLAUDE_CONFIG_DIR to Claude Code's config folder)\n`
    )

  if (key === 'sessions list') {
    if (positionals.length > 0)
      throw new UsageError(`swarmdesk claude sessions list: unexpected argument '${positionals[0]}'. ${USAGE}`)
    const { sessions, unreadable } = readSessions(root)
    warn(unreadable)
    print(json, sessions, () =>
      sessions.length === 0
        ? 'No Claude Code sessions found.\n'
        : sessions.map((s) => `${s.sessionId}  ${s.status}${s.pid ? `  pid ${s.pid}` : ''}  ${s.cwd ?? ''}\n`).join('')
    )
    return 0
  }
  if (key === 'teams list') {
    if (positionals.length > 0)
      throw new UsageError(`swarmdesk claude teams list: unexpected argument '${positionals[0]}'. ${USAGE}`)
    const teams = teamNames(root).map((name) => readTeam(root, name)!)
    warn(teams.flatMap((t) => t.unreadable))
    print(json, teams, () => (teams.length === 0 ? 'No Claude Code teams found.\n' : teams.map(teamLine).join('')))
    return 0
  }
  if (positionals.length !== 1)
    throw new UsageError(`swarmdesk claude teams show: give one TEAM (see: swarmdesk claude teams list). ${USAGE}`)
  const team = readTeam(root, positionals[0]!)
  if (!team) {
    process.stderr.write(
      `swarmdesk claude teams show: no team '${positionals[0]}' under ${root}/teams or ${root}/tasks. See: swarmdesk claude teams list\n`
    )
    if (json) process.stdout.write('null\n')
    return 1
  }
  warn(team.unreadable)
  print(json, team, () => teamText(team))
  return 0
}
