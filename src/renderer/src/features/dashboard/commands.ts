import type { RequestOf } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'
import { actions } from '../../store/store'
import type { MemberActionKind } from '../../store/dashboardSlice'
import { errorText } from '../../lib/errorText'

/** Past-tense words for a finished member action, shown on its row. */
const DONE: Record<MemberActionKind, string> = {
  message: 'message sent',
  shutdown: 'asked to shut down',
  kill: 'killed'
}

/** Runs one member action, recording it on the member's row (pending → done, or the error). */
async function memberAction(agentId: string, kind: MemberActionKind, run: () => Promise<unknown>): Promise<boolean> {
  actions.setMemberAction(agentId, { pending: kind })
  try {
    await run()
    actions.setMemberAction(agentId, { done: DONE[kind] })
    return true
  } catch (err) {
    actions.setMemberAction(agentId, { error: errorText(err) })
    return false
  }
}

/**
 * What a person asks of the team from the dashboard and the top bar (docs/ui.md#the-workspace-ui). Each command
 * calls one request channel of src/shared/ipc/ and records its outcome in the dashboard slice
 * instead of throwing; it resolves to whether it succeeded.
 */
export const dashboardCommands = {
  /** A plain message from the person to a running teammate (delivered as from `team-lead`, see the `teammate.message` channel). */
  message(agentId: string, name: string, text: string): Promise<boolean> {
    return memberAction(agentId, 'message', () => connectedApi().request('teammate.message', { name, text }))
  },

  /** Asks a teammate to shut down (a `shutdown_request`; it may decline, the timeout kills it). */
  shutdown(agentId: string, name: string): Promise<boolean> {
    return memberAction(agentId, 'shutdown', () => connectedApi().request('teammate.shutdown', { name }))
  },

  /** Kills a teammate at once. */
  kill(agentId: string, name: string): Promise<boolean> {
    return memberAction(agentId, 'kill', () => connectedApi().request('teammate.kill', { name }))
  },

  /** Clears a row's last outcome (its dismiss button). */
  dismiss(agentId: string): void {
    actions.setMemberAction(agentId, {})
  },

  /** Opens the spawn form and loads what it may offer. */
  async openSpawnForm(): Promise<void> {
    actions.setSpawnForm({ open: true, error: undefined, notice: undefined })
    try {
      actions.setSpawnOptions(await connectedApi().request('team.spawnOptions', {}))
    } catch (err) {
      actions.setSpawnForm({ error: errorText(err) })
    }
  },

  closeSpawnForm(): void {
    actions.setSpawnForm({ open: false, pending: false, error: undefined, notice: undefined })
  },

  /** Creates the session's team (as TeamCreate does) so teammates can be spawned. */
  async createTeam(name: string, description?: string): Promise<boolean> {
    actions.setSpawnForm({ pending: true, error: undefined })
    try {
      const { team } = await connectedApi().request('team.create', { name, ...(description ? { description } : {}) })
      actions.setTeam(team)
      // names are folded to a-z, 0-9 and '-' (docs/teams.md#spawning-a-teammate): say so where the name was typed, or the person looks for a team that is not there
      if (team !== name)
        actions.setSpawnForm({ notice: `Team names use a–z, 0–9 and "-": "${name}" became "${team}".` })
      actions.setSpawnOptions(await connectedApi().request('team.spawnOptions', {}))
      return true
    } catch (err) {
      actions.setSpawnForm({ error: errorText(err) })
      return false
    } finally {
      actions.setSpawnForm({ pending: false })
    }
  },

  /** Spawns a teammate as the Agent tool does; closes the form on success. */
  async spawn(request: RequestOf<'teammate.spawn'>): Promise<boolean> {
    actions.setSpawnForm({ pending: true, error: undefined })
    try {
      await connectedApi().request('teammate.spawn', request)
      actions.setSpawnForm({ open: false })
      return true
    } catch (err) {
      actions.setSpawnForm({ error: errorText(err) })
      return false
    } finally {
      actions.setSpawnForm({ pending: false })
    }
  },

  /** Stop all: the leader's turn, every subagent, every teammate (killed). */
  async stopAll(): Promise<boolean> {
    actions.setStopAllPending(true)
    try {
      await connectedApi().request('workspace.stopAll', {})
      return true
    } catch (err) {
      actions.setError(`Stop all failed: ${errorText(err)}`)
      return false
    } finally {
      actions.setStopAllPending(false)
    }
  }
}
