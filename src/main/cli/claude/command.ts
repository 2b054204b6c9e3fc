import { statSync } from 'node:fs'
import { parseCommandArgs, UsageError } from '../io'
import { claudeConfigDir, readSessions, readTeam, teamNames, type ClaudeTeam, type Unreadable } from './tree'

const USAGE =
  'Use: swarmdesk claude sessions list [--json] | swarmdesk claude teams list [--json] | swarmdesk claude teams show TEAM [--json]'

/** The subcommands of `swarmdesk claude`, two words each: the whole of it names the command in every message. */
export const CLAUDE_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  sessions: ['list'],
  teams: ['list', 'show']
}

/** The usage error for `swarmdesk claude GROUP SUB` that is not one of {@link CLAUDE_SUBCOMMANDS}. */
function unknownSubcommand(group: string | undefined, sub: string | undefined): UsageError {
  if (group === undefined)
    return new UsageError(`swarmdesk claude: give a subcommand: sessions list, teams list or teams show TEAM. ${USAGE}`)
  const subs = CLAUDE_SUBCOMMANDS[group]
  if (!subs) return new UsageError(`swarmdesk claude: unknown subcommand '${group}' (use sessions or teams). ${USAGE}`)
  const which = subs.join(' or ')
  return new UsageError(
    sub === undefined
      ? `swarmdesk claude ${group}: give a subcommand: ${which}. ${USAGE}`
      : `swarmdesk claude ${group}: unknown subcommand '${sub}' (use ${which}). ${USAGE}`
  )
}

/**
 * Claude Code's config folder, checked: a `CLAUDE_CONFIG_DIR` that is not a folder is bad input
 * (a typo would otherwise read as "no sessions"); a missing `~/.claude` only means Claude Code has
 * not run as this user, which is a warning.
 * @throws UsageError when `CLAUDE_CONFIG_DIR` names no folder.
 */
function configFolder(who: string): string {
  const root = claudeConfigDir()
  let problem: string | undefined
  try {
    if (!statSync(root).isDirectory()) problem = 'is not a folder'
  } catch {
    problem = 'does not exist'
  }
  if (problem === undefined) return root
  if (process.env.CLAUDE_CONFIG_DIR)
    throw new UsageError(
      `${who}: CLAUDE_CONFIG_DIR is ${root}, which ${problem}. Set it to the folder Claude Code writes ` +
        `its sessions/, projects/ and teams/ to, or unset it to read ${claudeConfigDir({})}.`
    )
  process.stderr.write(
    `${who}: warning: ${root} ${problem}: has Claude Code run as this user? If its config folder is elsewhere, set CLAUDE_CONFIG_DIR to it.\n`
  )
  return root
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
  if (group === undefined || sub === undefined || !CLAUDE_SUBCOMMANDS[group]?.includes(sub))
    throw unknownSubcommand(group, sub)
  const key = `${group} ${sub}`
  const who = `swarmdesk claude ${key}`
  const { values, positionals } = parseCommandArgs(`claude ${key}`, rest, { json: { type: 'boolean' } }, true)
  const json = values.json === true
  const root = configFolder(who)
  /** Each unreadable file as one warning line on stderr: stdout stays one JSON document. */
  const warn = (unreadable: readonly Unreadable[]) => {
    for (const u of unreadable) process.stderr.write(`${who}: warning: ${u.path}: ${u.reason}\n`)
  }

  if (key === 'sessions list') {
    if (positionals.length > 0) throw new UsageError(`${who}: unexpected argument '${positionals[0]}'. ${USAGE}`)
    const { sessions, unreadable } = readSessions(root)
    warn(unreadable)
    print(json, sessions, () =>
      sessions.length === 0
        ? 'No Claude Code sessions found.\n'
        : sessions
            .map(
              (s) =>
                `${s.sessionId}  ${s.status}${s.pid ? `  pid ${s.pid}` : ''}  ${s.cwd ?? ''}${s.title ? `  "${s.title}"` : ''}\n`
            )
            .join('')
    )
    return 0
  }
  if (key === 'teams list') {
    if (positionals.length > 0) throw new UsageError(`${who}: unexpected argument '${positionals[0]}'. ${USAGE}`)
    const teams = teamNames(root).map((name) => readTeam(root, name)!)
    warn(teams.flatMap((t) => t.unreadable))
    print(json, teams, () => (teams.length === 0 ? 'No Claude Code teams found.\n' : teams.map(teamLine).join('')))
    return 0
  }
  if (positionals.length !== 1)
    throw new UsageError(
      `${who}: give one TEAM, got ${positionals.length === 0 ? 'none' : positionals.map((p) => `'${p}'`).join(' ')} (see: swarmdesk claude teams list). ${USAGE}`
    )
  const team = readTeam(root, positionals[0]!)
  if (!team) {
    process.stderr.write(
      `${who}: no team '${positionals[0]}' under ${root}/teams or ${root}/tasks. See: swarmdesk claude teams list\n`
    )
    if (json) process.stdout.write('null\n')
    return 1
  }
  warn(team.unreadable)
  print(json, team, () => teamText(team))
  return 0
}
