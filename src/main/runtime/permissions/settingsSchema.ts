import { z } from 'zod'
import { USER_PERMISSION_MODES } from '../../../shared/permissions'
import { PaneScrollbackLinesSchema } from '../../../shared/settings'
import { TeammateHostsSchema } from '../../../shared/teammateHosts'

/**
 * A settings file (docs/permissions.md#permissions): Claude Code's shape plus Swarmdesk's own keys. Unknown top-level
 * keys are kept (another subsystem may read them), except near-misses of `permissions`, `hooks`
 * and `env`; inside `permissions` every key must be known. `bubble` is internal and cannot be a
 * default mode.
 */
export const PermissionsBlockSchema = z.strictObject({
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  defaultMode: z.enum(USER_PERMISSION_MODES).optional(),
  additionalDirectories: z.array(z.string()).optional(),
  /** Claude Code's switch; accepted so its settings files load. */
  disableBypassPermissionsMode: z.string().optional()
})

/**
 * Claude Code's `sandbox` block (docs/permissions.md#the-bash-sandbox): off unless `enabled`;
 * every key optional, defaults applied when settings are merged (settings.ts `SANDBOX_DEFAULTS`).
 */
export const SandboxBlockSchema = z.strictObject({
  enabled: z.boolean().optional(),
  autoAllowBashIfSandboxed: z.boolean().optional(),
  excludedCommands: z.array(z.string().min(1)).optional(),
  allowUnsandboxedCommands: z.boolean().optional(),
  failIfUnavailable: z.boolean().optional(),
  filesystem: z
    .strictObject({
      allowWrite: z.array(z.string().min(1)).optional(),
      denyWrite: z.array(z.string().min(1)).optional(),
      denyRead: z.array(z.string().min(1)).optional()
    })
    .optional(),
  network: z
    .strictObject({
      allowedDomains: z.array(z.string().min(1)).optional(),
      deniedDomains: z.array(z.string().min(1)).optional(),
      allowLocalBinding: z.boolean().optional()
    })
    .optional()
})
export type SandboxBlock = z.infer<typeof SandboxBlockSchema>

/** Top-level keys whose misspelling would silently drop a policy (a `permisions` block, say). */
const GUARDED_KEYS = ['permissions', 'hooks', 'env', 'sandbox']

/** Edit distance between two short strings (Levenshtein). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = cur
    }
  }
  return row[b.length]!
}

/** The whole file. `hooks` is kept raw: the hooks subsystem validates its own shape. */
export const SettingsFileSchema = z
  .looseObject({
    permissions: PermissionsBlockSchema.optional(),
    hooks: z.record(z.string(), z.unknown()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    sandbox: SandboxBlockSchema.optional(),
    apiBaseUrl: z.string().optional(),
    /** Swarmdesk's fork and coordinator switches (docs/ui.md#the-workspace-ui). */
    forkSubagents: z.boolean().optional(),
    coordinatorMode: z.boolean().optional(),
    /** Where teammates run when a spawn names no backend (docs/teams.md#spawning-a-teammate): `auto` = `worker`. */
    teammateBackend: z.enum(['auto', 'worker', 'process']).optional(),
    /** Seconds a teammate has to answer a shutdown request before it is killed (docs/teams.md#teammate-life-cycle). */
    teammateShutdownTimeoutSeconds: z.number().positive().max(3600).optional(),
    /** Machines `process` teammates can run on over SSH (docs/hosts.md#the-teammatehosts-setting). */
    teammateHosts: TeammateHostsSchema.optional(),
    /**
     * Minutes a running agent may produce no event before the team dashboard marks it stuck
     * (docs/ui.md#the-workspace-ui); default 5. Fractions are allowed (0.5 = 30 s); at most a day.
     */
    stuckAfterMinutes: z
      .number({ error: 'stuckAfterMinutes must be a number of minutes, like 5 or 0.5' })
      .positive('stuckAfterMinutes must be more than 0')
      .max(1440, 'stuckAfterMinutes is at most 1440 (a day)')
      .optional(),
    /**
     * Lines of scrollback each pane's terminal keeps in the page (src/shared/paneScrollback.ts):
     * a whole number from 100 to 100,000; default 2,000. Main's own copy of each pane is not bounded by it.
     */
    paneScrollbackLines: PaneScrollbackLinesSchema.optional(),
    /** The leader's model (Claude Code's `model` key); `--model` and SWARMDESK_MODEL win. */
    model: z.string().min(1).optional(),
    /** Every subagent's model (docs/agents.md#agent-definitions's override); SWARMDESK_SUBAGENT_MODEL wins. */
    subagentModel: z.string().min(1).optional(),
    /** Every teammate's model, over definitions and calls. */
    teammateModel: z.string().min(1).optional(),
    /** Seconds before a sync subagent moves to the background (docs/agents.md#auto-background); 0 = never; SWARMDESK_AUTO_BACKGROUND_MS wins. */
    autoBackgroundSeconds: z
      .number({ error: 'autoBackgroundSeconds must be a number of seconds, like 120' })
      .min(0)
      .max(86_400, 'autoBackgroundSeconds is at most 86400 (a day)')
      .optional()
  })
  .superRefine((file, ctx) => {
    // Unknown keys are kept for other subsystems, but a near-miss of a policy key is an error:
    // ignoring it would leave a weaker policy than the file's author wrote (fail closed).
    for (const key of Object.keys(file)) {
      if (GUARDED_KEYS.includes(key)) continue
      const near = GUARDED_KEYS.find((k) => distance(key.toLowerCase(), k) <= 2)
      if (near) ctx.addIssue({ code: 'custom', path: [key], message: `unknown key "${key}": did you mean "${near}"?` })
    }
  })
export type SettingsFile = z.infer<typeof SettingsFileSchema>

/** `['permissions', 'deny', 2]` → `permissions.deny[2]`. */
export function fieldPath(p: ReadonlyArray<PropertyKey>): string {
  return p.reduce<string>(
    (acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)),
    ''
  )
}

/** What to write instead, per field, for error messages. */
export function fixHint(field: string): string {
  if (field.endsWith('defaultMode')) return `use one of ${USER_PERMISSION_MODES.join(', ')}`
  if (/^permissions\.(allow|ask|deny)/.test(field))
    return 'each rule is a string like "Bash(npm test:*)" or "Read(./src/**)"'
  if (field.startsWith('permissions'))
    return 'the permissions block takes allow, ask, deny, defaultMode and additionalDirectories'
  if (field.startsWith('sandbox'))
    return 'the sandbox block takes enabled, autoAllowBashIfSandboxed, excludedCommands, allowUnsandboxedCommands, failIfUnavailable, filesystem {allowWrite, denyWrite, denyRead} and network {allowedDomains, deniedDomains, allowLocalBinding}'
  if (field.startsWith('teammateHosts'))
    return 'teammateHosts is a list of {name, destination, workspace, command, port?, identityFile?, sshOptions?} (docs/hosts.md)'
  if (field.startsWith('env')) return 'env maps names to string values'
  return 'see the settings format in docs/permissions.md#permissions'
}
