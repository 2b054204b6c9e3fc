import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from '../../store/store'
import { AllowedPaths } from './AllowedPaths'
import { ClaudeDashboardTeams } from '../claudeTeams/ClaudeDashboardTeams'
import { dashboardCommands } from './commands'
import './dashboard.css'
import { MemberRow } from './MemberRow'
import { selectMemberIds } from './selectors'
import { SpawnForm } from './SpawnForm'
import { StaleTeams } from './StaleTeams'
import { TeamTransport } from './TeamTransport'

/**
 * The team dashboard (docs/ui.md#the-workspace-ui): where the team lives and the state of its server's
 * connection (TeamTransport.tsx), a row per member — the leader, then each teammate — and the
 * "Spawn teammate" form, then the team's allowed paths (AllowedPaths.tsx), then the rows of Claude Code's own teams (ClaudeDashboardTeams.tsx,
 * docs/claude-code-teams.md), then the data directory's stale teams (StaleTeams.tsx). Swarmdesk's
 * subagents are not members; they show in the pane grid only.
 */
export function Dashboard() {
  const ids = useAppStore(useShallow(selectMemberIds))
  const team = useAppStore((s) => s.dashboard.team)
  const spawnOpen = useAppStore((s) => s.dashboard.spawn.open)
  const connected = useAppStore((s) => s.connection.status === 'open')
  return (
    <aside className="dashboard" aria-label="Team dashboard">
      <header className="dashboard-head">
        <h2 className="side-title">{team ? `Team ${team}` : 'Team'}</h2>
        <span
          className="dashboard-count"
          title={`${Math.max(0, ids.length - 1)} teammate${ids.length === 2 ? '' : 's'}`}
          data-testid="teammate-count"
        >
          {Math.max(0, ids.length - 1)}
        </span>
        <button
          type="button"
          className="btn btn-small dashboard-spawn"
          aria-expanded={spawnOpen}
          aria-label={spawnOpen ? undefined : 'Spawn teammate'}
          disabled={!connected}
          onClick={() => (spawnOpen ? dashboardCommands.closeSpawnForm() : void dashboardCommands.openSpawnForm())}
        >
          {spawnOpen ? (
            'Close'
          ) : (
            <>
              Spawn<span className="dashboard-spawn-more"> teammate</span>
            </>
          )}
        </button>
      </header>
      <TeamTransport />
      {spawnOpen ? <SpawnForm /> : null}
      <ul className="member-list">
        {ids.map((id) => (
          <MemberRow key={id} agentId={id} />
        ))}
      </ul>
      <AllowedPaths />
      <ClaudeDashboardTeams />
      <StaleTeams />
    </aside>
  )
}
