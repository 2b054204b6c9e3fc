import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import {
  agentId,
  assignColor,
  TEAM_SCHEMA_VERSION,
  TeamConfigSchema,
  type TeamConfig,
  type TeamMember
} from '../../../shared/teams'
import type { Disposable } from '../base'
import { createFileExclusiveSync, withLock, writeFileAtomicSync, type LockOptions } from '../locks'
import {
  TeamActiveError,
  TeamExistsError,
  TeamFileError,
  TeamLeaderAliveError,
  TeamMemberError,
  TeamNotFoundError
} from './errors'
import { claimLeadership, leaderStatus, releaseLeadership, type LeaderStatus } from './leader'
import { killTeamLeftovers, type LeftoverKill } from './leftovers'
import { safeName } from './names'
import { watchTeamConfig, type TeamConfigChange } from './watch'

/** A member to add. `color` defaults to the palette's choice; `isActive` to true; `mode` to `default`. */
export type NewMember = Omit<
  TeamMember,
  'agentId' | 'joinedAt' | 'color' | 'isActive' | 'mode' | 'planModeRequired' | 'paneId'
> &
  Partial<Pick<TeamMember, 'color' | 'isActive' | 'mode' | 'planModeRequired' | 'paneId'>>

/** Fields of a member that may change after it joined. */
export type MemberPatch = Partial<Omit<TeamMember, 'agentId' | 'name' | 'joinedAt'>>

/** A new team: its name (sanitised), description and leader. */
export interface NewTeam {
  name: string
  description?: string
  lead: NewMember
  allowedPaths?: string[]
}

/** A stale team removed to make way (TeamCreate) or on a person's request: why it was stale and what was killed. */
export interface StaleTeamRemoval {
  team: string
  reason: string
  /** Its teammates' leftover processes that were killed (see leftovers.ts). */
  leftovers: LeftoverKill
}

/** The name the leader has in every team (Claude Code's convention). */
export const LEAD_NAME = 'team-lead'

/**
 * Team configs at `<home>/teams/{team}/config.json` (docs/teams.md#team-config, docs/storage.md#layout). Every change is a
 * read-modify-write under the team's `.lock` (owner pid + start time, broken at once when the
 * owner is dead), written by temp + rename: concurrent writers in any process lose nothing and a
 * crash never leaves a torn config.
 */
export class TeamStore {
  constructor(
    readonly home: string,
    private readonly lockOptions: LockOptions = {}
  ) {}

  /** `<home>/teams/{team}`. @throws TeamNameError. */
  teamDir(team: string): string {
    return join(this.home, 'teams', safeName(team))
  }

  /** Creates a team with its leader as the first member. @throws TeamExistsError, TeamNameError. */
  async create(input: NewTeam): Promise<TeamConfig> {
    const name = safeName(input.name)
    const dir = this.teamDir(name)
    mkdirSync(dir, { recursive: true })
    return this.writeNew(name, input)
  }

  /**
   * Creates a team led by session `sessionId` of this process (TeamCreate): its leader lease
   * (leader.ts) is written with the config, under the team's lock, so no cleanup ever sees the new
   * team without its leader. A team of that name whose leader session is gone is removed first, as
   * {@link deleteStale} does (`replaced` says why it was stale and what was killed); one whose leader
   * is alive is never touched.
   * @throws TeamExistsError naming the live leader; TeamNameError.
   */
  async createAsLeader(
    input: NewTeam,
    sessionId: string
  ): Promise<{ config: TeamConfig; replaced?: StaleTeamRemoval }> {
    const name = safeName(input.name)
    const dir = this.teamDir(name)
    return withLock(
      join(dir, '.lock'),
      async () => {
        let replaced: StaleTeamRemoval | undefined
        if (existsSync(join(dir, 'config.json'))) {
          const status = leaderStatus(this.home, name)
          if (status.state === 'alive')
            throw new TeamExistsError(
              name,
              `its leader session ${status.lease.sessionId} is alive in process ${status.lease.pid}`
            )
          replaced = await this.removeLocked(name, status)
        }
        claimLeadership(this.home, name, sessionId)
        try {
          const config = this.writeNew(name, input)
          return replaced ? { config, replaced } : { config }
        } catch (error) {
          releaseLeadership(this.home, name, sessionId)
          throw error
        }
      },
      this.lockOptions
    )
  }

  /** Whether `team`'s leader session is alive or the team is stale (leader.ts). */
  leaderStatus(team: string): LeaderStatus {
    return leaderStatus(this.home, safeName(team))
  }

  /**
   * Deletes a stale team (its leader session is gone: `swarmdesk team delete`, the dashboard):
   * kills what its `process` teammates left running, then removes its folder (config, inboxes,
   * leader lease) and its task list, as TeamDelete does. Its members' `isActive` flags are not
   * asked: with the leader gone, they are what the crash left. Checked under the team's lock, so a
   * leader that comes back meanwhile (a resumed session) wins.
   * @throws TeamLeaderAliveError while the leader session lives (here or in another process); TeamNotFoundError.
   */
  async deleteStale(team: string): Promise<StaleTeamRemoval> {
    const name = safeName(team)
    const dir = this.teamDir(name)
    if (!existsSync(join(dir, 'config.json'))) throw new TeamNotFoundError(name)
    const removal = await withLock(
      join(dir, '.lock'),
      async () => {
        this.read(name)
        const status = leaderStatus(this.home, name)
        if (status.state === 'alive') throw new TeamLeaderAliveError(name, status.lease.sessionId, status.lease.pid)
        return this.removeLocked(name, status)
      },
      this.lockOptions
    )
    // the lock lives in the folder: it goes once released, unless a new team took the name meanwhile
    if (!existsSync(join(dir, 'config.json'))) rmSync(dir, { recursive: true, force: true })
    return removal
  }

  /** Under the team's lock: kills the stale team's leftovers and removes everything of it but the lock. */
  private async removeLocked(
    name: string,
    status: Extract<LeaderStatus, { state: 'stale' }>
  ): Promise<StaleTeamRemoval> {
    const leftovers = await killTeamLeftovers(this.home, name)
    const dir = this.teamDir(name)
    for (const entry of readdirSync(dir))
      if (entry !== '.lock') rmSync(join(dir, entry), { recursive: true, force: true })
    rmSync(join(this.home, 'tasks', name), { recursive: true, force: true })
    return { team: name, reason: status.reason, leftovers }
  }

  /** Writes a new team's config exclusively (the folder exists). @throws TeamExistsError */
  private writeNew(name: string, input: NewTeam): TeamConfig {
    const dir = this.teamDir(name)
    const config = newTeamConfig(name, input)
    if (!createFileExclusiveSync(join(dir, 'config.json'), serialise(config))) throw new TeamExistsError(name)
    return config
  }

  /** The team's config. @throws TeamNotFoundError, TeamFileError (invalid file, named). */
  read(team: string): TeamConfig {
    const file = join(this.teamDir(team), 'config.json')
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new TeamNotFoundError(team)
      throw error
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      throw new TeamFileError(file, `not valid JSON (${(error as Error).message})`)
    }
    const parsed = TeamConfigSchema.safeParse(json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new TeamFileError(file, `not a team config: ${issue.path.join('.') || '(root)'} ${issue.message}`)
    }
    return parsed.data
  }

  /**
   * Calls `listener` with every later change of `team`'s config from any process, its deletion
   * included ({@link watchTeamConfig}). Dispose to stop. @throws TeamNameError.
   */
  watch(team: string, listener: (change: TeamConfigChange) => void): Disposable & { ready: Promise<void> } {
    return watchTeamConfig(join(this.home, 'teams'), team, (name) => this.read(name), listener)
  }

  /** Every team with a readable config, by name; unreadable ones are reported, not fatal. */
  list(): { teams: TeamConfig[]; problems: TeamFileError[] } {
    const teams: TeamConfig[] = []
    const problems: TeamFileError[] = []
    let names: string[] = []
    try {
      names = readdirSync(join(this.home, 'teams')).sort()
    } catch {
      // no teams yet
    }
    for (const n of names) {
      try {
        teams.push(this.read(n))
      } catch (error) {
        if (error instanceof TeamFileError) problems.push(error)
      }
    }
    return { teams, problems }
  }

  /**
   * Applies `change` to the config under the lock and writes the result atomically. The base of
   * every other mutation; `change` may throw to abort (nothing is written).
   */
  async update(team: string, change: (config: TeamConfig) => TeamConfig): Promise<TeamConfig> {
    const dir = this.teamDir(team)
    return withLock(
      join(dir, '.lock'),
      () => {
        const next = TeamConfigSchema.parse(change(this.read(team)))
        writeFileAtomicSync(join(dir, 'config.json'), serialise(next))
        return next
      },
      this.lockOptions
    )
  }

  /** Adds a member (agent id `name@team`, a colour distinct from the others'). @throws TeamMemberError if the name is taken. */
  async addMember(team: string, input: NewMember): Promise<TeamMember> {
    let added!: TeamMember
    await this.update(team, (c) => {
      const next = withMember(c, input)
      added = next.added
      return next.config
    })
    return added
  }

  /** Changes fields of a member. @throws TeamMemberError if there is no such member. */
  async updateMember(team: string, name: string, patch: MemberPatch): Promise<TeamMember> {
    let updated!: TeamMember
    await this.update(team, (c) => {
      const next = withMemberPatch(c, name, patch)
      updated = next.updated
      return next.config
    })
    return updated
  }

  /** Marks a member active or not (a teammate that exits becomes inactive). */
  setActive(team: string, name: string, isActive: boolean): Promise<TeamMember> {
    return this.updateMember(team, name, { isActive })
  }

  /** Removes a member. @throws TeamMemberError if there is no such member. */
  async removeMember(team: string, name: string): Promise<void> {
    await this.update(team, (c) => withoutMember(c, name))
  }

  /**
   * Deletes the team's folder (config, inboxes) and its task list. Refused while any member other
   * than the leader is active (docs/teams.md#team-config: TeamDelete fails while a teammate is active).
   *
   * @throws TeamActiveError naming the active members; TeamNotFoundError.
   */
  async delete(team: string): Promise<void> {
    const dir = this.teamDir(team)
    await withLock(
      join(dir, '.lock'),
      () => {
        const c = this.read(team)
        const active = c.members.filter((m) => m.isActive && m.agentId !== c.leadAgentId).map((m) => m.name)
        if (active.length > 0) throw new TeamActiveError(c.name, active)
        rmSync(join(dir, 'config.json'))
        rmSync(join(this.home, 'tasks', c.name), { recursive: true, force: true })
      },
      this.lockOptions
    )
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The first free name among `base`, `base-2`, `base-3`… in the team (docs/teams.md#spawning-a-teammate: unique names). */
export function uniqueMemberName(config: TeamConfig, base: string): string {
  const taken = new Set(config.members.map((m) => m.name))
  if (!taken.has(base)) return base
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`
}

/**
 * The config of a new team `name` (already a safe name) led by `input.lead`, as every team store
 * writes it on create (docs/teams.md#team-config): the lead its only member, created now.
 */
export function newTeamConfig(name: string, input: NewTeam): TeamConfig {
  const lead = member(name, { ...input.lead, name: safeName(input.lead.name, 'agent') }, [])
  return {
    schemaVersion: TEAM_SCHEMA_VERSION,
    name,
    description: input.description ?? '',
    createdAt: new Date().toISOString(),
    leadAgentId: lead.agentId,
    members: [lead],
    hiddenPaneIds: [],
    allowedPaths: input.allowedPaths ?? []
  }
}

/**
 * `config` with a new member (agent id `name@team`, a colour distinct from the others'): the change
 * {@link TeamStore.addMember} writes, for any store's `update` (docs/nats.md#the-team-store).
 * @throws TeamMemberError if the name is taken.
 */
export function withMember(config: TeamConfig, input: NewMember): { config: TeamConfig; added: TeamMember } {
  const name = safeName(input.name, 'agent')
  if (config.members.some((m) => m.name === name))
    throw new TeamMemberError(`Team '${config.name}' already has a member named '${name}'.`)
  const added = member(
    config.name,
    { ...input, name },
    config.members.map((m) => m.color)
  )
  return { config: { ...config, members: [...config.members, added] }, added }
}

/** `config` with member `name` changed by `patch`: the change {@link TeamStore.updateMember} writes. @throws TeamMemberError if there is no such member. */
export function withMemberPatch(
  config: TeamConfig,
  name: string,
  patch: MemberPatch
): { config: TeamConfig; updated: TeamMember } {
  const i = indexOf(config, name)
  const updated = { ...config.members[i]!, ...patch }
  return { config: { ...config, members: config.members.map((m, j) => (j === i ? updated : m)) }, updated }
}

/** `config` without member `name`: the change {@link TeamStore.removeMember} writes. @throws TeamMemberError if there is no such member. */
export function withoutMember(config: TeamConfig, name: string): TeamConfig {
  const i = indexOf(config, name)
  return { ...config, members: config.members.filter((_, j) => j !== i) }
}

function member(team: string, input: NewMember, takenColors: string[]): TeamMember {
  return {
    ...input,
    agentId: agentId(input.name, team),
    color: input.color ?? assignColor(input.name, takenColors),
    paneId: input.paneId ?? '',
    planModeRequired: input.planModeRequired ?? false,
    mode: input.mode ?? 'default',
    isActive: input.isActive ?? true,
    joinedAt: new Date().toISOString()
  }
}

function indexOf(c: TeamConfig, name: string): number {
  const i = c.members.findIndex((m) => m.name === name)
  if (i < 0) throw new TeamMemberError(`Team '${c.name}' has no member named '${name}'.`)
  return i
}

function serialise(config: TeamConfig): string {
  return JSON.stringify(config, null, 2) + '\n'
}
