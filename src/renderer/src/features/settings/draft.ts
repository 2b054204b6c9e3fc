import { SettingsPatchSchema, type SettingsPatch, type SettingsValues } from '../../../../shared/settings'
import { issuesByField, mergeFieldIssues, type FieldIssues, type IssueLike } from '../../lib/fieldIssues'

/**
 * The Settings form as the person edits it: text for every input, one rule per line. Pure
 * conversions to and from the saved values, so what is sent is exactly what changed.
 */
export interface SettingsDraft {
  apiBaseUrl: string
  model: string
  teammateModel: string
  subagentModel: string
  teammateBackend: '' | 'auto' | 'worker' | 'process'
  defaultMode: '' | NonNullable<SettingsValues['defaultMode']>
  forkSubagents: boolean
  coordinatorMode: boolean
  autoBackgroundSeconds: string
  stuckAfterMinutes: string
  paneScrollbackLines: string
  allow: string
  ask: string
  deny: string
  /** The Bash sandbox (docs/sandbox.md#settings): on, auto-allow, allowed domains one per line. */
  sandboxEnabled: boolean
  sandboxAutoAllow: boolean
  allowedDomains: string
}

/** The form for `values` (absent values as empty inputs, unchecked boxes). */
export function draftOf(values: SettingsValues): SettingsDraft {
  return {
    apiBaseUrl: values.apiBaseUrl ?? '',
    model: values.model ?? '',
    teammateModel: values.teammateModel ?? '',
    subagentModel: values.subagentModel ?? '',
    teammateBackend: values.teammateBackend ?? '',
    defaultMode: values.defaultMode ?? '',
    forkSubagents: values.forkSubagents ?? false,
    coordinatorMode: values.coordinatorMode ?? false,
    autoBackgroundSeconds: values.autoBackgroundSeconds === undefined ? '' : String(values.autoBackgroundSeconds),
    stuckAfterMinutes: values.stuckAfterMinutes === undefined ? '' : String(values.stuckAfterMinutes),
    paneScrollbackLines: values.paneScrollbackLines === undefined ? '' : String(values.paneScrollbackLines),
    allow: (values.rules?.allow ?? []).join('\n'),
    ask: (values.rules?.ask ?? []).join('\n'),
    deny: (values.rules?.deny ?? []).join('\n'),
    // absent = the defaults: off, and auto-allow when on
    sandboxEnabled: values.sandbox?.enabled ?? false,
    sandboxAutoAllow: values.sandbox?.autoAllowBashIfSandboxed ?? true,
    allowedDomains: (values.sandbox?.allowedDomains ?? []).join('\n')
  }
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')

/** A number input: empty = remove (null); a number otherwise ({@link draftProblems} catches text that is not one). */
const numberOrNull = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()))
const textOrNull = (text: string): string | null => (text.trim() === '' ? null : text.trim())

/**
 * What changed between the saved `values` and `draft`, as a patch: emptied inputs become `null`
 * (removed from the file), unchanged fields are left out. Rules are sent as whole lists when any
 * list changed.
 */
export function patchOf(values: SettingsValues, draft: SettingsDraft): SettingsPatch {
  const before = draftOf(values)
  const patch: Record<string, unknown> = {}
  for (const key of ['apiBaseUrl', 'model', 'teammateModel', 'subagentModel'] as const)
    if (draft[key].trim() !== before[key]) patch[key] = textOrNull(draft[key])
  for (const key of ['teammateBackend', 'defaultMode'] as const)
    if (draft[key] !== before[key]) patch[key] = draft[key] === '' ? null : draft[key]
  for (const key of ['forkSubagents', 'coordinatorMode'] as const)
    if (draft[key] !== before[key]) patch[key] = draft[key]
  for (const key of ['autoBackgroundSeconds', 'stuckAfterMinutes', 'paneScrollbackLines'] as const)
    if (draft[key].trim() !== before[key]) patch[key] = numberOrNull(draft[key])
  if ((['allow', 'ask', 'deny'] as const).some((k) => lines(draft[k]).join('\n') !== lines(before[k]).join('\n'))) {
    patch.rules = { allow: lines(draft.allow), ask: lines(draft.ask), deny: lines(draft.deny) }
  }
  // only the sandbox keys that changed: the file keeps the others as they are
  const sandbox: Record<string, unknown> = {}
  if (draft.sandboxEnabled !== before.sandboxEnabled) sandbox.enabled = draft.sandboxEnabled
  if (draft.sandboxAutoAllow !== before.sandboxAutoAllow) sandbox.autoAllowBashIfSandboxed = draft.sandboxAutoAllow
  if (lines(draft.allowedDomains).join('\n') !== lines(before.allowedDomains).join('\n'))
    sandbox.allowedDomains = lines(draft.allowedDomains)
  if (Object.keys(sandbox).length) patch.sandbox = sandbox
  return patch as SettingsPatch
}

/** What each field of the form is called on screen (the labels of SettingsDialog), for a summary of problems. */
export const FIELD_LABELS: Record<keyof SettingsDraft, string> = {
  apiBaseUrl: 'Base URL',
  model: 'Leader model',
  teammateModel: 'Teammate model',
  subagentModel: 'Subagent model',
  teammateBackend: 'Teammate backend',
  defaultMode: 'Default permission mode',
  forkSubagents: 'Fork subagents',
  coordinatorMode: 'Coordinator mode',
  autoBackgroundSeconds: 'Auto-background after',
  stuckAfterMinutes: 'Stuck after',
  paneScrollbackLines: 'Pane scrollback',
  allow: 'allow rules',
  ask: 'ask rules',
  deny: 'deny rules',
  sandboxEnabled: 'Sandbox Bash',
  sandboxAutoAllow: 'Auto-allow sandboxed Bash',
  allowedDomains: 'Allowed domains'
}

/** The form field of each key of the patch's `sandbox` object. */
const SANDBOX_FIELDS: Record<string, keyof SettingsDraft> = {
  enabled: 'sandboxEnabled',
  autoAllowBashIfSandboxed: 'sandboxAutoAllow',
  allowedDomains: 'allowedDomains'
}

/**
 * The form field a `settings.update` issue is about: `values.<key>` (or `<key>` of a bare
 * patch) is that field; `rules.<allow|ask|deny>.<n>` is that rule list. Undefined for the patch as a whole.
 */
export function draftFieldOf(path: readonly PropertyKey[]): keyof SettingsDraft | undefined {
  const p = path[0] === 'values' ? path.slice(1) : path
  if (p[0] === 'sandbox') return typeof p[1] === 'string' ? SANDBOX_FIELDS[p[1]] : undefined
  const key = p[0] === 'rules' ? p[1] : p[0]
  return typeof key === 'string' && Object.hasOwn(FIELD_LABELS, key) ? (key as keyof SettingsDraft) : undefined
}

/**
 * Every problem of the form at once, per field in words: number inputs that are not numbers (the
 * form can tell), then whatever the Settings contract (SettingsPatchSchema, the same schema main
 * checks first) refuses in the patch the form would send. Main still judges the rest (a rule's
 * syntax, with the permission engine's parser) and may refuse the save with its own message.
 */
export function draftProblems(values: SettingsValues, draft: SettingsDraft): FieldIssues {
  const found: FieldIssues = {}
  for (const key of ['autoBackgroundSeconds', 'stuckAfterMinutes', 'paneScrollbackLines'] as const) {
    const text = draft[key].trim()
    if (text !== '' && !Number.isFinite(Number(text))) found[key] = [`"${text}" is not a number.`]
  }
  const checked = SettingsPatchSchema.safeParse(patchOf(values, draft))
  const contract = checked.success ? {} : patchIssues(checked.error.issues)
  // a field the form already called "not a number" needs no second word from the schema
  for (const key of Object.keys(found)) delete contract[key]
  return mergeFieldIssues(found, contract)
}

/** Issues of a `settings.update` (its `values`, or a bare patch) by form field; the patch as a whole under `''`. */
export function patchIssues(issues: readonly IssueLike[]): FieldIssues {
  return issuesByField(issues, draftFieldOf)
}
