import type { SandboxRequirement, SandboxStatus } from '../../../../shared/settings'

const MARK: Record<string, string> = { true: '✓', false: '✗', null: '?' }

/**
 * What the Bash sandbox needs on this machine (docs/sandbox.md#where-the-sandbox-cannot-start):
 * bubblewrap, user namespaces, socat — each found or not, with what to install or change.
 */
export function SandboxRequirements({ requirements }: { requirements: SandboxRequirement[] }) {
  return (
    <ul className="settings-list sandbox-requirements" data-testid="sandbox-requirements">
      {requirements.map((r) => (
        <li
          key={r.name}
          data-testid={`sandbox-req-${r.name.replace(/ /g, '-')}`}
          data-ok={String(r.ok)}
          className={r.ok === true ? 'req-ok' : r.ok === false ? 'req-missing' : 'req-unknown'}
        >
          <span aria-hidden="true">{MARK[String(r.ok)]}</span> <strong>{r.name}</strong>: {r.detail}
        </li>
      ))}
    </ul>
  )
}

/** A list as the view shows it: comma-separated, or `none`. */
const listed = (items: string[]): string => (items.length ? items.join(', ') : 'none')
const yesNo = (on: boolean): string => (on ? 'yes' : 'no')

/**
 * The rest of the merged `sandbox` block as it applies now, read-only (docs/sandbox.md#settings):
 * it is edited in a settings file. Filesystem lists include what permission rules add.
 */
export function SandboxApplies({ status }: { status: SandboxStatus }) {
  const rows: Array<[string, string, string]> = [
    ['excludedCommands', 'Run outside the sandbox (excludedCommands)', listed(status.excludedCommands)],
    [
      'allowUnsandboxedCommands',
      'A command may ask to run outside (allowUnsandboxedCommands)',
      yesNo(status.allowUnsandboxedCommands)
    ],
    ['failIfUnavailable', 'Refuse commands when it cannot start (failIfUnavailable)', yesNo(status.failIfUnavailable)],
    ['allowWrite', 'Also writable (filesystem.allowWrite)', listed(status.filesystem.allowWrite)],
    ['denyWrite', 'Read-only (filesystem.denyWrite)', listed(status.filesystem.denyWrite)],
    ['denyRead', 'Hidden (filesystem.denyRead)', listed(status.filesystem.denyRead)],
    ['deniedDomains', 'Refused domains (network.deniedDomains)', listed(status.deniedDomains)],
    [
      'allowLocalBinding',
      'Local binding (network.allowLocalBinding)',
      `${yesNo(status.allowLocalBinding)} (the sandbox's own loopback is always usable)`
    ]
  ]
  return (
    <dl className="sandbox-applies" data-testid="sandbox-applies">
      {rows.map(([key, label, value]) => (
        <div key={key} className="sandbox-applies-row">
          <dt>{label}</dt>
          <dd data-testid={`sandbox-applies-${key}`}>{value}</dd>
        </div>
      ))}
    </dl>
  )
}
