import type { SandboxStatus } from '../../../../shared/settings'
import type { FieldIssues } from '../../lib/fieldIssues'
import { Applies } from './Applies'
import { SandboxApplies, SandboxRequirements } from './SandboxDetails'
import type { SettingsDraft } from './draft'

/** What the sandbox does here now, in one sentence (the merged settings and what this machine has). */
function statusLine(status: SandboxStatus | undefined): string {
  if (!status) return ''
  if (!status.enabled) return 'Off: Bash runs with your rights, held by the permission rules alone.'
  if (!status.active) return `On, but it cannot start here: ${status.problem ?? 'bubblewrap is missing'}.`
  const network =
    status.network === 'proxy'
      ? `network only through the proxy: ${status.allowedDomains.length ? status.allowedDomains.join(', ') : 'no domain'} allowed, others ask`
      : 'no network at all (install socat for allowed domains)'
  return `On: every agent's Bash runs under bubblewrap; ${network}.`
}

/**
 * The Settings view's Bash sandbox (docs/sandbox.md#settings): whether it is on and starts here
 * (the values that apply now, every settings source weighed), what this machine has of what it
 * needs (bubblewrap, user namespaces, socat) and what to install; the user file's `enabled`,
 * `autoAllowBashIfSandboxed` and `network.allowedDomains`, edited with the rest of the form; the
 * block's other settings as they apply, read-only.
 */
export function SandboxSection({
  draft,
  set,
  problems,
  status
}: {
  draft: SettingsDraft
  set: <K extends keyof SettingsDraft>(key: K) => (value: SettingsDraft[K]) => void
  problems: FieldIssues
  status: SandboxStatus | undefined
}) {
  return (
    <fieldset className="settings-group" data-testid="settings-sandbox">
      <legend>
        Bash sandbox <Applies setting="sandbox" />
      </legend>
      <p className="small" data-testid="sandbox-status" data-active={status?.active ? 'true' : 'false'}>
        {statusLine(status)}
      </p>
      {status ? <SandboxRequirements requirements={status.requirements} /> : null}
      <label className="settings-field" title="Run every agent's Bash under bubblewrap (Linux).">
        <span className="settings-label">Sandbox Bash</span>
        <input
          type="checkbox"
          data-testid="sandbox-enabled"
          checked={draft.sandboxEnabled}
          onChange={(e) => set('sandboxEnabled')(e.target.checked)}
        />
        <span className="settings-hint muted small">
          Writes only in the agent&apos;s folder and a temp folder; network only to allowed domains.
        </span>
      </label>
      <label className="settings-field" title="A sandboxed command runs without a permission question.">
        <span className="settings-label">Auto-allow sandboxed Bash</span>
        <input
          type="checkbox"
          data-testid="sandbox-auto-allow"
          checked={draft.sandboxAutoAllow}
          onChange={(e) => set('sandboxAutoAllow')(e.target.checked)}
        />
        <span className="settings-hint muted small">
          The sandbox, not a prompt, stops what it may not do; deny and ask rules still apply.
        </span>
      </label>
      <label className={`rules-list${problems.allowedDomains ? ' invalid' : ''}`}>
        <span>allowed domains</span>
        <textarea
          rows={3}
          spellCheck={false}
          aria-label="allowed domains"
          aria-invalid={problems.allowedDomains ? true : undefined}
          data-testid="sandbox-domains"
          placeholder={'registry.npmjs.org\n*.github.com'}
          value={draft.allowedDomains}
          onChange={(e) => set('allowedDomains')(e.target.value)}
        />
        {problems.allowedDomains ? (
          <span className="settings-field-error" data-testid="field-error-allowedDomains">
            {problems.allowedDomains.join(' ')}
          </span>
        ) : null}
      </label>
      <p className="muted small">
        One per line: example.com, or *.example.com for every name below it. Any other domain asks once per session.
      </p>
      {status ? (
        <details className="sandbox-more" data-testid="sandbox-more" open>
          <summary>The rest of the sandbox settings, as they apply (edit them in a settings file)</summary>
          <SandboxApplies status={status} />
        </details>
      ) : null}
    </fieldset>
  )
}
