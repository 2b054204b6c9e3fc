import { z } from 'zod'
import { USER_PERMISSION_MODES } from '../../../shared/permissions'

/**
 * A settings file (SPEC §4): Claude Code's shape plus Swarmdesk's own keys; unknown keys are
 * kept (another subsystem may read them) and never rejected. `bubble` is internal and cannot be
 * a default mode.
 */
export const PermissionsBlockSchema = z.looseObject({
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  defaultMode: z.enum(USER_PERMISSION_MODES).optional(),
  additionalDirectories: z.array(z.string()).optional()
})

/** The whole file. `hooks` is kept raw: the hooks subsystem validates its own shape. */
export const SettingsFileSchema = z.looseObject({
  permissions: PermissionsBlockSchema.optional(),
  hooks: z.record(z.string(), z.unknown()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  apiBaseUrl: z.string().optional()
})
export type SettingsFile = z.infer<typeof SettingsFileSchema>

/** `['permissions', 'deny', 2]` → `permissions.deny[2]`. */
export function fieldPath(p: ReadonlyArray<PropertyKey>): string {
  return p.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '')
}

/** What to write instead, per field, for error messages. */
export function fixHint(field: string): string {
  if (field.endsWith('defaultMode')) return `use one of ${USER_PERMISSION_MODES.join(', ')}`
  if (/^permissions\.(allow|ask|deny)/.test(field)) return 'each rule is a string like "Bash(npm test:*)" or "Read(./src/**)"'
  if (field.startsWith('env')) return 'env maps names to string values'
  return 'see the settings format in SPEC §4'
}
