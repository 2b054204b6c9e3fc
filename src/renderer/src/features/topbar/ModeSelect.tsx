import { USER_PERMISSION_MODES, type PermissionMode } from '../../../../shared/permissions'
import { commands } from '../../store/commands'
import { useAppStore } from '../../store/store'

/**
 * The session's permission mode (docs/permissions.md#permissions), changeable by the person. `bubble` is internal: shown
 * when the runtime reports it, never offered.
 */
export function ModeSelect() {
  const mode = useAppStore((s) => s.workspace.mode)
  const open = useAppStore((s) => s.connection.status === 'open')
  return (
    <label className="topbar-field">
      <span className="topbar-label">mode</span>
      <select
        className="mode-select"
        aria-label="Permission mode"
        value={mode}
        disabled={!open || mode === 'bubble'}
        onChange={(e) => void commands.setMode(e.target.value as Exclude<PermissionMode, 'bubble'>)}
      >
        {mode === 'bubble' ? <option value="bubble">bubble</option> : null}
        {USER_PERMISSION_MODES.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </label>
  )
}
