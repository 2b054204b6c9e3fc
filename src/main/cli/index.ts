import { agentsCommand } from './commands/agents'
import { mcpCommand } from './commands/mcp'
import { demoCommand } from './commands/demo'
import { mailboxCommand } from './commands/mailbox'
import { permissionsCheckCommand } from './commands/permissionsCheck'
import { runCommand } from './commands/run'
import { scriptedServerCommand } from './commands/scriptedServer'
import { CLAUDE_SUBCOMMANDS, claudeCommand } from './claude/command'
import { serveCommand } from './commands/serve'
import { sessionsCommand } from './commands/sessions'
import { tasksCommand } from './commands/tasks'
import { teamCommand } from './commands/team'
import { teammateCommand } from './commands/teammate'
import { helpFor, swarmdeskVersion } from './help'
import { UsageError } from './io'
import { resolveToolSubject } from './toolSubjects'

/** The commands of this version and a line of help each. */
const HELP = `swarmdesk — a workspace for teams of LLM agents

Usage:
  swarmdesk run [--cwd DIR] [--scenario FILE] [--model ID] [--permission-mode MODE]
                [--settings FILE] [--trust-project] [--max-turns N] [--max-budget-usd X]
                [--resume SESSION_ID] [--fork] [--coordinator] [--json] [--approve all|none|ask]
                [--team-transport URL] [PROMPT]
  swarmdesk sessions list [--cwd DIR] [--json]
  swarmdesk demo [--headless] [--json] [--approve all|none|ask]
  swarmdesk serve [--cwd DIR] [--port N] [--scenario FILE] [--model ID] [--permission-mode MODE] [--fork] [--coordinator]
                  [--settings FILE] [--trust-project] [--new-session] [--claude-session] [--claude-path FILE]
                  [--team-transport URL]
  swarmdesk scripted-server --scenario FILE [--port N] [--quiet]
  swarmdesk claude sessions list | teams list | teams show TEAM [--json]
  swarmdesk permissions check --cwd DIR [--mode MODE] [--settings FILE] --tool NAME --input JSON
  swarmdesk permissions check --batch FILE [--cwd DIR] [--mode MODE] [--settings FILE]
  swarmdesk agents list [--cwd DIR] [--json]
  swarmdesk mcp list [--cwd DIR] [--mcp-config FILE]… [--json]
  swarmdesk mcp get NAME | remove NAME [--scope S] | add [--scope local|project|user] NAME -- COMMAND [ARGS…]
  swarmdesk mcp add --transport http|sse [-H 'Name: value']… NAME URL   [--cwd DIR] [--json] on each
  swarmdesk mailbox send --team T --to NAME --from NAME (--text S | --json OBJ)
  swarmdesk mailbox read --team T --agent NAME [--unread] [--mark-read] [--json]
  swarmdesk tasks list|create|claim|update|delete … --team T [--json]
  swarmdesk team list|show [--team T] [--json]
  swarmdesk team allow|disallow --team T DIR
  swarmdesk team delete --team T        remove a stale team (its leader session is gone)
  swarmdesk teammate --team T --name N [--cwd DIR]
  swarmdesk help [COMMAND]          also: swarmdesk COMMAND [SUBCOMMAND] --help (or -h)
  swarmdesk --version              (or -V)

Relative paths given to flags are read from the directory you run the command in.
Environment: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, SWARMDESK_HOME (default ~/.swarmdesk),
SWARMDESK_MODEL, SWARMDESK_SUBAGENT_MODEL, SWARMDESK_AUTO_BACKGROUND_MS. Exit codes: 0 success, 1 the run failed, 2 bad usage or bad input.
`

/**
 * The headless command line (docs/events.md#event-stream-and-command-line). Resolves to the process exit code: 0 success, 1 the run
 * failed, 2 bad usage or bad input (with a message on stderr naming what was wrong).
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === '--version' || command === '-V' || command === 'version') {
    process.stdout.write(`swarmdesk ${swarmdeskVersion()}\n`)
    return 0
  }
  const help = helpFor(argv)
  if (help !== undefined) {
    process.stdout.write(help || HELP)
    return 0
  }
  try {
    switch (command) {
      case 'run':
        return await runCommand(rest)
      case 'sessions':
        return await sessionsCommand(rest)
      case 'demo':
        return await demoCommand(rest)
      case 'serve':
        return await serveCommand(rest)
      case 'agents':
        return await agentsCommand(rest)
      case 'mcp':
        return await mcpCommand(rest)
      case 'mailbox':
        return await mailboxCommand(rest)
      case 'tasks':
        return await tasksCommand(rest)
      case 'team':
        return await teamCommand(rest)
      case 'teammate':
        return await teammateCommand(rest)
      case 'scripted-server':
        return await scriptedServerCommand(rest)
      case 'claude':
        return await claudeCommand(rest)
      case 'permissions':
        if (rest[0] !== 'check')
          throw new UsageError(
            `swarmdesk permissions: unknown subcommand '${rest[0] ?? ''}'. Use: swarmdesk permissions check …`
          )
        return await permissionsCheckCommand(rest.slice(1), resolveToolSubject)
      case undefined:
        process.stdout.write(HELP)
        return 2
      default:
        throw new UsageError(`swarmdesk: unknown command '${command}'. Run 'swarmdesk help' for the list.`)
    }
  } catch (error) {
    const who = commandName(argv)
    if (error instanceof UsageError) {
      process.stderr.write(`${withPrefix(who, error.message)}\n`)
      return 2
    }
    // a defect, not bad input: still say which command failed, with the stack to report
    process.stderr.write(`${who}: internal error: ${(error as Error)?.stack ?? String(error)}\n`)
    return 1
  }
}

/** Commands whose second word is a subcommand (its name is part of the error prefix). */
const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  sessions: ['list'],
  permissions: ['check'],
  agents: ['list'],
  mcp: ['list', 'get', 'add', 'remove'],
  mailbox: ['send', 'read'],
  tasks: ['list', 'create', 'claim', 'update', 'delete'],
  team: ['list', 'show', 'delete']
}

/** `swarmdesk <command>[ <subcommand>]` as typed, for the prefix of every error message. */
function commandName(argv: readonly string[]): string {
  const [command, sub, third] = argv
  if (command === undefined) return 'swarmdesk'
  if (command === 'claude' && CLAUDE_SUBCOMMANDS[sub ?? '']?.includes(third ?? ''))
    return `swarmdesk claude ${sub} ${third}`
  return SUBCOMMANDS[command]?.includes(sub ?? '') ? `swarmdesk ${command} ${sub}` : `swarmdesk ${command}`
}

/** Every error starts with `swarmdesk <command>:`; messages thrown deep in a command may not say it. */
function withPrefix(who: string, message: string): string {
  return message.startsWith('swarmdesk ') || message.startsWith('swarmdesk:') ? message : `${who}: ${message}`
}
