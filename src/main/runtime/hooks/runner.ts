import type { LoadedSettings } from '../permissions'
import { parseHookSources, type HookCommandSpec } from './config'
import { MATCHER_FIELD, type HookEvent, type HookInput, type HookPayloads } from './events'
import { combine, emptyOutcome, judge, type HookOutcome } from './outcome'
import { runHookCommand } from './spawnHook'

/** Inputs of {@link createHookRunner}. */
export interface HookRunnerOptions {
  /** Raw hooks per settings source, lowest precedence first, already filtered by project trust. */
  hooks: LoadedSettings['hooks']
  /** The session's working directory: the hooks' cwd, `cwd` on stdin, and `SWARMDESK_PROJECT_DIR`/`CLAUDE_PROJECT_DIR`. */
  cwd: string
  sessionId: string
  /** The session's transcript, sent as `transcript_path` when known. */
  transcriptPath?: string
  /** Extra environment (e.g. settings `env`), over process.env. */
  env?: Record<string, string>
}

/** Per-run options. */
export interface HookRunOptions {
  /** Kills every running command's process group; the run then resolves (never rejects). */
  signal?: AbortSignal
  /**
   * Report a block as a warning and continue: for a stop the agent cannot refuse (shutdown,
   * TaskStop, a crash). docs/hooks.md#hooks: a shutdown request always wins over a hook keeping it busy.
   */
  ignoreBlock?: boolean
}

/** Runs the hooks of a session's settings. */
export interface HookRunner {
  /** Configuration warnings (unsupported events and hook types), each naming file and field. */
  readonly warnings: readonly string[]
  /** True when at least one command is configured for `event` (before matching). */
  has(event: HookEvent): boolean
  /**
   * Run every command configured for `event` whose matcher accepts the payload, with the JSON
   * payload on stdin. Commands run in parallel (as in Claude Code); identical command strings run
   * once; results and the blocking command are taken in settings order. Never rejects.
   */
  run<E extends HookEvent>(event: E, payload: HookPayloads[E], opts?: HookRunOptions): Promise<HookOutcome>
}

/**
 * Validate the settings' hooks and return a runner for them.
 * @throws HookConfigError naming the file and field path of an invalid entry (fails closed).
 */
export function createHookRunner(opts: HookRunnerOptions): HookRunner {
  const config = parseHookSources(opts.hooks)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...opts.env,
    SWARMDESK_PROJECT_DIR: opts.cwd,
    CLAUDE_PROJECT_DIR: opts.cwd
  }
  return {
    warnings: config.warnings,
    has: (event) => config.commands.some((c) => c.event === event),
    async run(event, payload, runOpts = {}) {
      const specs = selectCommands(config.commands, event, payload)
      if (specs.length === 0) return emptyOutcome()
      const input: HookInput = {
        hook_event_name: event,
        session_id: opts.sessionId,
        cwd: opts.cwd,
        ...(opts.transcriptPath !== undefined ? { transcript_path: opts.transcriptPath } : {}),
        ...payload
      } as HookInput
      const text = JSON.stringify(input)
      const results = await Promise.all(
        specs.map(async (spec) =>
          judge(
            event,
            spec,
            await runHookCommand({
              command: spec.command,
              cwd: opts.cwd,
              env,
              input: text,
              timeoutMs: spec.timeoutMs,
              signal: runOpts.signal
            })
          )
        )
      )
      return combine(results, runOpts.ignoreBlock === true)
    }
  }
}

/** The commands for `event` whose matcher accepts the payload, settings order, first of identical commands kept. */
function selectCommands<E extends HookEvent>(
  all: HookCommandSpec[],
  event: E,
  payload: HookPayloads[E]
): HookCommandSpec[] {
  const field = MATCHER_FIELD[event]
  const seen = new Set<string>()
  return all.filter((spec) => {
    if (spec.event !== event) return false
    if (field !== undefined && !spec.matches(String((payload as Record<string, unknown>)[field]))) return false
    if (seen.has(spec.command)) return false
    seen.add(spec.command)
    return true
  })
}
