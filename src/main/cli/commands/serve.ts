import { PermissionModeSchema, USER_PERMISSION_MODES, type PermissionMode } from '../../../shared/permissions'
import {
  hostToken,
  rememberedPort,
  rememberPort,
  rendererDir,
  startWebHost,
  WebWorkspaces,
  type WebHost,
  type WebHostOptions
} from '../../host'
import { RunUsageError } from '../../runtime/session'
import { TeamStoreUnavailableError } from '../../runtime/teamStore'
import { swarmdeskHome } from '../../runtime/storage'
import { WorkspaceService } from '../../app/service'
import { ApiKeyHolder } from '../../runtime/model'
import { canonicalFolder, RecentWorkspaces } from '../../workspaces/recent'
import { flagPath, parseCommandArgs, UsageError } from '../io'

/** Where the command writes and what stops it besides SIGINT/SIGTERM; tests and `demo` pass their own. */
export interface ServeIo {
  stdout?: (line: string) => void
  stderr?: (line: string) => void
  /** Stops the host like a signal does. */
  signal?: AbortSignal
}

/** What `serve` runs: parsed flags, or what `demo` sets up. */
export interface ServeOptions {
  cwd: string
  /**
   * TCP port; 0 picks a free one. Undefined (no `--port`): the port this workspace was last served
   * on from this data directory, or a free one when that is taken or there is none, so an open
   * tab reconnects to a restarted host by itself (src/main/host/hostState.ts).
   */
  port?: number
  scenario?: string
  model?: string
  mode?: PermissionMode
  settingsFiles: string[]
  trustProject: boolean
  /** Fork subagents (docs/agents.md#forks). */
  fork?: boolean
  /** Coordinator mode (docs/agents.md#coordinator-mode); wins over forks. */
  coordinator?: boolean
  /** `--new-session`: start an empty session instead of reopening the workspace's last one. */
  newSession?: boolean
  /** `--mcp-config FILE` (repeatable; docs/tools.md#mcp-servers): the highest source of MCP servers. */
  mcpConfigFiles?: string[]
  /** `--claude-session`: open a Claude Code session in a pane at start (docs/claude-code.md#sessions-in-panes). */
  claudeSession?: boolean
  /** `--claude-path FILE`: the `claude` to run; default the one on PATH. */
  claudePath?: string
  /** `--team-transport URL` (docs/nats.md#configuration): where the workspaces' teams live. */
  teamTransport?: string
}

const SERVE_OPTIONS = {
  'new-session': { type: 'boolean' },
  'claude-session': { type: 'boolean' },
  'claude-path': { type: 'string' },
  'team-transport': { type: 'string' },
  fork: { type: 'boolean' },
  coordinator: { type: 'boolean' },
  cwd: { type: 'string' },
  port: { type: 'string' },
  scenario: { type: 'string' },
  model: { type: 'string' },
  'permission-mode': { type: 'string' },
  settings: { type: 'string', multiple: true },
  'mcp-config': { type: 'string', multiple: true },
  'trust-project': { type: 'boolean' }
} as const

/** Parses `swarmdesk serve` arguments. @throws UsageError naming the bad flag. */
export function parseServeFlags(argv: string[]): ServeOptions {
  const { values } = parseCommandArgs('serve', argv, SERVE_OPTIONS)
  const port = values.port === undefined ? undefined : Number(values.port)
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535 || values.port?.trim() === '')) {
    throw new UsageError(`swarmdesk serve: --port must be an integer from 0 to 65535, got '${values.port}'.`)
  }
  const rawMode = values['permission-mode']
  let mode: PermissionMode | undefined
  if (rawMode !== undefined) {
    const parsed = PermissionModeSchema.safeParse(rawMode)
    if (!parsed.success || rawMode === 'bubble')
      throw new UsageError(`--permission-mode must be one of ${USER_PERMISSION_MODES.join(', ')}, got '${rawMode}'.`)
    mode = parsed.data
  }
  return {
    cwd: flagPath(values.cwd) ?? process.cwd(),
    port,
    scenario: flagPath(values.scenario),
    model: values.model,
    mode,
    settingsFiles: (values.settings ?? []).map((f) => flagPath(f)),
    trustProject: values['trust-project'] ?? false,
    fork: values.fork ?? false,
    coordinator: values.coordinator ?? false,
    newSession: values['new-session'] ?? false,
    mcpConfigFiles: (values['mcp-config'] ?? []).map((f) => flagPath(f)),
    claudeSession: values['claude-session'] ?? false,
    claudePath: flagPath(values['claude-path']),
    ...(values['team-transport'] !== undefined ? { teamTransport: values['team-transport'] } : {})
  }
}

/**
 * `swarmdesk serve [--cwd DIR] [--port N] [--scenario FILE] [--model ID] [--permission-mode MODE]
 * [--settings FILE] [--mcp-config FILE]… [--trust-project] [--new-session]` (docs/events.md#event-stream-and-command-line): the workspace UI for a browser.
 * It reopens the workspace's last session (restore after restart) unless `--new-session` is given. Prints
 * `SWARMDESK_URL http://127.0.0.1:PORT/?token=T` once listening, as the last line of its start;
 * with `--scenario` it is preceded by `SCRIPTED_MODEL_URL http://127.0.0.1:PORT` (the scripted
 * model's request log is at `/_scripted/requests` there). Without `--port` it listens where this
 * workspace was served last (a free port when that is taken), and the token is the data
 * directory's (`<home>/web-host-token`), so a tab left open reconnects after a restart. Serves
 * until SIGINT or SIGTERM, then closes the host and disposes the workspace. Without
 * ANTHROPIC_API_KEY (and without `--scenario`) it serves all the same: the page says there is no
 * key and how to add one — restart with the variable set, or enter a key in Settings for this run
 * only (kept in this process's memory).
 * @returns 0 after a clean stop; 1 when the port cannot be bound.
 * @throws UsageError (exit code 2) for bad flags or a workspace that cannot start (missing
 *   directory, a scenario or settings file that does not load).
 */
export async function serveCommand(argv: string[], io: ServeIo = {}): Promise<number> {
  return runServe(parseServeFlags(argv), io)
}

/**
 * Starts the workspace and its web host, prints the URL lines, and waits for a stop. Folders the
 * UI opens later (the workspace menu) are started with the same flags except `--trust-project`,
 * which trusts only the `--cwd` project (docs/permissions.md#permissions: another project's hooks do not run until it is
 * trusted); each gets its own tab (src/main/host/workspaces.ts). A stop disposes them all.
 */
export async function runServe(options: ServeOptions, io: ServeIo = {}): Promise<number> {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`))
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`))
  const home = swarmdeskHome()
  const first = await canonicalFolder(options.cwd, process.cwd()).catch((error: unknown) => {
    throw new UsageError(`swarmdesk serve: --cwd: ${(error as Error).message}`)
  })
  // one key for every tab of this run: the environment's, or one entered in Settings (memory only)
  const apiKey = new ApiKeyHolder()
  const start = (folder: string): Promise<WorkspaceService> =>
    WorkspaceService.start({
      apiKey,
      cwd: folder,
      home,
      scenario: options.scenario,
      model: options.model,
      mode: options.mode,
      settingsFiles: options.settingsFiles,
      trustProject: folder === first ? options.trustProject : false,
      fork: options.fork,
      coordinator: options.coordinator,
      session: options.newSession ? 'new' : 'restore',
      mcpConfigFiles: options.mcpConfigFiles ?? [],
      // the first workspace only: a folder opened later from the menu asks for its own
      claudeSession: folder === first ? (options.claudeSession ?? false) : false,
      ...(options.claudePath ? { claudePath: options.claudePath } : {}),
      ...(options.teamTransport !== undefined ? { teamTransport: options.teamTransport } : {})
    })
  const workspaces = new WebWorkspaces({ recent: new RecentWorkspaces(home), startService: start, log: err })
  let firstId: string
  try {
    firstId = (await workspaces.open(first)).id
  } catch (error) {
    await workspaces.dispose()
    if (error instanceof RunUsageError) throw new UsageError(`swarmdesk serve: ${error.message}`)
    // the team's NATS server is unusable: its reason (never a credential), exit 1 (docs/nats.md#configuration)
    if (error instanceof TeamStoreUnavailableError) {
      err(`swarmdesk serve: ${error.message}`)
      return 1
    }
    throw error
  }
  const service = workspaces.service(firstId) as WorkspaceService
  let host: WebHost
  const wanted = options.port ?? (await rememberedPort(home, first)) ?? 0
  const token = await hostToken(home)
  try {
    const hostOptions: WebHostOptions = {
      service: workspaces.bridged(firstId)!,
      workspaces: (id) => workspaces.bridged(id),
      port: wanted,
      host: '127.0.0.1',
      staticDir: rendererDir(),
      token
    }
    host = await startWebHost(hostOptions).catch((error: NodeJS.ErrnoException) => {
      // the remembered port is only a preference: another program may have it now
      if (options.port !== undefined || wanted === 0 || error.code !== 'EADDRINUSE') throw error
      err(
        `swarmdesk serve: port ${wanted}, where this workspace was served last, is taken; serving on a free port (open tabs must use the new URL).`
      )
      return startWebHost({ ...hostOptions, port: 0 })
    })
    // `--port 0` (the demo's throwaway workspaces, tests) asks for no address worth keeping
    if (options.port !== 0)
      await rememberPort(home, first, host.port).catch((error: Error) =>
        err(`swarmdesk serve: could not remember port ${host.port} for the next start: ${error.message}`)
      )
  } catch (error) {
    await workspaces.dispose()
    err(`swarmdesk serve: cannot listen on 127.0.0.1:${wanted}: ${(error as Error).message}`)
    return 1
  }
  try {
    // The URL line comes last: a reader that sees it knows everything is ready.
    const scripted = scriptedModelUrl(service)
    if (scripted) out(`SCRIPTED_MODEL_URL ${scripted}`)
    out(`SWARMDESK_URL ${host.url}`)
    await untilStopped(io.signal)
  } finally {
    await host.close()
    await workspaces.dispose()
  }
  return 0
}

/** Resolves on SIGINT, SIGTERM or `signal`, removing its listeners. */
function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      signal?.removeEventListener('abort', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    if (signal?.aborted) stop()
    else signal?.addEventListener('abort', stop)
  })
}

/**
 * The scripted model server's URL when the workspace runs on a scenario (docs/model.md#model-access), so tests and
 * people can read its request log; undefined for a real model.
 */
function scriptedModelUrl(service: WorkspaceService): string | undefined {
  const url = (service as Partial<{ scriptedModelUrl: string }>).scriptedModelUrl
  return typeof url === 'string' ? url : undefined
}
