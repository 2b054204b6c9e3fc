import { useAppStore } from '../../store/store'
import { formatTokens, formatUsd } from '../status/format'
import { ModeSelect } from './ModeSelect'
import { OrchestrationSelect } from './OrchestrationSelect'
import { ClaudeSessionButton } from './ClaudeSessionButton'
import { StopAllButton } from './StopAllButton'
import { WorkspaceMenu } from './WorkspaceMenu'
import { SettingsButton } from '../settings/SettingsDialog'
import { NewSessionButton } from '../restore/NewSessionButton'
import { SessionsMenu } from '../restore/SessionsMenu'
import './topbar.css'

/** Which side panels are open, and how to toggle them (the layout owns them). */
export interface SidePanelsControl {
  dashboardOpen: boolean
  drawerOpen: boolean
  toggleDashboard(): void
  toggleDrawer(): void
}

/**
 * The workspace's top bar (docs/ui.md#the-workspace-ui): the workspace folder, the team, the permission mode, the
 * model (with the "scripted model" badge when the scripted server answers, docs/model.md#model-access: its costs
 * are priced as the named model), the session's tokens and cost, the Sessions menu and New
 * session, New Claude Code session (the person's own claude in a pane), and Stop all — which stops the
 * leader's turn and every subagent and kills every teammate, once confirmed ({@link StopAllButton}).
 */
export function TopBar({ panels }: { panels: SidePanelsControl }) {
  const cwd = useAppStore((s) => s.workspace.cwd)
  const team = useAppStore((s) => s.dashboard.team)
  const model = useAppStore((s) => s.workspace.model)
  const scripted = useAppStore((s) => s.workspace.scripted)
  const usage = useAppStore((s) => s.workspace.usage)
  const cost = useAppStore((s) => s.workspace.costUsd)
  const total = usage
  const tokens = total.inputTokens + total.outputTokens + total.cacheCreationInputTokens + total.cacheReadInputTokens
  return (
    <header className="app-bar topbar">
      <button
        type="button"
        className="topbar-toggle"
        aria-pressed={panels.dashboardOpen}
        aria-label={panels.dashboardOpen ? 'Hide the team dashboard' : 'Show the team dashboard'}
        title="Team dashboard"
        onClick={panels.toggleDashboard}
      >
        ☰
      </button>
      <span className="brand">Swarmdesk</span>
      <WorkspaceMenu cwd={cwd} />
      {team ? (
        <span className="topbar-team" data-testid="topbar-team" title="the session's team">
          team <b>{team}</b>
        </span>
      ) : null}
      <span className="spacer" />
      <ModeSelect />
      <OrchestrationSelect />
      {model ? (
        <span className="topbar-model mono" title="the leader's model">
          {model}
        </span>
      ) : null}
      {scripted ? (
        <span
          className="scripted-badge"
          title="Answers come from the scripted model server (docs/model.md#model-access); costs are priced as the named model"
        >
          scripted<span className="scripted-badge-more"> model</span>
        </span>
      ) : null}
      <span
        className="topbar-usage mono"
        data-testid="topbar-usage"
        title={`all agents: ${formatTokens(total.inputTokens)} in, ${formatTokens(total.outputTokens)} out, cache ${formatTokens(total.cacheReadInputTokens)} read / ${formatTokens(total.cacheCreationInputTokens)} written${scripted ? `; priced as ${model}` : ''}`}
      >
        {formatTokens(tokens)} tok · {formatUsd(cost)}
      </span>
      <SessionsMenu />
      <NewSessionButton />
      <ClaudeSessionButton />
      <StopAllButton />
      <SettingsButton />
      <button
        type="button"
        className="topbar-toggle"
        aria-pressed={panels.drawerOpen}
        aria-label={panels.drawerOpen ? 'Hide the side drawer' : 'Show the side drawer'}
        title="Permissions and mailbox"
        onClick={panels.toggleDrawer}
      >
        ◧
      </button>
    </header>
  )
}
