import { PermissionModeSchema, USER_PERMISSION_MODES, type PermissionMode } from '../../../shared/permissions'
import { EventBus, createHumanRenderer } from '../../runtime/events'
import { runHeadless, RunUsageError } from '../../runtime/session'
import { swarmdeskHome } from '../../runtime/storage'
import { TeamStoreUnavailableError } from '../../runtime/teamStore'
import { flagPath, parseCommandArgs, positiveInt, positiveNumber, UsageError, useColor } from '../io'
import { prompterFor, type ApproveFlag } from '../prompters'

const RUN_OPTIONS = {
  cwd: { type: 'string' },
  scenario: { type: 'string' },
  model: { type: 'string' },
  'permission-mode': { type: 'string' },
  settings: { type: 'string', multiple: true },
  'mcp-config': { type: 'string', multiple: true },
  'trust-project': { type: 'boolean' },
  fork: { type: 'boolean' },
  coordinator: { type: 'boolean' },
  'max-turns': { type: 'string' },
  'max-budget-usd': { type: 'string' },
  resume: { type: 'string' },
  json: { type: 'boolean' },
  approve: { type: 'string' },
  'team-transport': { type: 'string' }
} as const

/** Parsed `run` flags, shared with `demo`. */
export interface RunFlags {
  cwd: string
  scenario?: string
  model?: string
  mode?: PermissionMode
  settingsFiles: string[]
  /** `--mcp-config FILE` (repeatable; docs/tools.md#mcp-servers). */
  mcpConfigFiles?: string[]
  trustProject: boolean
  maxTurns?: number
  maxBudgetUsd?: number
  resume?: string
  /** Fork subagents (docs/agents.md#forks): an Agent call without subagent_type forks the caller. */
  fork: boolean
  /** Coordinator mode (docs/agents.md#coordinator-mode); wins over forks. */
  coordinator: boolean
  json: boolean
  approve: ApproveFlag
  prompt?: string
  /** `--team-transport URL` (docs/nats.md#configuration): where the team lives; default the setting, else the files. */
  teamTransport?: string
}

/** Parses `--approve`; `ask` by default (docs/events.md#event-stream-and-command-line). */
export function parseApprove(value: string | undefined, fallback: ApproveFlag = 'ask'): ApproveFlag {
  if (value === undefined) return fallback
  if (value === 'all' || value === 'none' || value === 'ask') return value
  throw new UsageError(`--approve must be all, none or ask, got '${value}'.`)
}

function parseMode(value: string | undefined): PermissionMode | undefined {
  if (value === undefined) return undefined
  const parsed = PermissionModeSchema.safeParse(value)
  if (!parsed.success || value === 'bubble')
    throw new UsageError(`--permission-mode must be one of ${USER_PERMISSION_MODES.join(', ')}, got '${value}'.`)
  return parsed.data
}

/** Parses `swarmdesk run` arguments. @throws UsageError naming the bad flag. */
export function parseRunFlags(argv: string[]): RunFlags {
  const { values, positionals } = parseCommandArgs('run', argv, RUN_OPTIONS, true)
  return {
    cwd: flagPath(values.cwd) ?? process.cwd(),
    scenario: flagPath(values.scenario),
    model: values.model,
    mode: parseMode(values['permission-mode']),
    settingsFiles: (values.settings ?? []).map((f) => flagPath(f)),
    mcpConfigFiles: (values['mcp-config'] ?? []).map((f) => flagPath(f)),
    trustProject: values['trust-project'] ?? false,
    maxTurns: positiveInt('--max-turns', values['max-turns']),
    maxBudgetUsd: positiveNumber('--max-budget-usd', values['max-budget-usd']),
    resume: values.resume,
    fork: values.fork ?? false,
    coordinator: values.coordinator ?? false,
    json: values.json ?? false,
    approve: parseApprove(values.approve),
    prompt: positionals.length > 0 ? positionals.join(' ') : undefined,
    ...(values['team-transport'] !== undefined ? { teamTransport: values['team-transport'] } : {})
  }
}

/**
 * Runs a parsed run: wires the event stream to stdout (`--json`: one event per line; else the
 * human renderer) and resolves the exit code (0 ok, 1 failed).
 * @throws UsageError for bad input found before the run starts.
 */
export async function executeRun(
  flags: RunFlags & { prompt: string },
  extra: { scripted?: boolean; signal?: AbortSignal } = {}
): Promise<number> {
  const bus = new EventBus()
  const render = flags.json
    ? (e: object) => JSON.stringify(e) + '\n'
    : createHumanRenderer({ color: useColor(process.stdout), scripted: extra.scripted ?? flags.scenario !== undefined })
  bus.onEvent((event) => {
    const text = render(event)
    if (text) process.stdout.write(text)
    // a dead end is an error to the person: said on stderr (the --json stream has the event)
    if (!flags.json && event.type === 'run_blocked') process.stderr.write(`swarmdesk run: ${event.message}\n`)
  })
  const controller = new AbortController()
  const onSignal = (): void => controller.abort()
  process.once('SIGINT', onSignal)
  // a caller's own stop (the demo's SIGTERM) ends the run as Ctrl+C does
  if (extra.signal?.aborted) controller.abort()
  else extra.signal?.addEventListener('abort', onSignal, { once: true })
  try {
    const result = await runHeadless({
      cwd: flags.cwd,
      home: swarmdeskHome(),
      prompt: flags.prompt,
      scenario: flags.scenario,
      model: flags.model,
      mode: flags.mode,
      settingsFiles: flags.settingsFiles,
      mcpConfigFiles: flags.mcpConfigFiles,
      teamTransport: flags.teamTransport,
      trustProject: flags.trustProject,
      maxTurns: flags.maxTurns,
      maxBudgetUsd: flags.maxBudgetUsd,
      resumeSessionId: flags.resume,
      fork: flags.fork,
      coordinator: flags.coordinator,
      prompter: prompterFor(flags.approve, process.stdin.isTTY === true, flags.cwd),
      bus,
      signal: controller.signal
    })
    return result.exitCode
  } catch (error) {
    if (error instanceof RunUsageError) throw new UsageError(error.message)
    // the team's NATS server is unusable: the reason (never a credential), exit 1 (docs/nats.md#configuration)
    if (error instanceof TeamStoreUnavailableError) {
      process.stderr.write(`swarmdesk run: ${error.message}\n`)
      return 1
    }
    throw error
  } finally {
    process.removeListener('SIGINT', onSignal)
    extra.signal?.removeEventListener('abort', onSignal)
  }
}

/** `swarmdesk run [flags] [PROMPT]` (docs/events.md#event-stream-and-command-line). The prompt may also come on stdin. */
export async function runCommand(argv: string[]): Promise<number> {
  const flags = parseRunFlags(argv)
  let prompt = flags.prompt
  if (prompt === undefined && process.stdin.isTTY !== true) prompt = (await readStdin()).trim() || undefined
  if (prompt === undefined)
    throw new UsageError(
      'swarmdesk run: no prompt. Pass it as the last argument (swarmdesk run "fix the failing test") or on stdin.'
    )
  return executeRun({ ...flags, prompt })
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
