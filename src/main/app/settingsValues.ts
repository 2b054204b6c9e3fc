import { SettingsValuesSchema, type SettingsPatch, type SettingsValues } from '../../shared/settings'
import { applySandboxPatch, sandboxValuesOf } from './sandboxView'

// The user settings file as the Settings view reads and writes it (settingsControl.ts,
// docs/ui.md#the-workspace-ui): its values for the form, a patch written back in Claude Code's shape.

/** Top-level keys of the user settings file the view edits as they are (every key but `defaultMode` and `rules`). */
export const TOP_LEVEL_KEYS = [
  'apiBaseUrl',
  'model',
  'subagentModel',
  'teammateModel',
  'teammateBackend',
  'forkSubagents',
  'coordinatorMode',
  'autoBackgroundSeconds',
  'stuckAfterMinutes',
  'paneScrollbackLines'
] as const
export const RULE_KINDS = ['allow', 'ask', 'deny'] as const

/** Hook commands of one event's entries (`[{matcher, hooks: [...]}]`, Claude Code's shape). */
export function commandCount(entries: unknown): number {
  if (!Array.isArray(entries)) return 0
  return entries.reduce<number>(
    (n, e) => n + (Array.isArray((e as { hooks?: unknown })?.hooks) ? (e as { hooks: unknown[] }).hooks.length : 0),
    0
  )
}

/** The view's values from the raw user file; a value the view cannot show as valid is left out. */
export function valuesOf(raw: Record<string, unknown>): SettingsValues {
  const perms = (typeof raw.permissions === 'object' && raw.permissions !== null ? raw.permissions : {}) as Record<
    string,
    unknown
  >
  const candidate: Record<string, unknown> = {}
  for (const key of TOP_LEVEL_KEYS) if (raw[key] !== undefined) candidate[key] = raw[key]
  if (perms.defaultMode !== undefined) candidate.defaultMode = perms.defaultMode
  const sandbox = sandboxValuesOf(raw)
  if (Object.keys(sandbox).length) candidate.sandbox = sandbox
  candidate.rules = Object.fromEntries(RULE_KINDS.map((k) => [k, Array.isArray(perms[k]) ? perms[k] : []]))
  const values: SettingsValues = {}
  const shape = SettingsValuesSchema.shape
  for (const [key, value] of Object.entries(candidate)) {
    const parsed = shape[key as keyof typeof shape].safeParse(value)
    if (parsed.success) Object.assign(values, { [key]: parsed.data })
  }
  return values
}

/** Writes `patch` into the raw file `data` in Claude Code's shape; `null` removes a key. */
export function applyPatch(data: Record<string, unknown>, patch: SettingsPatch): void {
  for (const key of TOP_LEVEL_KEYS) {
    const value = patch[key]
    if (value === null) delete data[key]
    else if (value !== undefined) data[key] = value
  }
  applySandboxPatch(data, patch.sandbox)
  if (patch.defaultMode === undefined && patch.rules === undefined) return
  const perms = (typeof data.permissions === 'object' && data.permissions !== null ? data.permissions : {}) as Record<
    string,
    unknown
  >
  if (patch.defaultMode === null) delete perms.defaultMode
  else if (patch.defaultMode !== undefined) perms.defaultMode = patch.defaultMode
  if (patch.rules === null) for (const kind of RULE_KINDS) delete perms[kind]
  else if (patch.rules) for (const kind of RULE_KINDS) perms[kind] = [...patch.rules[kind]]
  if (Object.keys(perms).length) data.permissions = perms
  else delete data.permissions
}
