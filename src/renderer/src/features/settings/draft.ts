import type { SettingsPatch, SettingsValues } from '../../../../shared/settings'

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
    deny: (values.rules?.deny ?? []).join('\n')
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
  for (const key of ['apiBaseUrl', 'model', 'teammateModel', 'subagentModel'] as const) if (draft[key].trim() !== before[key]) patch[key] = textOrNull(draft[key])
  for (const key of ['teammateBackend', 'defaultMode'] as const) if (draft[key] !== before[key]) patch[key] = draft[key] === '' ? null : draft[key]
  for (const key of ['forkSubagents', 'coordinatorMode'] as const) if (draft[key] !== before[key]) patch[key] = draft[key]
  for (const key of ['autoBackgroundSeconds', 'stuckAfterMinutes', 'paneScrollbackLines'] as const) if (draft[key].trim() !== before[key]) patch[key] = numberOrNull(draft[key])
  if ((['allow', 'ask', 'deny'] as const).some((k) => lines(draft[k]).join('\n') !== lines(before[k]).join('\n'))) {
    patch.rules = { allow: lines(draft.allow), ask: lines(draft.ask), deny: lines(draft.deny) }
  }
  return patch as SettingsPatch
}

/** Inputs the form itself can tell are not numbers, named for the person; main judges everything else. */
export function draftProblems(draft: SettingsDraft): string[] {
  const problems: string[] = []
  const check = (text: string, label: string): void => {
    if (text.trim() !== '' && !Number.isFinite(Number(text.trim()))) problems.push(`${label}: "${text.trim()}" is not a number.`)
  }
  check(draft.autoBackgroundSeconds, 'Auto-background delay')
  check(draft.stuckAfterMinutes, 'Stuck threshold')
  check(draft.paneScrollbackLines, 'Pane scrollback')
  return problems
}
