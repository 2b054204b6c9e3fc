import { commands } from '../../store/commands'
import { useAppStore } from '../../store/store'

/** The three ways a session can delegate (docs/agents.md#subagents, docs/agents.md#forks, docs/agents.md#coordinator-mode), as the select offers them. */
const CHOICES = {
  standard: {
    fork: false,
    coordinator: false,
    label: 'standard',
    title: 'The leader works itself and starts typed subagents and teammates.'
  },
  fork: {
    fork: true,
    coordinator: false,
    label: 'forks',
    title:
      'An Agent call without a type forks the leader: the child inherits its conversation and reads its prompt cache.'
  },
  coordinator: {
    fork: false,
    coordinator: true,
    label: 'coordinator',
    title:
      'The leader only orchestrates: it starts background workers, continues or stops them, and reads their notifications. Forks are off.'
  }
} as const
type Choice = keyof typeof CHOICES

/**
 * The session's orchestration mode (docs/agents.md#forks forks, docs/agents.md#coordinator-mode coordinator), chosen before the first
 * prompt: afterwards the leader's system prompt and tools are part of its cached prefix, so the
 * select is locked and says why. Coordinator wins over forks, and the UI says forks are off then.
 */
export function OrchestrationSelect() {
  const orchestration = useAppStore((s) => s.workspace.orchestration)
  const open = useAppStore((s) => s.connection.status === 'open')
  if (!orchestration) return null
  const value: Choice = orchestration.coordinator ? 'coordinator' : orchestration.fork ? 'fork' : 'standard'
  const locked = !orchestration.switchable
  const why = locked
    ? 'Chosen before the first prompt of a session; start a new session to change it.'
    : CHOICES[value].title
  return (
    <label className="topbar-field" title={why}>
      <span className="topbar-label">agents</span>
      <select
        className="mode-select"
        aria-label="Orchestration mode"
        data-testid="orchestration-select"
        value={value}
        disabled={!open || locked}
        onChange={(e) => {
          const next = CHOICES[e.target.value as Choice]
          void commands.setOrchestration(next.fork, next.coordinator)
        }}
      >
        {(Object.keys(CHOICES) as Choice[]).map((c) => (
          <option key={c} value={c} title={CHOICES[c].title}>
            {CHOICES[c].label}
          </option>
        ))}
      </select>
      {orchestration.coordinator ? (
        <span className="topbar-note" data-testid="forks-off-note">
          forks off
        </span>
      ) : null}
    </label>
  )
}
