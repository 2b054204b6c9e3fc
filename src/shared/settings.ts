import { z } from 'zod'
import { MAX_PANE_SCROLLBACK_LINES, MIN_PANE_SCROLLBACK_LINES } from './paneScrollback'
import { USER_PERMISSION_MODES } from './permissions'

/**
 * The Settings view's contract (docs/permissions.md#permissions, docs/ui.md#the-workspace-ui, docs/storage.md#layout): what a UI may read and change of the user
 * settings file `<home>/settings.json`, the API key's status (never the key), and the
 * workspace's project trust. The channels that carry these are in src/shared/ipc/; main
 * validates every change again before anything is written.
 */

/** Most rules one list (allow, ask or deny) may hold from the Settings view. */
export const MAX_RULES_PER_LIST = 500

const ModelName = z
  .string()
  .trim()
  .min(1, 'a model is an alias (opus, sonnet, haiku) or a model id')
  .max(200, 'a model name is at most 200 characters long')
const RuleList = z
  .array(z.string().trim().min(1, 'a rule is empty').max(1000, 'a rule is at most 1000 characters long'))
  .max(MAX_RULES_PER_LIST, `a list holds at most ${MAX_RULES_PER_LIST} rules`)

/** Most domains `sandbox.network.allowedDomains` may hold from the Settings view. */
export const MAX_ALLOWED_DOMAINS = 500

/**
 * One domain pattern of `sandbox.network` (docs/sandbox.md#network): a host name, or `*.` and
 * one (every name below it). The Settings view and main refuse anything else with these words.
 */
export const DomainPatternSchema = z
  .string()
  .trim()
  .min(1, 'a domain is empty')
  .max(253, 'a domain is at most 253 characters long')
  .regex(
    /^(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?$/,
    'a domain is a host name such as example.com, or *.example.com for every name below it (no scheme, port or path)'
  )

/**
 * The Bash sandbox as the Settings view edits it (docs/sandbox.md#settings): `enabled`,
 * `autoAllowBashIfSandboxed` and `network.allowedDomains` of the user file's `sandbox` block,
 * each optional; its other keys are kept as they are.
 */
export const SandboxValuesSchema = z
  .object({
    enabled: z.boolean(),
    autoAllowBashIfSandboxed: z.boolean(),
    allowedDomains: z
      .array(DomainPatternSchema)
      .max(MAX_ALLOWED_DOMAINS, `allowedDomains holds at most ${MAX_ALLOWED_DOMAINS} domains`)
  })
  .partial()
  .strict()

/**
 * One thing the Bash sandbox needs on this machine (docs/sandbox.md#where-the-sandbox-cannot-start):
 * `bubblewrap`, `user namespaces` (bwrap must be able to start) or `socat` (the network forwarder).
 * `ok` null when it could not be told (user namespaces, with bwrap missing); `detail` says what
 * was found, or what to install or change.
 */
export const SandboxRequirementSchema = z.object({
  name: z.enum(['bubblewrap', 'user namespaces', 'socat']),
  ok: z.boolean().nullable(),
  detail: z.string()
})
export type SandboxRequirement = z.infer<typeof SandboxRequirementSchema>

/**
 * The Bash sandbox as it applies now (docs/sandbox.md), every settings source weighed: `enabled`
 * as set, `active` when it is enabled and bubblewrap starts here (every agent's Bash then runs
 * sandboxed), `problem` why it cannot start, `network` whether sandboxed commands reach allowed
 * domains through the proxy (`proxy`) or have none (`none`: socat missing), `requirements` what
 * this machine has of what it needs, and the merged settings: `autoAllowBashIfSandboxed`,
 * `allowedDomains` and the rest of the block (`filesystem` with permission rules merged in, paths
 * absolute).
 */
export const SandboxStatusSchema = z.object({
  enabled: z.boolean(),
  active: z.boolean(),
  problem: z.string().optional(),
  network: z.enum(['proxy', 'none']),
  requirements: z.array(SandboxRequirementSchema),
  autoAllowBashIfSandboxed: z.boolean(),
  allowedDomains: z.array(z.string()),
  excludedCommands: z.array(z.string()),
  allowUnsandboxedCommands: z.boolean(),
  failIfUnavailable: z.boolean(),
  filesystem: z.object({
    allowWrite: z.array(z.string()),
    denyWrite: z.array(z.string()),
    denyRead: z.array(z.string())
  }),
  deniedDomains: z.array(z.string()),
  allowLocalBinding: z.boolean()
})
export type SandboxStatus = z.infer<typeof SandboxStatusSchema>

/**
 * The `paneScrollbackLines` value: a whole number of lines from {@link MIN_PANE_SCROLLBACK_LINES}
 * to {@link MAX_PANE_SCROLLBACK_LINES}. The settings file (settingsSchema.ts) and the Settings
 * view share it, so both refuse the same values with the same words.
 */
export const PaneScrollbackLinesSchema = z
  .number({ error: 'paneScrollbackLines must be a number of lines, like 2000' })
  .int('paneScrollbackLines must be a whole number of lines, like 2000')
  .min(MIN_PANE_SCROLLBACK_LINES, `paneScrollbackLines must be at least ${MIN_PANE_SCROLLBACK_LINES} lines`)
  .max(
    MAX_PANE_SCROLLBACK_LINES,
    `paneScrollbackLines is at most ${MAX_PANE_SCROLLBACK_LINES} lines (each line kept costs memory in every pane)`
  )

/**
 * The values the Settings view edits, as they stand in the user settings file. Absent = not set
 * there (the runtime's default, or a higher source, applies). Keys map to the file as follows:
 * `defaultMode` and `rules` live in its `permissions` block (Claude Code's shape); every other key
 * is a top-level key of the same name (Swarmdesk's own, docs/ui.md#the-workspace-ui).
 */
const SETTINGS_FIELDS = {
  /** Any Anthropic-compatible endpoint (docs/model.md#model-access); the environment's ANTHROPIC_BASE_URL wins. */
  apiBaseUrl: z
    .url({ protocol: /^https?$/, error: 'the base URL must be an http(s) URL, like https://api.anthropic.com' })
    .max(2000),
  /** The leader's model; `SWARMDESK_MODEL` and `--model` win. */
  model: ModelName,
  /** Every subagent's model, over definitions and calls (docs/agents.md#agent-definitions's override); `SWARMDESK_SUBAGENT_MODEL` wins. */
  subagentModel: ModelName,
  /** Every teammate's model, over definitions and calls. */
  teammateModel: ModelName,
  /** Where a teammate runs when a spawn names no backend (docs/teams.md#spawning-a-teammate); `auto` = `worker`. */
  teammateBackend: z.enum(['auto', 'worker', 'process']),
  defaultMode: z.enum(USER_PERMISSION_MODES),
  rules: z.object({ allow: RuleList, ask: RuleList, deny: RuleList }).strict(),
  forkSubagents: z.boolean(),
  coordinatorMode: z.boolean(),
  /** Seconds before a sync subagent moves to the background (docs/agents.md#auto-background); 0 = never. At most a day. */
  autoBackgroundSeconds: z
    .number()
    .min(0, 'the delay is 0 (never) or more seconds')
    .max(86_400, 'the delay is at most 86400 seconds (a day)'),
  /** Minutes of silence before a running agent is marked stuck (docs/ui.md#the-workspace-ui). */
  stuckAfterMinutes: z
    .number()
    .positive('stuckAfterMinutes must be more than 0')
    .max(1440, 'stuckAfterMinutes is at most 1440 (a day)'),
  /** Lines of scrollback each pane's terminal keeps in the page (src/shared/paneScrollback.ts); default 2,000. */
  paneScrollbackLines: PaneScrollbackLinesSchema,
  /** Part of the `sandbox` block (docs/sandbox.md#settings); see {@link SandboxValuesSchema}. */
  sandbox: SandboxValuesSchema
}
export const SettingsValuesSchema = z.object(SETTINGS_FIELDS).partial()
export type SettingsValues = z.infer<typeof SettingsValuesSchema>
export type SettingsKey = keyof SettingsValues

/** Each field of `shape` made optional and nullable (`null` = remove). */
function removable<T extends Record<string, z.ZodType>>(
  shape: T
): { [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>> } {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.nullable().optional()])) as {
    [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>>
  }
}

/** A change from the Settings view: each key set to a value, or to `null` to remove it from the file. */
export const SettingsPatchSchema = z.object(removable(SETTINGS_FIELDS)).strict()
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>

/**
 * When a change takes effect. `now`: at once. `nextStart`: when Swarmdesk (or `swarmdesk serve`) starts again, because the
 * model connection, the permission engine and the subagent runtime are built at start.
 */
export type TakesEffect = 'now' | 'nextStart'

/** When each setting takes effect; the view says it beside each field. */
export const SETTING_TAKES_EFFECT: Record<SettingsKey | 'apiKey' | 'dataDir', TakesEffect> = {
  /** A key set or removed in Settings applies at once: the next model request uses it. */
  apiKey: 'now',
  apiBaseUrl: 'nextStart',
  model: 'nextStart',
  subagentModel: 'nextStart',
  teammateModel: 'nextStart',
  teammateBackend: 'nextStart',
  defaultMode: 'nextStart',
  /** The leader and its subagents at once; teammates read them when they start. */
  rules: 'now',
  forkSubagents: 'nextStart',
  coordinatorMode: 'nextStart',
  autoBackgroundSeconds: 'nextStart',
  stuckAfterMinutes: 'now',
  /** Every open pane's terminal follows at once; main's own copy of each pane keeps its length. */
  paneScrollbackLines: 'now',
  /** The leader's next turn and its subagents from then on; teammates when they start. */
  sandbox: 'now',
  dataDir: 'nextStart'
}

/**
 * Where the API key comes from (docs/ui.md#the-workspace-ui), never the key itself:
 * - `source`: `environment` (ANTHROPIC_API_KEY, which wins), `keychain` (stored with safeStorage),
 *   or `none`.
 * - `storage`: what storing a key would do here: `encrypted` (the OS keychain), `plainText`
 *   (Linux's `basic_text` backend: only after the person accepts `warning`), `unavailable`
 *   (no encryption at all: refused), `environmentOnly` (the web host: no keychain).
 */
export const ApiKeyStatusSchema = z.object({
  /** `run`: entered in Settings for this run only (the web host), kept in memory. */
  source: z.enum(['environment', 'keychain', 'run', 'none']),
  storage: z.enum(['encrypted', 'plainText', 'unavailable', 'environmentOnly']),
  /** Shown beside the key: why storing is refused, or the plain-text warning to accept. */
  warning: z.string().optional()
})
export type ApiKeyStatus = z.infer<typeof ApiKeyStatusSchema>

/** A project settings key ignored until the workspace is trusted (docs/permissions.md#permissions), with its file. */
export const IgnoredKeySchema = z.object({ key: z.string(), file: z.string() })

/** Hooks configured for one event in one settings file, and whether the runtime runs them. */
export const HookListingSchema = z.object({
  event: z.string(),
  file: z.string(),
  scope: z.enum(['user', 'project', 'local', 'session']),
  /** How many hook commands the entry holds. */
  commands: z.number().int().nonnegative(),
  active: z.boolean()
})
export type HookListing = z.infer<typeof HookListingSchema>

/** Project trust of the open workspace (docs/permissions.md#permissions). */
export const ProjectTrustSchema = z.object({
  workspace: z.string(),
  trusted: z.boolean(),
  /** `file`: recorded in `<home>/trusted.json`; `flag`: `--trust-project` for this run only (cannot be revoked here). */
  via: z.enum(['file', 'flag', 'none']),
  ignored: z.array(IgnoredKeySchema),
  hooks: z.array(HookListingSchema),
  /** Why the trust file could not be read, when it could not (the workspace is then untrusted). */
  problem: z.string().optional()
})
export type ProjectTrust = z.infer<typeof ProjectTrustSchema>

/** Everything the Settings view shows. */
/** The values of the settings the page itself uses, as they apply now (every source weighed). */
export const SettingsEffectiveSchema = z.object({
  stuckAfterMinutes: z.number().positive(),
  paneScrollbackLines: z.number().int().positive(),
  sandbox: SandboxStatusSchema.optional(),
  /** The names of the `teammateHosts` setting: the spawn form's hosts (docs/hosts.md#in-the-ui). */
  teammateHosts: z.array(z.string()).optional()
})
export type SettingsEffective = z.infer<typeof SettingsEffectiveSchema>

export const SettingsViewSchema = z.object({
  /** The user settings file, absolute. */
  file: z.string(),
  values: SettingsValuesSchema,
  /** The data directory (docs/storage.md#layout) and whether SWARMDESK_HOME chose it; changed only by SWARMDESK_HOME, at next start. */
  dataDir: z.object({ path: z.string(), fromEnv: z.boolean() }),
  apiKey: ApiKeyStatusSchema,
  project: ProjectTrustSchema,
  /**
   * The values that apply now, every settings source weighed (user < project < local, docs/permissions.md#permissions),
   * of the settings the page itself uses (`values` holds the user file's alone). The workspace
   * answers them with every view; a page applies them after a save or a trust change.
   */
  effective: SettingsEffectiveSchema.optional(),
  /**
   * Why the last settings reload was refused (a file that does not parse or validate, hooks that
   * cannot be used), naming the file and what to do: the workspace keeps its previous settings
   * until a reload succeeds (docs/permissions.md#reloading-while-it-runs). Absent when the last one applied.
   */
  reloadProblem: z.string().optional()
})
export type SettingsView = z.infer<typeof SettingsViewSchema>

/**
 * The `settings.changed` push: a settings reload ran (a save in the Settings view, a trust change,
 * a settings file edited by hand: docs/permissions.md#reloading-while-it-runs). `effective`: the values
 * that apply now; `reloadProblem`: why the reload was refused, absent when it applied.
 */
export const SettingsChangedSchema = z.object({
  effective: SettingsEffectiveSchema,
  reloadProblem: z.string().optional()
})
export type SettingsChanged = z.infer<typeof SettingsChangedSchema>

/**
 * Channels that touch the OS keychain. The web host's bridge refuses them before they reach the
 * runtime: a browser page never hands the host a key to store (docs/ui.md#the-workspace-ui: the web host's key comes
 * from the environment only).
 */
export const KEYCHAIN_CHANNELS: ReadonlySet<string> = new Set(['settings.setApiKey', 'settings.clearApiKey'])

/** What the web host answers a keychain request with. */
export const WEB_HOST_KEYCHAIN_REFUSAL =
  'The web host has no keychain and never stores an API key: set ANTHROPIC_API_KEY in the environment of `swarmdesk serve`, or enter a key for this run only.'
