import type { CSSProperties } from 'react'
import type { PendingPermission } from '../../../../shared/ipc'
import { AgentBadge } from '../../ui/AgentBadge'
import { alwaysAllowRule } from '../../store/commands'
import type { CardPlacement } from '../../store/permissionsSlice'
import { selectActivePermission, selectAgent } from '../../store/selectors'
import { actions, useAppStore } from '../../store/store'
import { agentColor } from '../../store/colors'
import { confirmDeny, runAction } from './answer'
import { DenyForm } from './DenyForm'
import { InputView } from './InputView'
import { SHORTCUT_KEYS } from './shortcuts'

/**
 * A permission bubble (SPEC §11): who asks, for which tool, the input made readable, the engine's
 * reason, and the three answers with their shortcuts. Drawn pinned to the agent's pane and in the
 * global queue; both show the same request.
 */
export function PermissionCard({ permission: p, placement }: { permission: PendingPermission; placement: CardPlacement }) {
  const agent = useAppStore(selectAgent(p.agentId))
  const active = useAppStore((s) => selectActivePermission(s)?.requestId === p.requestId)
  const responding = useAppStore((s) => s.permissions.responding[p.requestId] === true)
  const deny = useAppStore((s) => (s.permissions.deny?.requestId === p.requestId ? s.permissions.deny : undefined))
  const color = agent?.color ?? agentColor(p.agentId)
  const rule = alwaysAllowRule(p)
  return (
    <section
      className={`perm-card${active ? ' active' : ''}`}
      style={{ '--agent-color': color } as CSSProperties}
      data-request-id={p.requestId}
      data-placement={placement}
      aria-label={`Permission request from ${p.agentName}: ${p.tool}`}
      onMouseDown={() => actions.focusPermission(p.requestId)}
    >
      <header className="perm-head">
        <AgentBadge name={p.agentName} color={color} />
        <span className="perm-wants">wants to use</span>
        <span className="perm-tool">{p.tool}</span>
      </header>
      <InputView permission={p} />
      {p.reason ? <p className="perm-reason">{p.reason}</p> : null}
      {deny && deny.origin === placement ? (
        <DenyForm
          reason={deny.reason}
          disabled={responding}
          onChange={actions.setDenyReason}
          onConfirm={() => confirmDeny(p.requestId, deny.reason)}
          onCancel={actions.cancelDeny}
        />
      ) : (
        <div className="perm-actions">
          <button type="button" className="btn btn-allow" disabled={responding} onClick={() => runAction(p, 'allow-once', placement)}>
            Allow once <kbd>{SHORTCUT_KEYS['allow-once']}</kbd>
          </button>
          <button
            type="button"
            className="btn btn-always"
            disabled={responding || !rule}
            title={rule ? `Adds the rule ${rule} for this session` : 'No rule to add for this request'}
            onClick={() => runAction(p, 'always-allow', placement)}
          >
            Always allow {rule ? <code className="perm-rule">{rule}</code> : null} <kbd>{SHORTCUT_KEYS['always-allow']}</kbd>
          </button>
          <button type="button" className="btn btn-deny" disabled={responding} onClick={() => runAction(p, 'deny', placement)}>
            Deny <kbd>{SHORTCUT_KEYS.deny}</kbd>
          </button>
        </div>
      )}
    </section>
  )
}
