import { packageRoot } from '../runtime/install'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { USER_PERMISSION_MODES } from '../../shared/permissions'

const MODES = USER_PERMISSION_MODES.join('|')

const MODE_LINES = `  --permission-mode MODE    ${MODES}
                            default: ask before edits and non-read-only commands; acceptEdits: edits in
                            the workspace need no question; plan: read-only until a plan is approved;
                            dontAsk: deny what would ask; bypassPermissions: allow all but deny rules
                            (ignored for an untrusted project's settings). Default: the settings' defaultMode.`

const SETTINGS_LINES = `  --settings FILE           extra settings JSON (rules, hooks, defaultMode); repeatable. Relative paths
                            are read from the directory you run the command in, like every path flag.
  --trust-project           trust this workspace's .swarmdesk/settings*.json (hooks, modes, env) for this run`

const APPROVE_LINES = `  --approve all|none|ask    who answers permission questions: all = allow each, none = deny each,
                            ask = ask you at the terminal (the default on a TTY; without one it means none).
                            Every question is still shown and recorded, decided by "approve-flag".`

/**
 * The usage of each command and subcommand, printed by `--help`/`-h` (and `swarmdesk help CMD`).
 * Keys are the command words as typed (`run`, `tasks update`); a group's key (`tasks`) lists its
 * subcommands. Keep each in step with the flags its command parses.
 */
export const USAGES: Readonly<Record<string, string>> = {
  run: `Usage: swarmdesk run [flags] [PROMPT]

Runs the leader headless on PROMPT (or on stdin when no PROMPT is given and stdin is not a TTY),
printing what each agent does, then exits.

  --cwd DIR                 the workspace (default: the current directory)
  --scenario FILE           answer from a scripted-model scenario (YAML or JSON) instead of the API
  --model ID                a model id or alias (opus, sonnet, haiku); default SWARMDESK_MODEL
${MODE_LINES}
${SETTINGS_LINES}
  --mcp-config FILE         MCP servers ({"mcpServers": {...}}, Claude Code's shape); repeatable; they win
                            over settings and .mcp.json and need no approval
  --max-turns N             stop (exit 1) after N model turns of the leader
  --max-budget-usd X        stop (exit 1) once the run has cost X dollars
  --resume SESSION_ID       continue a session of this workspace (see: swarmdesk sessions list)
  --fork                    an Agent call without subagent_type forks the caller
  --coordinator             coordinator mode: the leader only directs worker agents (wins over --fork)
  --json                    print the event stream, one JSON object per line, instead of text
  --team-transport URL      where the team lives: files, or nats://host:port (JetStream; docs/nats.md);
                            default SWARMDESK_TEAM_TRANSPORT, then the teamTransport setting, then files
${APPROVE_LINES}
  -h, --help                this help

Exit codes: 0 success, 1 the run failed (model error, budget, max turns, scenario error, the team's NATS
server unusable), 2 bad usage.
`,
  sessions: `Usage: swarmdesk sessions list [--cwd DIR] [--json]

Subcommands:
  list    the sessions of a workspace, newest first (swarmdesk sessions list --help)
`,
  'sessions list': `Usage: swarmdesk sessions list [--cwd DIR] [--json]

Lists the sessions of a workspace, newest activity first: id, last activity, transcript lines and
the first prompt. Resume one with swarmdesk run --resume ID.

  --cwd DIR     the workspace (default: the current directory); it must exist (exit 2 otherwise)
  --json        one JSON array of sessions
  -h, --help    this help
`,
  demo: `Usage: swarmdesk demo [--headless] [--json] [--approve all|none|ask] [--keep]

The main job on a fresh copy of the bundled sample project, offline, against the scripted model.
The copy lives under the temp folder and is removed when the demo ends (also on Ctrl+C).

  --headless    stay in the terminal (default: the app window, or the browser UI where there is none)
  --json        the event stream, one JSON object per line (implies --headless)
${APPROVE_LINES.replace('(the default on a TTY; without one it means none)', '(the default on a TTY; without one the default is all:\n                            the workspace is a throwaway copy)')}
  --keep        keep the demo workspace when the demo ends, and say where it is
  -h, --help    this help
`,
  serve: `Usage: swarmdesk serve [flags]

Serves the workspace UI to a browser on 127.0.0.1 and prints SWARMDESK_URL http://127.0.0.1:PORT/?token=T.
Reopens the workspace's last session unless --new-session. Runs until Ctrl+C or SIGTERM.

  --cwd DIR                 the workspace (default: the current directory)
  --port N                  0-65535; 0 (the default) picks a free port
  --scenario FILE           answer from a scripted-model scenario instead of the API
  --model ID                a model id or alias (opus, sonnet, haiku)
${MODE_LINES}
${SETTINGS_LINES}
  --fork                    an Agent call without subagent_type forks the caller
  --coordinator             coordinator mode (wins over --fork)
  --new-session             start an empty session instead of reopening the last one
  --claude-session          open a Claude Code session (your own claude, interactive) in a pane at start
  --claude-path FILE        the claude to run (default: the one on PATH)
  --team-transport URL      where teams live: files, or nats://host:port (JetStream; docs/nats.md);
                            default SWARMDESK_TEAM_TRANSPORT, then the teamTransport setting, then files
  -h, --help                this help
`,
  'scripted-server': `Usage: swarmdesk scripted-server --scenario FILE [--port N] [--quiet]

Runs the scripted model alone and prints SCRIPTED_MODEL_URL http://127.0.0.1:PORT once listening.
Point ANTHROPIC_BASE_URL at it. Runs until Ctrl+C or SIGTERM. Each request answered is a line on
stderr: method, path, status, milliseconds, who asked and which scenario turn answered.

  --scenario FILE   the scenario (YAML or JSON) to answer from (required)
  --port N          0-65535; 0 (the default) picks a free port
  --quiet           no line per request
  -h, --help        this help
`,
  permissions: `Usage: swarmdesk permissions check …

Subcommands:
  check    decide tool calls as a session would (swarmdesk permissions check --help)
`,
  'permissions check': `Usage: swarmdesk permissions check [--cwd DIR] [--mode MODE] [--settings FILE]… [--trust-project] --tool NAME --input JSON
       swarmdesk permissions check [--cwd DIR] [--mode MODE] [--settings FILE]… [--trust-project] --batch FILE

Prints one JSON line {"decision":"allow"|"deny"|"ask","reason":…,"rule":…} per call; exit 0 on any
decision, 2 on bad input or settings that do not load.

  --cwd DIR         the workspace (default: the current directory)
  --mode MODE       ${MODES} (default: the settings' defaultMode)
${SETTINGS_LINES}
  --tool NAME       the tool, e.g. Bash, Edit, Read
  --input JSON      its input, e.g. '{"command":"npm test"}'
  --batch FILE      JSON lines {"tool": NAME, "input": {...}, "mode"?: MODE}, one decision per line
  --json            accepted for symmetry: the output is always JSON
  -h, --help        this help
`,
  agents: `Usage: swarmdesk agents list [--cwd DIR] [--json]

Subcommands:
  list    every agent definition visible from a workspace (swarmdesk agents list --help)
`,
  'agents list': `Usage: swarmdesk agents list [--cwd DIR] [--json]

Lists the agents visible from DIR (built-ins and definition files: name, source, tools, model),
then the files not in use, each with its problems and warnings.

  --cwd DIR     the workspace (default: the current directory)
  --json        one JSON array with an entry per definition file (no built-ins)
  -h, --help    this help
`,
  mcp: `Usage: swarmdesk mcp list|get|add|remove …

Subcommands:
  list    every MCP server of every source, with its state (swarmdesk mcp list --help)
  get     one server: its source, definition, state and tools (swarmdesk mcp get --help)
  add     write a server to local settings, .mcp.json or user settings (swarmdesk mcp add --help)
  remove  remove a server from the file that defines it (swarmdesk mcp remove --help)
`,
  'mcp get': `Usage: swarmdesk mcp get NAME [--cwd DIR] [--mcp-config FILE]… [--json]

Shows the server NAME as the sources resolve it: where it comes from, its definition as written
(\${VAR} not expanded), its state (started, listed and closed when approved) and its tools.

  --cwd DIR           the workspace (default: the current directory)
  --mcp-config FILE   an extra MCP configuration file, as run takes it; repeatable
  --json              one JSON object: mcp list's fields, definition and definedIn [{scope, file}]
  -h, --help          this help
`,
  'mcp add': `Usage: swarmdesk mcp add [flags] NAME -- COMMAND [ARGS…]
       swarmdesk mcp add --transport http|sse [flags] NAME URL

Writes one MCP server into a scope's file (every other key of it kept), in Claude Code's shape.
Nothing is started. Put -- before the command, so its own flags are not read as these.

  -s, --scope S         local (default): .swarmdesk/settings.local.json of the workspace;
                        project: the workspace's .mcp.json (shared; starts once approved);
                        user: <home>/settings.json
  -t, --transport T     stdio (default), http (streamable HTTP) or sse
  -e, --env KEY=VAL     an environment variable of a stdio server; repeatable
  -H, --header 'N: V'   an HTTP header of an http or sse server; repeatable
  --cwd DIR             the workspace (default: the current directory)
  --json                one JSON object: {name, scope, file, definition}
  -h, --help            this help

A name holds letters, digits, _ and -; a name the scope already has is refused (remove it first).
`,
  'mcp remove': `Usage: swarmdesk mcp remove NAME [--scope local|project|user] [--cwd DIR] [--json]

Removes NAME from the scope's file. Without --scope, from the one scope that defines it; when
several do, say which.

  -s, --scope S   local, project or user
  --cwd DIR       the workspace (default: the current directory)
  --json          one JSON object: {name, scope, file}
  -h, --help      this help
`,
  'mcp list': `Usage: swarmdesk mcp list [--cwd DIR] [--mcp-config FILE]… [--json]

Lists every MCP server of every source (--mcp-config, local settings, the project's .mcp.json,
user settings), approved or not. Each approved server is started and its tools listed, then
closed: its state is connected, failed (with why), awaiting-approval or disabled.

  --cwd DIR           the workspace (default: the current directory)
  --mcp-config FILE   an extra MCP configuration file, as run takes it; repeatable
  --json              one JSON array: {name, source, file, transport, state, tools?, error?} each
  -h, --help          this help
`,
  mailbox: `Usage: swarmdesk mailbox send|read …

Subcommands:
  send    put a message in an agent's inbox (swarmdesk mailbox send --help)
  read    print an agent's inbox (swarmdesk mailbox read --help)
`,
  'mailbox send': `Usage: swarmdesk mailbox send --team T --to NAME --from NAME (--text S | --json OBJ) [--summary S] [--color C]

Puts one message in NAME's inbox of team T (created on its first message) and says so in a
sentence; with --json OBJ (a script sending a structured message) the receipt is one JSON line
{id, team, to, from, kind, path} instead.

  --team T        the team
  --to NAME       the recipient (an agent name, e.g. team-lead, alice)
  --from NAME     the sender's name
  --text S        a plain text message
  --json OBJ      a structured message: a JSON object, e.g. '{"type":"shutdown_request","requestId":"r1"}'
  --summary S     a short summary shown with the message
  --color C       the sender's colour (blue, green, yellow, purple, orange, pink, cyan, red)
  --team-transport URL  the team on NATS JetStream, nats://[user:pass@|token@]host:port (docs/nats.md)
  -h, --help      this help
`,
  'mailbox read': `Usage: swarmdesk mailbox read --team T --agent NAME [--unread] [--mark-read] [--json]

Prints an agent's messages, oldest first. Changes nothing unless --mark-read.

  --team T        the team
  --agent NAME    whose inbox
  --unread        only the unread messages
  --mark-read     mark the printed messages as read
  --json          one JSON object {team, agent, messages, problems}
  --team-transport URL  the team on NATS JetStream, nats://[user:pass@|token@]host:port (docs/nats.md)
  -h, --help      this help
`,
  tasks: `Usage: swarmdesk tasks list|create|claim|update|delete … --team T

Subcommands (each has --help):
  list      the team's tasks
  create    add a task
  claim     claim a task for an agent (exit 1 when refused)
  update    change a task's status or owner
  delete    remove a task

Every subcommand takes --team-transport nats://[user:pass@|token@]host:port for a team on NATS
JetStream (else SWARMDESK_TEAM_TRANSPORT, else the files; docs/nats.md).
`,
  'tasks list': `Usage: swarmdesk tasks list --team T [--json]

  --team T      the team
  --json        one JSON array of tasks
  -h, --help    this help
`,
  'tasks create': `Usage: swarmdesk tasks create --team T --subject S [--description D] [--blocked-by 1,2] [--json]

  --team T            the team
  --subject S         a one-line title (required)
  --description D     the details
  --blocked-by 1,2    comma-separated ids of the tasks that must complete first
  --json              print the created task as JSON
  -h, --help          this help
`,
  'tasks claim': `Usage: swarmdesk tasks claim ID --team T --agent NAME [--json]

Claims task ID for NAME. Exit 1 when refused (already claimed, blocked, NAME busy, not found).

  --team T        the team
  --agent NAME    who claims it
  --json          print the claim result as JSON
  -h, --help      this help
`,
  'tasks update': `Usage: swarmdesk tasks update ID --team T [--status pending|in_progress|completed] [--owner NAME|''] [--json]

  --team T        the team
  --status S      pending, in_progress or completed
  --owner NAME    the new owner; '' clears it (no task_assignment message is sent)
  --json          print the update result as JSON
  -h, --help      this help
`,
  'tasks delete': `Usage: swarmdesk tasks delete ID --team T

  --team T      the team
  -h, --help    this help
`,
  team: `Usage: swarmdesk team list|show|allow|disallow …

Subcommands (each has --help):
  list      the teams and how many of their teammates are active
  show      one team's config and members
  allow     let every teammate read and edit in a directory without asking
  disallow  take a directory off the team's allowed paths
`,
  'team allow': `Usage: swarmdesk team allow --team T DIR [--team-transport URL]

Adds DIR (resolved against the working directory, links followed) to team T's allowed paths: every
teammate may read and edit there without asking, from its next decision on. Deny and ask rules,
plan mode and protected files still apply. Prints the team's allowed paths.

  --team T                the team
  --team-transport URL    where the team lives: files (default) or nats://host:port
  -h, --help              this help
`,
  'team disallow': `Usage: swarmdesk team disallow --team T DIR [--team-transport URL]

Takes DIR off team T's allowed paths. Prints the paths left.

  --team T                the team
  --team-transport URL    where the team lives: files (default) or nats://host:port
  -h, --help              this help
`,
  'team list': `Usage: swarmdesk team list [--json]

  --json        one JSON array of team configs
  -h, --help    this help
`,
  'team show': `Usage: swarmdesk team show --team T [--json]

  --team T      the team
  --json        the team config as JSON
  -h, --help    this help
`,
  claude: `Usage: swarmdesk claude sessions list [--json]
       swarmdesk claude teams list [--json]
       swarmdesk claude teams show TEAM [--json]

Reads Claude Code's sessions and teams from ~/.claude (or CLAUDE_CONFIG_DIR): live sessions and
ended ones (by transcript); every team under teams/ or tasks/, live or ended, with its members
(those no longer in the config marked gone), tasks and inbox messages. Files that do not parse are
named on stderr.

  --json        exactly one JSON document on stdout (warnings stay on stderr)
  -h, --help    this help
`,
  teammate: `Usage: swarmdesk teammate --team T --name N [--cwd DIR]

Runs one teammate of the process backend in this terminal until its shutdown is approved.

  --team T      the team (default: SWARMDESK_TEAM)
  --name N      the member's name in the team config (default: SWARMDESK_AGENT_NAME)
  --cwd DIR     where it works (default: its team config's cwd)
  -h, --help    this help
`
}

/** The commands that take a subcommand word, for finding which usage `--help` asks for. */
const GROUPS = new Set(['sessions', 'permissions', 'agents', 'mcp', 'mailbox', 'tasks', 'team'])

/**
 * The usage `argv` asks for with `-h`/`--help` (anywhere before a `--`), or `swarmdesk help CMD
 * [SUB]`: the subcommand's when one is named and known, else the command's. Returns undefined
 * when no help is asked for, and `''` for the general help (no command, or an unknown one).
 */
export function helpFor(argv: readonly string[]): string | undefined {
  const end = argv.indexOf('--')
  const words = end === -1 ? argv : argv.slice(0, end)
  let target: readonly string[]
  if (words[0] === 'help') target = words.slice(1)
  else if (words.some((w) => w === '--help' || w === '-h')) target = words
  else return undefined
  const [command, sub] = target
  if (command === undefined || !Object.hasOwn(USAGES, command)) return ''
  if (GROUPS.has(command) && sub !== undefined && Object.hasOwn(USAGES, `${command} ${sub}`))
    return USAGES[`${command} ${sub}`]
  return USAGES[command]
}

/** This installation's version, from its package.json (`swarmdesk --version`). */
export function swarmdeskVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown }
  return typeof pkg.version === 'string' ? pkg.version : 'unknown'
}
