import { RunUsageError, Emitter } from '../../runtime/base'
import { EventBus } from '../../runtime/events'

import { readTeammateEnv, runTeammate, TeammateNotFoundError } from '../../runtime/teammates'
import { TeamNameError, TeamNotFoundError } from '../../runtime/teams'
import { swarmdeskHome } from '../../runtime/storage'
import { createPaneRenderer } from '../../app/paneText'
import { flagPath, parseCommandArgs, UsageError, useColor } from '../io'
import type { TeamStorePort } from '../../runtime/teamStore'
import { commandTransport, TEAM_TRANSPORT_FLAG, withCommandStore } from '../teamTransport'

const USAGE = 'Use: swarmdesk teammate --team T --name N [--cwd DIR] [--mcp-config FILE]… [--team-transport URL]'

/**
 * `swarmdesk teammate --team T --name N [--cwd DIR] [--mcp-config FILE]… [--team-transport URL]` (docs/events.md#event-stream-and-command-line): runs one teammate of the
 * `process` backend; `--team`/`--name` default to SWARMDESK_TEAM / SWARMDESK_AGENT_NAME, the team
 * store to SWARMDESK_TEAM_TRANSPORT (the leader hands it over, docs/nats.md#configuration). Its MCP
 * servers are the workspace's, the leader's `--mcp-config` files (SWARMDESK_MCP_CONFIG) and its own
 * `--mcp-config` files, highest last (docs/tools.md#mcp-servers). Its
 * events are printed on its terminal (the pane) as a worker teammate's pane shows them, with each
 * command's output streamed while it runs. Exit codes: 0 after an approved shutdown; 1 a
 * crash (the error on stderr) or SIGTERM/SIGINT; 2 bad usage, an unknown team or member.
 * The process backend (src/main/runtime/teammates/process/executor.ts, TEAMMATE_EXIT_CODES)
 * relies on these codes, and tells a stop from a crash under exit 1 by the runner's last
 * `idle_notification` to the lead (`idleReason` `interrupted` or `failed`): keep both in step.
 */
export async function teammateCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('teammate', argv, {
    team: { type: 'string' },
    name: { type: 'string' },
    cwd: { type: 'string' },
    'mcp-config': { type: 'string', multiple: true },
    ...TEAM_TRANSPORT_FLAG
  })
  let fromEnv: ReturnType<typeof readTeammateEnv>
  try {
    fromEnv = readTeammateEnv(process.env)
  } catch (error) {
    throw new UsageError(`swarmdesk teammate: ${(error as Error).message}`)
  }
  const team = values.team ?? fromEnv.team
  const name = values.name ?? fromEnv.name
  if (!team) throw new UsageError(`swarmdesk teammate: --team is required.\n${USAGE}`)
  if (!name) throw new UsageError(`swarmdesk teammate: --name is required.\n${USAGE}`)
  const transport = commandTransport('teammate', values['team-transport'])
  return withCommandStore('teammate', transport, (store) =>
    runIn(store, { team, name, cwd: values.cwd, mcpConfigFiles: values['mcp-config'] ?? [] })
  )
}

/** Runs the teammate on `store` with its pane on this terminal; the exit code (see {@link teammateCommand}). */
async function runIn(
  store: TeamStorePort,
  args: { team: string; name: string; cwd: string | undefined; mcpConfigFiles: string[] }
): Promise<number> {
  const { team, name } = args
  const bus = new EventBus()
  // the terminal is the teammate's pane: it shows what a worker teammate's pane shows, a running
  // command's own output included as it comes (the leader's side streams these bytes live)
  const render = createPaneRenderer({ color: useColor(process.stdout), scripted: false })
  bus.onEvent((event) => {
    const text = render(event)?.[1]
    if (text) process.stdout.write(text)
  })
  const controller = new AbortController()
  const onSignal = (): void => controller.abort()
  process.once('SIGTERM', onSignal)
  process.once('SIGINT', onSignal)
  // SIGUSR2 (the leader's Esc for this teammate, process/executor.ts interrupt) stops the current turn only
  const interrupts = new Emitter<void>()
  const onInterrupt = (): void => interrupts.fire()
  process.on('SIGUSR2', onInterrupt)
  try {
    const exit = await runTeammate({
      home: swarmdeskHome(),
      team,
      name,
      ...(args.cwd ? { cwd: flagPath(args.cwd) } : {}),
      mcpConfigFiles: args.mcpConfigFiles.map((f) => flagPath(f)),
      store,
      env: process.env,
      signal: controller.signal,
      bus,
      interrupts: interrupts.event
    })
    if (exit.reason === 'shutdown') return 0
    process.stderr.write(`swarmdesk teammate: ${name}@${team} was stopped before a shutdown was approved.\n`)
    return 1
  } catch (error) {
    if (
      error instanceof TeamNotFoundError ||
      error instanceof TeamNameError ||
      error instanceof TeammateNotFoundError ||
      error instanceof RunUsageError ||
      (error as Error).name === 'HookConfigError'
    ) {
      throw new UsageError(`swarmdesk teammate: ${(error as Error).message}`)
    }
    process.stderr.write(`swarmdesk teammate: ${name}@${team} crashed: ${(error as Error).stack ?? String(error)}\n`)
    return 1
  } finally {
    process.removeListener('SIGTERM', onSignal)
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGUSR2', onInterrupt)
  }
}
