import { useEffect, useState, type ReactNode } from 'react'
import { USER_PERMISSION_MODES } from '../../../../shared/permissions'
import type { SettingsView } from '../../../../shared/settings'
import { useAppStore } from '../../store/store'
import { ApiKeySection } from './ApiKeySection'
import { Applies } from './Applies'
import type { FieldIssues } from '../../lib/fieldIssues'
import { draftOf, draftProblems, FIELD_LABELS, patchOf, type SettingsDraft } from './draft'
import './settings.css'
import { settingsCommands, useSettings } from './settingsStore'
import { SandboxSection } from './SandboxSection'
import { TrustSection } from './TrustSection'
import { McpSection } from './McpSection'

/** The top bar's button that opens Settings. */
export function SettingsButton() {
  const open = useAppStore((s) => s.connection.status === 'open')
  return (
    <button
      type="button"
      className="topbar-toggle"
      data-testid="open-settings"
      aria-label="Settings"
      title="Settings: API key, models, rules, project trust"
      disabled={!open}
      onClick={() => void settingsCommands.open()}
    >
      ⚙
    </button>
  )
}

/**
 * The Settings view (docs/ui.md#the-workspace-ui, issue 8) as a modal dialog: the API key's status, the user settings
 * file's values (base URL, models per role, teammate backend, default permission mode, rules,
 * fork and coordinator switches, auto-background delay, stuck threshold, pane scrollback), the
 * data directory and project trust. Saving sends only what changed; main validates it (each rule with the permission
 * engine's parser) and answers with the saved view, or refuses with a message shown here.
 */
export function SettingsDialog() {
  const open = useSettings((s) => s.open)
  const view = useSettings((s) => s.view)
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') settingsCommands.close()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open])
  if (!open) return null
  return (
    <div className="settings-backdrop" onMouseDown={(e) => e.target === e.currentTarget && settingsCommands.close()}>
      <div
        className="settings-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="settings-title"
        data-testid="settings-dialog"
      >
        <header className="settings-header">
          <h2 id="settings-title">Settings</h2>
          <button type="button" className="btn btn-small" aria-label="Close settings" onClick={settingsCommands.close}>
            Close
          </button>
        </header>
        <ReloadProblem />
        {view ? <SettingsBody view={view} /> : <Status />}
      </div>
    </div>
  )
}

/** Why main's last settings reload was refused: it keeps its previous settings until a file loads again. */
function ReloadProblem() {
  const problem = useSettings((s) => s.reloadProblem)
  if (!problem) return null
  return (
    <p className="settings-error settings-reload-problem" role="alert" data-testid="settings-reload-problem">
      {problem}
    </p>
  )
}

/** The last request's outcome: main's refusal, or what was done. */
function Status() {
  const error = useSettings((s) => s.error)
  const notice = useSettings((s) => s.notice)
  const busy = useSettings((s) => s.busy)
  if (error)
    return (
      <p className="settings-error" role="alert" data-testid="settings-error">
        {error}
      </p>
    )
  if (notice)
    return (
      <p className="settings-notice" role="status" data-testid="settings-notice">
        {notice}
      </p>
    )
  return busy ? <p className="muted">Loading…</p> : null
}

function SettingsBody({ view }: { view: SettingsView }) {
  const busy = useSettings((s) => s.busy)
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(view.values))
  const [problems, setProblems] = useState<FieldIssues>({})
  // the saved values changed (a save, a reload): the form starts again from them
  useEffect(() => setDraft(draftOf(view.values)), [view.values])
  const set =
    <K extends keyof SettingsDraft>(key: K) =>
    (value: SettingsDraft[K]) =>
      setDraft((d) => ({ ...d, [key]: value }))
  const save = (): void => {
    const found = draftProblems(view.values, draft)
    setProblems(found)
    if (Object.keys(found).length === 0) void settingsCommands.save(patchOf(view.values, draft))
  }
  return (
    <form
      className="settings-body"
      onSubmit={(e) => {
        e.preventDefault()
        save()
      }}
    >
      <p className="muted small">
        Saved to <span className="mono">{view.file}</span>. Keys this view does not show are kept. Project and local
        settings of the workspace and <code>--settings</code> files can override these.
      </p>
      <ApiKeySection status={view.apiKey} />
      <fieldset className="settings-group">
        <legend>Model</legend>
        <Field
          label="Base URL"
          applies="apiBaseUrl"
          hint="Any Anthropic-compatible endpoint; ANTHROPIC_BASE_URL wins."
          problems={problems.apiBaseUrl}
        >
          <input
            type="url"
            value={draft.apiBaseUrl}
            placeholder="https://api.anthropic.com"
            onChange={(e) => set('apiBaseUrl')(e.target.value)}
          />
        </Field>
        <Field
          label="Leader model"
          applies="model"
          hint="An alias (opus, sonnet, haiku) or a model id; --model and SWARMDESK_MODEL win."
          problems={problems.model}
        >
          <input value={draft.model} placeholder="default" onChange={(e) => set('model')(e.target.value)} />
        </Field>
        <Field
          label="Teammate model"
          applies="teammateModel"
          hint="Every teammate's model, over agent definitions."
          problems={problems.teammateModel}
        >
          <input
            value={draft.teammateModel}
            placeholder="from the agent definition"
            onChange={(e) => set('teammateModel')(e.target.value)}
          />
        </Field>
        <Field
          label="Subagent model"
          applies="subagentModel"
          hint="Every subagent's model; SWARMDESK_SUBAGENT_MODEL wins."
          problems={problems.subagentModel}
        >
          <input
            value={draft.subagentModel}
            placeholder="from the agent definition"
            onChange={(e) => set('subagentModel')(e.target.value)}
          />
        </Field>
      </fieldset>
      <fieldset className="settings-group">
        <legend>Agents</legend>
        <Field
          label="Teammate backend"
          applies="teammateBackend"
          hint="Where a teammate runs when a spawn names none."
          problems={problems.teammateBackend}
        >
          <select
            value={draft.teammateBackend}
            onChange={(e) => set('teammateBackend')(e.target.value as SettingsDraft['teammateBackend'])}
          >
            <option value="">not set (worker)</option>
            <option value="auto">auto (worker)</option>
            <option value="worker">worker thread</option>
            <option value="process">process in a terminal</option>
          </select>
        </Field>
        <Field
          label="Default permission mode"
          applies="defaultMode"
          hint="The mode a session starts in; the top bar changes the running one."
          problems={problems.defaultMode}
        >
          <select
            value={draft.defaultMode}
            onChange={(e) => set('defaultMode')(e.target.value as SettingsDraft['defaultMode'])}
          >
            <option value="">not set (default)</option>
            {USER_PERMISSION_MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Fork subagents"
          applies="forkSubagents"
          hint="An Agent call without a type forks the leader."
          problems={problems.forkSubagents}
        >
          <input
            type="checkbox"
            checked={draft.forkSubagents}
            onChange={(e) => set('forkSubagents')(e.target.checked)}
          />
        </Field>
        <Field
          label="Coordinator mode"
          applies="coordinatorMode"
          hint="The leader only orchestrates workers; wins over forks."
          problems={problems.coordinatorMode}
        >
          <input
            type="checkbox"
            checked={draft.coordinatorMode}
            onChange={(e) => set('coordinatorMode')(e.target.checked)}
          />
        </Field>
        <Field
          label="Auto-background after (s)"
          applies="autoBackgroundSeconds"
          hint="A sync subagent moves to the background after this long; 0 = never; default 120."
          problems={problems.autoBackgroundSeconds}
        >
          <input
            inputMode="decimal"
            value={draft.autoBackgroundSeconds}
            placeholder="120"
            onChange={(e) => set('autoBackgroundSeconds')(e.target.value)}
          />
        </Field>
        <Field
          label="Stuck after (min)"
          applies="stuckAfterMinutes"
          hint="A running agent silent this long is marked stuck on the dashboard; default 5."
          problems={problems.stuckAfterMinutes}
        >
          <input
            inputMode="decimal"
            value={draft.stuckAfterMinutes}
            placeholder="5"
            onChange={(e) => set('stuckAfterMinutes')(e.target.value)}
          />
        </Field>
      </fieldset>
      <fieldset className="settings-group">
        <legend>Panes</legend>
        <Field
          label="Pane scrollback (lines)"
          applies="paneScrollbackLines"
          hint="Lines of output each pane keeps to scroll back through, 100 to 100,000; default 1,000. More lines use more memory per pane."
          problems={problems.paneScrollbackLines}
        >
          <input
            inputMode="numeric"
            value={draft.paneScrollbackLines}
            placeholder="1000"
            onChange={(e) => set('paneScrollbackLines')(e.target.value)}
          />
        </Field>
      </fieldset>
      <fieldset className="settings-group">
        <legend>
          Permission rules <Applies setting="rules" />
        </legend>
        <p className="muted small">
          One rule per line, Claude Code syntax: <code>Bash(npm run test:*)</code>, <code>Read(./src/**)</code>,{' '}
          <code>Edit(//abs/path/**)</code>, <code>Agent(Explore)</code>. Deny wins, then ask, then allow. Saved rules
          apply at once to the leader and its subagents, and to teammates started from then on.
        </p>
        <div className="rules-grid">
          {(['allow', 'ask', 'deny'] as const).map((kind) => (
            <label key={kind} className="rules-list">
              <span>{kind}</span>
              <textarea
                rows={5}
                spellCheck={false}
                aria-label={`${kind} rules`}
                aria-invalid={problems[kind] ? true : undefined}
                data-testid={`rules-${kind}`}
                value={draft[kind]}
                onChange={(e) => set(kind)(e.target.value)}
              />
              {problems[kind] ? <FieldProblems field={kind} problems={problems[kind]} /> : null}
            </label>
          ))}
        </div>
      </fieldset>
      <SandboxSection draft={draft} set={set} problems={problems} status={view.effective?.sandbox} />
      <fieldset className="settings-group">
        <legend>
          Data directory <Applies setting="dataDir" />
        </legend>
        <p>
          <span className="mono" data-testid="data-dir">
            {view.dataDir.path}
          </span>{' '}
          <span className="muted">({view.dataDir.fromEnv ? 'from SWARMDESK_HOME' : 'the default, ~/.swarmdesk'})</span>
        </p>
        <p className="muted small">
          To use another one, set SWARMDESK_HOME before starting Swarmdesk; it takes effect at that start.
        </p>
      </fieldset>
      <TrustSection project={view.project} />
      <McpSection />
      <footer className="settings-footer">
        {Object.keys(problems).length ? (
          <p className="settings-error" role="alert" data-testid="settings-error">
            {problemSummary(problems)}
          </p>
        ) : (
          <Status />
        )}
        <button type="submit" className="btn btn-send" data-testid="settings-save" disabled={busy}>
          Save
        </button>
      </footer>
    </form>
  )
}

/** One labelled setting with its when-it-applies tag, a hint, and what is wrong with its value (words, beside it). */
function Field({
  label,
  applies,
  hint,
  problems,
  children
}: {
  label: string
  applies: Parameters<typeof Applies>[0]['setting']
  hint: string
  problems?: string[] | undefined
  children: ReactNode
}) {
  return (
    <label className={`settings-field${problems?.length ? ' invalid' : ''}`} title={hint}>
      <span className="settings-label">
        {label} <Applies setting={applies} />
      </span>
      {children}
      {problems?.length ? <FieldProblems field={applies} problems={problems} /> : null}
      <span className="settings-hint muted small">{hint}</span>
    </label>
  )
}

/** A field's problems, one line each: `span.settings-field-error[data-testid=field-error-<key>]`. */
function FieldProblems({ field, problems }: { field: string; problems: string[] }) {
  return (
    <span className="settings-field-error" data-testid={`field-error-${field}`}>
      {problems.join(' ')}
    </span>
  )
}

/** The footer's summary of a refused form: which fields to fix (each says why beside it). */
function problemSummary(problems: FieldIssues): string {
  // in the form's order, top to bottom
  const fields = (Object.keys(FIELD_LABELS) as Array<keyof SettingsDraft>).filter((k) => problems[k]?.length)
  const names = fields.map((k) => FIELD_LABELS[k])
  const general = problems['']?.join(' ')
  return [
    `Nothing was saved: ${fields.length === 1 ? 'fix the marked field' : `fix the ${fields.length} marked fields`} (${names.join(', ')}).`,
    general
  ]
    .filter(Boolean)
    .join(' ')
}
