import type { CSSProperties } from 'react'
import { sandboxMarkText } from '../../../../shared/events'
import type { PendingPermission } from '../../../../shared/ipc'
import { AgentBadge } from '../../ui/AgentBadge'
import { alwaysAllowRule } from '../../store/commands'
import type { CardPlacement } from '../../store/permissionsSlice'
import { selectActivePermission, selectAgent } from '../../store/selectors'
import { actions, useAppStore } from '../../store/store'
import { agentColor } from '../../store/colors'
import { teamAllowDirOf } from '../../../../shared/teamAllowOffer'
import { allowForTeam, alwaysAllowScope, alwaysAllowTitle, confirmDeny, runAction } from './answer'
import { DenyForm, type DenyFormLabels } from './DenyForm'
import { InputView } from './InputView'
import { isPlanApproval } from './readableInput'
import { SHORTCUT_KEYS } from './shortcuts'
import './permissions.css'

/** A plan rejection's form: the reason goes back to the teammate as feedback (docs/teams.md#plan-approval). */
function planRejectLabels(name: string): DenyFormLabels {
  return {
    confirm: 'Confirm reject',
    placeholder: `Feedback for ${name}: what to change (optional)`,
    field: 'Feedback on the plan'
  }
}

/**
 * A permission bubble (docs/ui.md#the-workspace-ui): who asks (the agent's colour dot and name — a teammate's team
 * colour, its `name@team` on hover), for which tool, the input made readable, the engine's reason,
 * and the three answers with their shortcuts. Drawn pinned to the agent's pane and in the global
 * queue; both show the same request.
 *
 * "Always allow" names the exact rule it adds and where it is kept: in this session's memory, for
 * the asking agent only (docs/permissions.md#permissions; main refuses any rule the request did not offer) — but a
 * sandbox network question's host, which is saved in the workspace's local settings
 * (docs/sandbox.md#network). A request without a suggested rule (a process teammate's) offers no "Always allow".
 *
 * A teammate's Read/Edit/Write of a file outside the workspace also offers "Allow for the team in
 * <dir>": the file's folder joins the team's allowed paths (docs/teams.md#allowed-paths) and the
 * request is allowed once.
 *
 * A plan approval (tool `ExitPlanMode`, input `{plan}`, docs/teams.md#plan-approval) reads as one: the plan line by
 * line, "Approve plan" (allow) and "Reject" (deny, the reason sent as feedback), no "Always allow".
 * A Bash request while the sandbox is on says how the command would run: `runs sandboxed`, or
 * `runs outside the sandbox: <why>` (docs/sandbox.md#the-pane-mark).
 * Clicking or tabbing into a card makes it the one the keys act on. `compact` (the bar pinned to
 * a pane): who asks, one line of what the call would do, and the answers.
 * Markup: `section.perm-card[data-request-id][data-placement][data-agent-id][data-kind=tool|plan]`.
 */
export function PermissionCard({
  permission: p,
  placement,
  compact = false
}: {
  permission: PendingPermission
  placement: CardPlacement
  compact?: boolean
}) {
  const agent = useAppStore(selectAgent(p.agentId))
  const active = useAppStore((s) => selectActivePermission(s)?.requestId === p.requestId)
  const responding = useAppStore((s) => s.permissions.responding[p.requestId] === true)
  const deny = useAppStore((s) => (s.permissions.deny?.requestId === p.requestId ? s.permissions.deny : undefined))
  const notice = useAppStore((s) =>
    s.permissions.notice?.requestId === p.requestId ? s.permissions.notice.text : undefined
  )
  const color = agent?.color ?? agentColor(p.agentId)
  const name = p.agentName || agent?.agentName || p.agentId
  const plan = isPlanApproval(p)
  const rule = plan ? undefined : alwaysAllowRule(p)
  const team = useAppStore((s) => s.dashboard.team)
  const workspace = useAppStore((s) => s.workspace.cwd)
  const teamDir = plan || !workspace ? undefined : teamAllowDirOf(p, team, workspace)
  return (
    <section
      className={`perm-card${plan ? ' perm-card-plan' : ''}${active ? ' active' : ''}${compact ? ' perm-card-compact' : ''}`}
      style={{ '--agent-color': color } as CSSProperties}
      data-request-id={p.requestId}
      data-placement={placement}
      data-agent-id={p.agentId}
      data-kind={plan ? 'plan' : 'tool'}
      aria-label={plan ? `Plan approval request from ${name}` : `Permission request from ${name}: ${p.tool}`}
      tabIndex={-1}
      onMouseDown={() => actions.focusPermission(p.requestId, placement)}
      onFocus={() => actions.focusPermission(p.requestId, placement)}
    >
      <header className="perm-head">
        <AgentBadge name={name} color={color} agentId={p.agentId} />
        {plan ? (
          <span className="perm-wants">asks to approve its plan</span>
        ) : (
          <>
            <span className="perm-wants">wants to use</span>
            <span className="perm-tool">{p.tool}</span>
            {p.sandbox ? (
              <span
                className={`perm-sandbox${p.sandbox === 'sandboxed' ? '' : ' perm-sandbox-outside'}`}
                data-testid="perm-sandbox"
                data-mark={p.sandbox}
                title="How this command would run with respect to the Bash sandbox"
              >
                {p.sandbox === 'sandboxed' ? 'runs sandboxed' : `runs ${sandboxMarkText(p.sandbox)}`}
              </span>
            ) : null}
          </>
        )}
      </header>
      <InputView permission={p} compact={compact} />
      {p.reason && !compact ? <p className="perm-reason">{p.reason}</p> : null}
      {notice ? (
        <p className="perm-notice" role="status" data-testid="perm-notice">
          {notice}
        </p>
      ) : null}
      {deny && deny.origin === placement ? (
        <DenyForm
          reason={deny.reason}
          disabled={responding}
          {...(plan ? { labels: planRejectLabels(name) } : {})}
          onChange={actions.setDenyReason}
          onConfirm={() => confirmDeny(p.requestId, deny.reason)}
          onCancel={actions.cancelDeny}
        />
      ) : (
        <div className="perm-actions">
          <button
            type="button"
            className="btn btn-allow"
            disabled={responding}
            onClick={() => runAction(p, 'allow-once', placement)}
          >
            {plan ? 'Approve plan' : 'Allow once'} <kbd>{SHORTCUT_KEYS['allow-once']}</kbd>
          </button>
          {plan || !rule ? null : (
            <button
              type="button"
              className="btn btn-always"
              disabled={responding}
              title={alwaysAllowTitle(rule, name, p.tool)}
              onClick={() => runAction(p, 'always-allow', placement)}
            >
              <span className="perm-always-line">
                Always allow{' '}
                <code className="perm-rule" data-testid="perm-rule">
                  {rule}
                </code>{' '}
                <kbd>{SHORTCUT_KEYS['always-allow']}</kbd>
              </span>
              <span className="perm-scope" data-testid="perm-scope">
                {alwaysAllowScope(name, p.tool)}
              </span>
            </button>
          )}
          {teamDir ? (
            <button
              type="button"
              className="btn btn-always btn-team-allow"
              disabled={responding}
              title={`Adds ${teamDir} to team ${team}'s allowed paths (its config): every teammate then reads and edits there without asking`}
              onClick={() => void allowForTeam(p.requestId)}
            >
              <span className="perm-always-line">
                Allow for the team in{' '}
                <code className="perm-rule" data-testid="perm-team-dir">
                  {teamDir}
                </code>
              </span>
              <span className="perm-scope">saved in the team config: no teammate asks again there</span>
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn-deny"
            disabled={responding}
            onClick={() => runAction(p, 'deny', placement)}
          >
            {plan ? 'Reject' : 'Deny'} <kbd>{SHORTCUT_KEYS.deny}</kbd>
          </button>
        </div>
      )}
    </section>
  )
}
