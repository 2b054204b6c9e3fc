import type { TeamAllowedPaths } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'
import { actions } from '../../store/store'

/**
 * The allowed paths the dashboard lists for `team`, the team it shows (docs/teams.md#allowed-paths):
 * undefined when there is no team (the section is hidden); the pushed paths when they are that
 * team's; none while the paths of a team just created or changed have not arrived yet.
 */
export function shownAllowedPaths(view: TeamAllowedPaths, team: string | undefined): string[] | undefined {
  if (!team) return undefined
  return view.team === team ? view.paths : []
}

/**
 * Adds `path` to the team's allowed paths or takes it off (`team.editAllowedPath`; main resolves a
 * relative path against the workspace folder). On success the answer becomes the shown paths at
 * once (the push follows); resolves to the refusal's message, in full, when main refuses, else
 * undefined.
 */
export async function editAllowedPath(action: 'add' | 'remove', path: string): Promise<string | undefined> {
  try {
    actions.setAllowedPaths(await connectedApi().request('team.editAllowedPath', { action, path }))
    return undefined
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
}
