import { agentsCommand } from './commands/agents'
import { demoCommand } from './commands/demo'
import { mailboxCommand } from './commands/mailbox'
import { permissionsCheckCommand } from './commands/permissionsCheck'
import { runCommand } from './commands/run'
import { scriptedServerCommand } from './commands/scriptedServer'
import { serveCommand } from './commands/serve'
import { sessionsCommand } from './commands/sessions'
import { tasksCommand } from './commands/tasks'
import { teamCommand } from './commands/team'
import { teammateCommand } from './commands/teammate'
import { UsageError } from './io'
import { resolveToolSubject } from './toolSubjects'

/** The commands of this version and a line of help each. */
const HELP = `swarmdesk — a workspace for teams of LLM agents

Usage:
  swarmdesk run [--cwd DIR] [--scenario FILE] [--model ID] [--permission-mode MODE]
                [--settings FILE] [--trust-project] [--max-turns N] [--max-budget-usd X]
                [--resume SESSION_ID] [--fork] [--coordinator] [--json] [--approve all|none|ask] [PROMPT]
  swarmdesk sessions list [--cwd DIR] [--json]
  swarmdesk demo [--headless] [--json] [--approve all|none|ask]
  swarmdesk serve [--cwd DIR] [--port N] [--scenario FILE] [--model ID] [--permission-mode MODE] [--fork] [--coordinator]
                  [--settings FILE] [--trust-project] [--new-session]   (reopens the last session unless --new-session)
  swarmdesk scripted-server --scenario FILE [--port N]
  swarmdesk permissions check --cwd DIR [--mode MODE] [--settings FILE] --tool NAME --input JSON
  swarmdesk permissions check --batch FILE [--cwd DIR] [--mode MODE] [--settings FILE]
  swarmdesk agents list [--cwd DIR] [--json]
  swarmdesk mailbox send --team T --to NAME --from NAME (--text S | --json OBJ)
  swarmdesk mailbox read --team T --agent NAME [--unread] [--mark-read] [--json]
  swarmdesk tasks list|create|claim|update|delete … --team T [--json]
  swarmdesk team list|show [--team T] [--json]
  swarmdesk team delete --team T        remove a stale team (its leader session is gone)
  swarmdesk teammate --team T --name N [--cwd DIR]
  swarmdesk help

Environment: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, SWARMDESK_HOME (default ~/.swarmdesk),
SWARMDESK_MODEL, SWARMDESK_SUBAGENT_MODEL, SWARMDESK_AUTO_BACKGROUND_MS. Exit codes: 0 success, 1 the run failed, 2 bad usage or bad input.
`

/**
 * The headless command line (SPEC §14). Resolves to the process exit code: 0 success, 1 the run
 * failed, 2 bad usage or bad input (with a message on stderr naming what was wrong).
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
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
      case 'permissions':
        if (rest[0] !== 'check') throw new UsageError(`swarmdesk permissions: unknown subcommand '${rest[0] ?? ''}'. Use: swarmdesk permissions check …`)
        return await permissionsCheckCommand(rest.slice(1), resolveToolSubject)
      case 'help':
      case '--help':
      case '-h':
      case undefined:
        process.stdout.write(HELP)
        return command === undefined ? 2 : 0
      default:
        throw new UsageError(`swarmdesk: unknown command '${command}'. Run 'swarmdesk help' for the list.`)
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`)
      return 2
    }
    throw error
  }
}
