import { z } from 'zod'
import { HookConfigError } from './errors'
import { isSupportedHookEvent, UNSUPPORTED_CLAUDE_CODE_EVENTS, type HookEvent } from './events'
import { compileMatcher, type HookMatcher } from './matcher'

/** Claude Code's default hook timeout was 60 s; docs/hooks.md#hooks keeps it. Per entry: `timeout` in seconds. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000

/** A hook Swarmdesk runs: `bash -c <command>`. Unknown keys (Claude Code's `statusMessage`, …) are kept and ignored. */
export const CommandHookSchema = z.looseObject({
  type: z.literal('command'),
  command: z.string().trim().min(1, 'must be a non-empty shell command'),
  timeout: z.number().positive('must be a positive number of seconds').finite().optional()
})
/** Claude Code's other hook types: valid, reported as not supported yet, never run. */
export const OtherHookTypeSchema = z.looseObject({ type: z.enum(['prompt', 'agent', 'http', 'mcp_tool']) })
/** One entry of an event's list: an optional matcher and the hooks it selects. */
export const HookMatcherEntrySchema = z.looseObject({
  matcher: z.string().optional(),
  hooks: z.array(z.discriminatedUnion('type', [CommandHookSchema, OtherHookTypeSchema]))
})
/** The list under one event name: `{"SubagentStop": [ {matcher?, hooks: [...]}, … ]}`. */
export const HookEventListSchema = z.array(HookMatcherEntrySchema)

/** One runnable command, normalised from a settings file, in precedence order. */
export interface HookCommandSpec {
  event: HookEvent
  /** The settings file it came from. */
  source: string
  /** Where in that file: `hooks.SubagentStop[0].hooks[1]`. */
  field: string
  /** The matcher as written (undefined = all). */
  matcher: string | undefined
  matches: HookMatcher
  command: string
  timeoutMs: number
}

/** Validated hooks of every source: the commands per event, and what was accepted but will not run. */
export interface HookConfig {
  commands: HookCommandSpec[]
  /** Each names the file and the field: unsupported events and hook types, unknown event names. */
  warnings: string[]
}

/**
 * Validate the raw `hooks` blocks of the loaded settings (lowest precedence first, already
 * filtered by project trust, docs/permissions.md#permissions) into runnable commands.
 * @throws HookConfigError naming the file and field path of the first invalid entry (fails closed).
 */
export function parseHookSources(
  sources: ReadonlyArray<{ source: string; hooks: Record<string, unknown> }>
): HookConfig {
  const config: HookConfig = { commands: [], warnings: [] }
  for (const { source, hooks } of sources) {
    for (const [name, raw] of Object.entries(hooks)) parseEvent(source, name, raw, config)
  }
  return config
}

function parseEvent(source: string, name: string, raw: unknown, config: HookConfig): void {
  if (!isSupportedHookEvent(name)) {
    const known = (UNSUPPORTED_CLAUDE_CODE_EVENTS as readonly string[]).includes(name)
    config.warnings.push(
      known
        ? `${source} (hooks.${name}): ${name} hooks are not supported yet; they never run`
        : `${source} (hooks.${name}): unknown hook event ${name}; it never runs (check the spelling)`
    )
    return
  }
  const parsed = HookEventListSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new HookConfigError(source, fieldPath(['hooks', name, ...issue.path]), `${issue.message}; ${HINT}`)
  }
  parsed.data.forEach((entry, i) => {
    const entryField = `hooks.${name}[${i}]`
    let matches: HookMatcher
    try {
      matches = compileMatcher(entry.matcher)
    } catch (e) {
      throw new HookConfigError(
        source,
        `${entryField}.matcher`,
        `not a valid regular expression (${(e as Error).message}); use a name, names separated by |, or a valid regex`
      )
    }
    entry.hooks.forEach((hook, j) => {
      const field = `${entryField}.hooks[${j}]`
      if (hook.type !== 'command') {
        config.warnings.push(`${source} (${field}): hook type "${hook.type}" is not supported yet; it never runs`)
        return
      }
      const timeoutMs = hook.timeout === undefined ? DEFAULT_HOOK_TIMEOUT_MS : Math.round(hook.timeout * 1000)
      config.commands.push({
        event: name,
        source,
        field,
        matcher: entry.matcher,
        matches,
        command: hook.command,
        timeoutMs
      })
    })
  })
}

const HINT = 'each event takes [{"matcher"?: "…", "hooks": [{"type": "command", "command": "…", "timeout"?: seconds}]}]'

function fieldPath(p: ReadonlyArray<PropertyKey>): string {
  return p.reduce<string>(
    (acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)),
    ''
  )
}
