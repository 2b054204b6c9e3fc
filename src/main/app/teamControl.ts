import { teammateMode, type LoadedSettings } from '../runtime/permissions'
import type { SpawnOptions, StaleTeam } from '../../shared/ipc'
import { PERSON_MESSAGE_SUMMARY } from '../../shared/mailbox'
import type { PermissionMode } from '../../shared/permissions'
import { sanitizeName } from '../../shared/teams'
import type { Session } from '../runtime/session'
import { sendToTeam, TeamCreateTool, type ToolContext } from '../runtime/tools'
import { LEAD_NAME } from '../runtime/teams'
import { deleteStaleServerTeam, listServerTeams } from '../runtime/teamStore'

/**
 * What a person does to the team from the dashboard (docs/ui.md#the-workspace-ui: spawn, message, shut down, kill;
 * the top bar's Stop all). Each action goes through the same code the leader's tools use — the
 * supervisor's `spawn`/`shutdown`/`kill`, TeamCreate, SendMessage's `sendToTeam` — so a person's
 * action and the leader's are indistinguishable to the team.
 */

/** A refused dashboard action; the message says why and what to do. `name` survives IPC. */
export class TeamControlError extends Error {
  override readonly name = 'TeamControlError'
}

/** Minutes of silence before a running agent is marked stuck when the setting is absent (docs/ui.md#the-workspace-ui). */
export const DEFAULT_STUCK_AFTER_MINUTES = 5

export { PERSON_MESSAGE_SUMMARY }

/** The `stuckAfterMinutes` setting (highest source that sets it wins), else {@link DEFAULT_STUCK_AFTER_MINUTES}. */
export function stuckAfterMinutesOf(settings: Pick<LoadedSettings, 'sources'>): number {
  let minutes: unknown
  for (const source of settings.sources) {
    const value = (source.data as Record<string, unknown>).stuckAfterMinutes
    if (value !== undefined) minutes = value
  }
  return typeof minutes === 'number' && minutes > 0 ? minutes : DEFAULT_STUCK_AFTER_MINUTES
}

/** The team machinery of a session, or why there is none. @throws TeamControlError */
function teamParts(session: Session) {
  const { subagents, team, teammates } = session
  if (!subagents || !team || !teammates)
    throw new TeamControlError(
      'Teammates are not available in this workspace (agent teams need subagents, which are off here).'
    )
  return { subagents, team, teammates }
}

/** The services a team tool sees when the leader calls it. */
function leaderContext(session: Session): ToolContext {
  const { subagents, team, teammates } = teamParts(session)
  // Only the fields the team tools read (caller, cwd, services): the call does no I/O of its own
  // through the context (no PTY, no file-state cache, nothing to abort).
  return {
    agentId: session.identity.id,
    agentName: session.identity.name,
    cwd: session.identity.cwd,
    toolUseId: 'workspace',
    services: { subagents, self: session.asParent(), team, teammates }
  } as unknown as ToolContext
}

/** A tool's refusal as the dashboard shows it. */
async function refusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof TeamControlError) throw error
    throw new TeamControlError((error as Error).message)
  }
}

/** What the spawn form may offer; never throws (an impossible spawn is said in `unavailable`). */
export function spawnOptions(
  session: Session,
  defaultBackend: 'worker' | 'process',
  hostNames: readonly string[] = []
): SpawnOptions {
  const { subagents, team, teammates } = session
  if (!subagents || !team || !teammates)
    return { agentTypes: [], defaultBackend, unavailable: 'Teammates are not available in this workspace.' }
  const agentTypes = [...subagents.options.definitions().values()]
    .map((d) => ({ name: d.name, description: d.description }))
    .sort((a, b) =>
      a.name === 'general-purpose' ? -1 : b.name === 'general-purpose' ? 1 : a.name.localeCompare(b.name)
    )
  const current = team.team()
  const hosts = hostNames.length ? { hosts: [...hostNames] } : {}
  return { agentTypes, defaultBackend, ...hosts, ...(current ? { team: current } : {}) }
}

/** Creates the session's team with TeamCreate's own code (docs/teams.md#team-config). @throws TeamControlError (a team already led, a taken name). */
export async function createTeam(session: Session, name: string, description?: string): Promise<string> {
  const ctx = leaderContext(session)
  await refusals(() => TeamCreateTool.call({ team_name: name, ...(description ? { description } : {}) }, ctx))
  const team = session.team?.team()
  if (!team) throw new TeamControlError('The team was not created.')
  return team
}

/**
 * The stale teams of the session's team store, by name: the data directory's (teams/leader.ts), or
 * the server's (a lease whose holder stopped beating, docs/nats.md#the-leader-lease); none without
 * agent teams. Never throws (a server that cannot be read lists none).
 */
export async function staleTeams(session: Session): Promise<StaleTeam[]> {
  const context = session.team
  if (!context) return []
  const teams = context.files?.teams
  if (!teams) {
    const listed = await listServerTeams(context.store).catch(() => [])
    return listed.flatMap(({ config, leader }) =>
      leader.state === 'stale'
        ? [
            {
              name: config.name,
              description: config.description,
              members: config.members.length,
              reason: leader.reason
            }
          ]
        : []
    )
  }
  const stale: StaleTeam[] = []
  for (const t of teams.list().teams) {
    const status = teams.leaderStatus(t.name)
    if (status.state === 'stale')
      stale.push({ name: t.name, description: t.description, members: t.members.length, reason: status.reason })
  }
  return stale
}

/**
 * Deletes a stale team (the dashboard's Delete on a stale team), as `swarmdesk team delete` does, on
 * files or on the server. `killed` counts the leftover teammate processes killed (files only: a
 * server's teammates may run on other machines).
 * @throws TeamControlError when its leader lives (this session's own team, or one led from another process) or it is gone.
 */
export async function deleteStaleTeam(session: Session, team: string): Promise<{ team: string; killed: number }> {
  const { team: context } = teamParts(session)
  const files = context.files
  if (!files) {
    const removed = await refusals(() => deleteStaleServerTeam(context.store, team))
    return { team: removed.team, killed: 0 }
  }
  const removed = await refusals(() => files.teams.deleteStale(team))
  return { team: removed.team, killed: removed.leftovers.killed.length }
}

/** A spawn from the dashboard's form (see `TeammateSpawnRequestSchema` in src/shared/ipc/). */
export interface DashboardSpawn {
  name: string
  prompt: string
  agentType?: string
  backend?: 'worker' | 'process'
  /** A host of the `teammateHosts` setting (docs/hosts.md). */
  host?: string
  mode?: Exclude<PermissionMode, 'bubble' | 'plan'>
  planRequired?: boolean
  description?: string
}

/**
 * Spawns a teammate as the Agent tool's teammate path does (docs/teams.md#spawning-a-teammate): a sanitised unique name,
 * a known agent type, the model its definition resolves to under the leader's, `plan` mode when
 * plan approval is required, else the mode asked for (default: the leader's).
 * @throws TeamControlError with no team, a bad or taken name, an unknown type, an unavailable backend.
 */
export async function spawnTeammate(
  session: Session,
  request: DashboardSpawn
): Promise<{ name: string; agentId: string; backend: 'worker' | 'process' }> {
  const { subagents, team, teammates } = teamParts(session)
  if (!team.team()) throw new TeamControlError('Spawning a teammate needs a team: create one first.')
  const name = sanitizeName(request.name)
  if (!name || name === LEAD_NAME)
    throw new TeamControlError(
      `"${request.name}" cannot name a teammate: use letters, digits and dashes, and not "${LEAD_NAME}".`
    )
  const type = request.agentType ?? 'general-purpose'
  const definition = subagents.options.definitions().get(type)
  if (!definition)
    throw new TeamControlError(
      `Unknown agent type "${type}". Available types: ${[...subagents.options.definitions().keys()].sort().join(', ')}.`
    )
  const self = session.asParent()
  return refusals(async () => {
    const mode = request.planRequired ? 'plan' : teammateMode(request.mode, self.mode())
    const { model } = (subagents.options.resolveTeammateModel ?? subagents.options.resolveModel)(
      definition,
      undefined,
      self.model
    )
    const spawned = await teammates.spawn({
      name,
      prompt: request.prompt,
      description: request.description?.trim() || 'spawned from the workspace',
      agentType: type,
      model,
      mode,
      ...(request.backend ? { backend: request.backend } : {}),
      ...(request.host ? { host: request.host } : {})
    })
    return { name: spawned.name, agentId: spawned.agentId, backend: spawned.backend }
  })
}

/** Refuses an action on a teammate that is not running. @throws TeamControlError */
function requireAlive(session: Session, name: string): void {
  const { teammates } = teamParts(session)
  if (teammates.aliveNames().includes(name)) return
  const state = teammates.stateOf(name)
  throw new TeamControlError(
    state ? `${name} is not running (${state}).` : `No teammate named "${name}" in this session.`
  )
}

/**
 * A person's plain message to a running teammate, through SendMessage's code in the leader's name
 * (see the `teammate.message` channel for why `team-lead`): delivered to its inbox, `message_sent`
 * emitted, an idle teammate woken.
 * @throws TeamControlError when it is not running or the team refuses the message.
 */
export async function messageTeammate(session: Session, name: string, text: string): Promise<void> {
  const { team } = teamParts(session)
  requireAlive(session, name)
  await refusals(() =>
    sendToTeam(team, { to: name, message: text, summary: PERSON_MESSAGE_SUMMARY }, leaderContext(session))
  )
}

/**
 * Asks a running teammate to shut down (docs/teams.md#teammate-life-cycle) through the supervisor; resolves once asked,
 * `outcome` gets how it ended (`exited`, `rejected`, `killed` after the timeout, `gone`).
 * @throws TeamControlError when it is not running.
 */
export function shutdownTeammate(
  session: Session,
  name: string,
  reason: string | undefined,
  outcome: (result: string) => void
): void {
  const { teammates } = teamParts(session)
  requireAlive(session, name)
  void teammates
    .shutdown(name, reason?.trim() || 'A person at the workspace asks you to finish and shut down.')
    .then(outcome, (error: Error) => outcome(`failed: ${error.message}`))
}

/**
 * Interrupts a running teammate's current turn (Esc in its pane).
 * @returns false when it had no turn running (idle, or waiting to stop).
 * @throws TeamControlError when it is not running.
 */
export function interruptTeammate(session: Session, name: string): boolean {
  const { teammates } = teamParts(session)
  requireAlive(session, name)
  return teammates.interrupt(name)
}

/** Kills a running teammate at once and waits until it is gone (docs/teams.md#teammate-life-cycle). @throws TeamControlError when it is not running. */
export async function killTeammate(session: Session, name: string): Promise<void> {
  const { teammates } = teamParts(session)
  requireAlive(session, name)
  await teammates.kill(name, 'killed by a person from the workspace')
}

/**
 * Stop all: the leader's turn, every running subagent (as TaskStop does), and every live teammate
 * killed at once — a person pressing it wants everything to stop now, not to wait for models to
 * agree to a shutdown; the supervisor still releases their tasks and tells the leader (docs/teams.md#teammate-life-cycle).
 * @returns how many subagents were stopped and which teammates were killed.
 */
export async function stopAll(session: Session): Promise<{ subagents: number; teammates: string[] }> {
  session.stop()
  const running = session.subagents?.list().filter((t) => t.status === 'running') ?? []
  const names = session.teammates?.aliveNames() ?? []
  await Promise.all([
    ...running.map((t) => session.subagents!.stop(t.agentId).catch(() => undefined)),
    ...names.map((n) => session.teammates!.kill(n, 'stopped by a person (Stop all)').catch(() => undefined))
  ])
  return { subagents: running.length, teammates: names }
}
