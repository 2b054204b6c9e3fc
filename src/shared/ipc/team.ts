import { z } from 'zod'
import { PermissionModeSchema } from '../permissions'
import { Empty, Ok } from './common'

/**
 * A teammate spawned by a person from the team dashboard (docs/teams.md#spawning-a-teammate, docs/ui.md#the-workspace-ui): the same inputs as the
 * Agent tool's teammate path. `planRequired` means plan approval first (the teammate starts in
 * `plan` mode whatever `mode` says); `backend` absent = the `teammateBackend` setting.
 */
export const TeammateSpawnRequestSchema = z
  .object({
    name: z.string().trim().min(1, 'give the teammate a name').max(64),
    prompt: z.string().trim().min(1, 'give the teammate something to do').max(200_000),
    /** An agent type from the loaded definitions (docs/agents.md#agent-definitions); default `general-purpose`. */
    agentType: z.string().min(1).max(200).optional(),
    backend: z.enum(['worker', 'process']).optional(),
    /** A host of the `teammateHosts` setting to run it on, over SSH (docs/hosts.md); absent: here. */
    host: z.string().min(1).max(63).optional(),
    mode: PermissionModeSchema.exclude(['bubble', 'plan']).optional(),
    planRequired: z.boolean().optional(),
    /** Short description: the summary of its first message. */
    description: z.string().max(200).optional()
  })
  .strict()

/**
 * A team under `<home>/teams/` whose leader session is gone (a crash, a new session): its name
 * blocks no one once deleted. `reason`: how it was judged stale; `members`: how many it lists.
 */
export const StaleTeamSchema = z.object({
  name: z.string(),
  description: z.string(),
  members: z.number().int().nonnegative(),
  reason: z.string()
})
export type StaleTeam = z.infer<typeof StaleTeamSchema>

/** What the dashboard's spawn form may offer: the agent types (docs/agents.md#agent-definitions) and the default backend. */
export const SpawnOptionsSchema = z.object({
  agentTypes: z.array(z.object({ name: z.string(), description: z.string() })),
  defaultBackend: z.enum(['worker', 'process']),
  /** The names of the `teammateHosts` setting (docs/hosts.md), when it has any. */
  hosts: z.array(z.string()).optional(),
  /** The session's team, when it has one: spawning needs it. */
  team: z.string().optional(),
  /** Why spawning is impossible here (subagents or teammates off), when it is. */
  unavailable: z.string().optional()
})
export type SpawnOptions = z.infer<typeof SpawnOptionsSchema>

/**
 * The session's team's allowed paths (docs/teams.md#allowed-paths): absolute, canonical directories
 * where every teammate reads and edits without asking. `team` is absent while the session leads no
 * team (then `paths` is empty).
 */
export const TeamAllowedPathsSchema = z.object({
  team: z.string().optional(),
  paths: z.array(z.string())
})
export type TeamAllowedPaths = z.infer<typeof TeamAllowedPathsSchema>

/** The team dashboard's requests: the team, stale teams, and each teammate (docs/teams.md#agent-teams, docs/ui.md#the-workspace-ui). */
export const teamChannels = {
  /** What the spawn form offers (agent types, default backend, the team). */
  'team.spawnOptions': { request: Empty, response: SpawnOptionsSchema },
  /** Creates the session's team as TeamCreate does (docs/teams.md#team-config), for a person who wants to spawn teammates. */
  'team.create': {
    request: z
      .object({
        name: z.string().trim().min(1, 'give the team a name').max(64),
        description: z.string().max(500).optional()
      })
      .strict(),
    response: z.object({ team: z.string() })
  },
  /** The stale teams of this data directory (their leader session is gone), for the dashboard to offer their removal. */
  'teams.stale': { request: Empty, response: z.object({ teams: z.array(StaleTeamSchema) }) },
  /**
   * Deletes a stale team as `swarmdesk team delete` does: its config, inboxes, task list, and its
   * teammates' leftover processes (`killed`: how many). Refused while its leader session lives,
   * in this process or another.
   */
  'teams.deleteStale': {
    request: z.object({ team: z.string().min(1) }).strict(),
    response: z.object({ team: z.string(), killed: z.number().int().nonnegative() })
  },
  /**
   * Adds a directory to the session's team's allowed paths, or takes one off, as
   * `swarmdesk team allow|disallow` does (docs/teams.md#allowed-paths): a relative `path` is resolved
   * against the workspace folder. Answers the paths after the change (also pushed as
   * `team.allowedPaths`). Refused without a team, for an unknown team, or a path that cannot be
   * allowed (empty, `/`); the error says why.
   */
  'team.editAllowedPath': {
    request: z.object({ action: z.enum(['add', 'remove']), path: z.string().max(4096) }).strict(),
    response: TeamAllowedPathsSchema
  },
  /** Spawns a teammate as the Agent tool does (docs/teams.md#spawning-a-teammate). Refused without a team or with a taken name. */
  'teammate.spawn': {
    request: TeammateSpawnRequestSchema,
    response: z.object({ name: z.string(), agentId: z.string(), backend: z.enum(['worker', 'process']) })
  },
  /**
   * A person's plain message to a teammate (docs/ui.md#the-workspace-ui: typing into a teammate pane messages it).
   * Sent as SendMessage from `team-lead` would be, with the summary "from the person at the
   * workspace": the person speaks with the leader's authority, and the teammate's reply goes to
   * the leader's inbox, where the person reads it in the leader's pane and the teammate's row.
   */
  'teammate.message': {
    request: z
      .object({ name: z.string().min(1), text: z.string().trim().min(1, 'the message is empty').max(100_000) })
      .strict(),
    response: Ok
  },
  /** Asks a teammate to shut down: a `shutdown_request` from `team-lead` (docs/teams.md#teammate-life-cycle); it may reject, the timeout kills it. Answers once the request is sent. */
  'teammate.shutdown': {
    request: z.object({ name: z.string().min(1), reason: z.string().max(2000).optional() }).strict(),
    response: Ok
  },
  /** Kills a teammate at once and waits until it is gone (docs/teams.md#teammate-life-cycle, docs/ui.md#the-workspace-ui). */
  'teammate.kill': { request: z.object({ name: z.string().min(1) }).strict(), response: Ok }
} as const
