import type { EventBus } from '../events'
import type { PermissionPrompter } from '../permissions'
import type { TeamContext } from '../teamStore'
import type { TeammateBackend, TeammateExecutorRegistry } from './executor'
import type { TeammateHost } from '../../../shared/teammateHosts'

/** Milliseconds a teammate has to answer a shutdown request before it is killed (docs/teams.md#teammate-life-cycle). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000

/** What the leader's side of a team is made of. */
export interface TeammateSupervisorOptions {
  /** Workspace root: teammates work here. */
  cwd: string
  sessionId: string
  bus: EventBus
  /** The session's team context (its team, stores and mailbox). */
  team: TeamContext
  registry: TeammateExecutorRegistry
  /** Backend when a spawn names none: the `teammateBackend` setting (`auto` = `worker`, docs/teams.md#spawning-a-teammate). */
  defaultBackend: TeammateBackend
  /** The leader's permission queue: process teammates' requests and plan approvals go here (docs/teams.md#permission-requests, docs/teams.md#plan-approval). */
  prompter: PermissionPrompter
  /**
   * Whether plan approvals are also put to a person (the UI). Off for headless runs, whose
   * prompter may be `--approve`: a plan is never approved automatically (docs/teams.md#plan-approval), so there
   * only the leader's SendMessage decides.
   */
  askPersonForPlans: boolean
  /**
   * New messages for the leader's model, each its own text (so a burst can be summarised message
   * by message, oldest first); wakes an idle leader once (docs/teams.md#mailbox, docs/teams.md#teammate-life-cycle).
   */
  enqueue: (text: string | readonly string[]) => void
  /** Model access passed to every teammate: ANTHROPIC_API_KEY / BASE_URL, SWARMDESK_MODEL. */
  modelEnv: () => Record<string, string>
  shutdownTimeoutMs?: number
  /**
   * The `teammateHosts` setting as it is now: where a spawn's `host` may run a teammate, and where
   * a resumed member's host is looked up (docs/hosts.md); read at each spawn and resume, so a
   * workspace whose settings reload follows it.
   */
  hosts?: () => readonly TeammateHost[]
}

/** A teammate spawn the supervisor refused; the message says why and what to do. */
export class TeammateSpawnError extends Error {
  override readonly name = 'TeammateSpawnError'
}
