import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import type { RuntimeEventInput } from '../../../shared/events'
import type { EventBus, WithoutAgent } from '../events'
import type { HookRunner } from '../hooks'
import { Emitter, toDisposable, type Disposable } from '../base'
import { writeFileAtomicSync } from '../locks'
import type { Mailbox } from '../mailbox'
import { claimLeadership, leaderStatus, releaseLeadership, runningTeammates } from '../teams'
import { createFileTeamStore, type FileTeamStore, type TeamFiles } from './files'
import { reapVanished } from './open'
import type { TeamStorePort } from './port'
import { ServerLeadership } from './serverLease'
import type { TeamTransport } from './transport'

/** Who makes a call, as events and messages name it. */
export interface Caller {
  agentId: string
  agentName: string
}

/**
 * What the team tools (TeamCreate/Delete, Task*, SendMessage's teammate part) share within one
 * leader session (docs/teams.md#team-config, docs/teams.md#shared-task-list): the team store, the session's hooks, the event bus,
 * and the team the session leads — one at a time, set by TeamCreate, cleared by TeamDelete.
 */
export interface TeamContext {
  /** Swarmdesk's data directory (docs/storage.md#layout). */
  readonly home: string
  readonly sessionId: string
  /** The leader's agent name (`team-lead`): the only sender of `shutdown_request` and `plan_approval_response` (docs/teams.md#sendmessage-between-teammates). */
  readonly leaderName: string
  /**
   * The team store (docs/nats.md#the-team-store): config, inboxes, task lists. The team tools use
   * only this; every call names the team or task list ({@link taskListName}).
   */
  readonly store: TeamStorePort
  /** Where {@link store} is, as a child process is handed it (`transportEnv`, docs/nats.md#configuration). */
  readonly transport: TeamTransport
  /**
   * The store's file classes when it is on files (the same instances), for what only the files
   * have: stale teams and their clean-up, the leader lease (teams/leader.ts). Undefined on JetStream.
   */
  readonly files: TeamFiles | undefined
  /** The session's hooks (TaskCreated / TaskCompleted, docs/hooks.md#hooks); undefined when none are configured. */
  readonly hooks: HookRunner | undefined
  /** The team the session leads, or undefined before TeamCreate and after TeamDelete. */
  team(): string | undefined
  setTeam(team: string | undefined): void
  /** Called after {@link setTeam} changes the team (TeamCreate, TeamDelete). */
  onDidChangeTeam(listener: (team: string | undefined) => void): Disposable
  /**
   * Called by TeamDelete just before the team's files go (e.g. the mailbox inspector reads the
   * inboxes one last time); awaited, but never longer than {@link WILL_DELETE_TEAM_BOUND_MS}.
   */
  onWillDeleteTeam(listener: (team: string) => Promise<void>): Disposable
  /** Runs the {@link onWillDeleteTeam} listeners for `team` (bounded; a failing listener is ignored). */
  willDeleteTeam(team: string): Promise<void>
  /**
   * The task list the task tools use: the team's when there is one, else the session's own
   * `session-<first 8 of sessionId>` (Claude Code keeps a task list per session even without a
   * team; the name cannot clash with a team's because TeamCreate names never come from here).
   */
  taskListName(): string
  /** Emits `event` on the session's bus in `caller`'s name (docs/events.md#event-stream-and-command-line). */
  emit(caller: Caller, event: WithoutAgent<RuntimeEventInput>): void
  /**
   * Resolves once a resumed leader session on a server leads its team again, or knows it does not
   * (docs/nats.md#the-leader-lease): until then {@link team} is undefined. At once on files, whose
   * lease is taken as the context is made.
   */
  readonly ready: Promise<void>
  /**
   * The session ended: a leader context gives up its team's leader lease, so the team shows as
   * stale and may be cleaned up or taken over (teams/leader.ts). `team.json` stays: resuming the
   * session leads the team again if it still exists. Idempotent; never throws.
   */
  dispose(): void
}

/** Milliseconds TeamDelete waits at most for its {@link TeamContext.onWillDeleteTeam} listeners. */
export const WILL_DELETE_TEAM_BOUND_MS = 2_000

/** Inputs of {@link createTeamContext}. */
export interface TeamContextOptions {
  home: string
  sessionId: string
  bus: EventBus
  leaderName: string
  hooks?: HookRunner
  /** Injected for tests; default a mailbox over `home`. The file team store uses it. */
  mailbox?: Mailbox
  /**
   * The team store (docs/nats.md#the-team-store) and the transport it was opened on; default the
   * files of `home`. The context does not close it: its opener does.
   */
  store?: TeamStorePort
  transport?: TeamTransport
  /**
   * Where the session remembers its team (`<sessionDir>/team.json`), so a resumed session leads
   * the same team again. Absent: the team is forgotten with the process.
   */
  teamFile?: string
  /**
   * True for a leader session's context: the team it leads carries its leader lease
   * (`leader.json`, teams/leader.ts) while it lives. A teammate's context (false) only uses the team.
   */
  leaderLease?: boolean
}

/** `<sessionDir>/team.json`: the team a session leads. */
const TeamFileSchema = z.object({ schemaVersion: z.literal(1), team: z.string() })

/** Task-list name of a session without a team: `session-` + the first 8 characters of its id, lower-cased. */
export function sessionTaskListName(sessionId: string): string {
  return `session-${sessionId
    .slice(0, 8)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '0')}`
}

/**
 * A session's {@link TeamContext} on `options.store`, else on the files of `home`. Holds no
 * resources of its own: a file store opens nothing until used. A leader context's lease is
 * `leader.json` on files, the server's lease on JetStream (docs/nats.md#the-leader-lease), claimed
 * for a resumed session in the background ({@link TeamContext.ready}).
 */
export function createTeamContext(options: TeamContextOptions): TeamContext {
  const store: TeamStorePort =
    options.store ?? createFileTeamStore(options.home, options.mailbox ? { mailbox: options.mailbox } : {})
  const files = 'files' in store && store.transport === 'files' ? (store as FileTeamStore).files : undefined
  const leaderLease = options.leaderLease === true && files !== undefined
  // on a server the lease is the server's (serverLease.ts): a resumed team is led once claimed there
  const server =
    options.leaderLease === true && store.leader ? new ServerLeadership(store.leader, options.sessionId) : undefined
  let current = files ? restoreTeam(options.teamFile, options.home) : undefined
  // a team taken over from a leader that is gone: its members that went with it are cleaned up after
  let orphaned: string | undefined
  if (current && leaderLease) {
    // a team another live session leads is not taken from it: this session resumes without one
    const status = leaderStatus(options.home, current)
    if (status.state === 'alive' && status.lease.sessionId !== options.sessionId) current = undefined
    else {
      if (status.state === 'stale') orphaned = current
      claimLeadership(options.home, current, options.sessionId)
    }
  }
  const lease = (team: string | undefined, held: boolean) => {
    if (!leaderLease || team === undefined) return
    if (held) claimLeadership(options.home, team, options.sessionId)
    else releaseLeadership(options.home, team, options.sessionId)
  }
  const teamChanged = new Emitter<string | undefined>()
  const restored = server ? readTeamFile(options.teamFile) : undefined
  const warn = (message: string): void =>
    void options.bus.emit({
      type: 'notice',
      level: 'warning',
      message,
      agentId: options.leaderName,
      agentName: options.leaderName
    })
  const ready: Promise<void> = orphaned
    ? releaseOrphans(store, options.home, orphaned, warn)
    : !(server && restored)
      ? Promise.resolve()
      : server.resume(store, restored).then(
          (refused) => {
            if (refused !== undefined) return warn(refused)
            current = restored
            teamChanged.fire(restored)
          },
          (error: unknown) => warn(`Could not lead the team '${restored}' again: ${(error as Error).message}`)
        )
  const willDelete = new Set<(team: string) => Promise<void>>()
  return {
    home: options.home,
    sessionId: options.sessionId,
    leaderName: options.leaderName,
    store,
    transport: options.transport ?? { kind: 'files' },
    files,
    hooks: options.hooks,
    team: () => current,
    ready,
    onDidChangeTeam: teamChanged.event,
    onWillDeleteTeam: (listener) => {
      willDelete.add(listener)
      return toDisposable(() => willDelete.delete(listener))
    },
    willDeleteTeam: async (team) => {
      const all = Promise.all([...willDelete].map((l) => l(team).catch(() => undefined)))
      let timer: NodeJS.Timeout | undefined
      const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, WILL_DELETE_TEAM_BOUND_MS)))
      await Promise.race([all, bound])
      clearTimeout(timer)
    },
    setTeam: (team) => {
      if (current !== team) lease(current, false)
      // TeamCreate has written the lease with the config already; a rewrite changes nothing
      if (team !== undefined && leaderLease && existsSync(join(options.home, 'teams', team, 'config.json')))
        lease(team, true)
      current = team
      server?.hold(team)
      teamChanged.fire(team)
      if (!options.teamFile) return
      if (team === undefined) return rmSync(options.teamFile, { force: true })
      mkdirSync(dirname(options.teamFile), { recursive: true })
      writeFileAtomicSync(options.teamFile, JSON.stringify(TeamFileSchema.parse({ schemaVersion: 1, team })) + '\n')
    },
    taskListName: () => current ?? sessionTaskListName(options.sessionId),
    emit: (caller, event) =>
      options.bus.emit({ ...event, agentId: caller.agentId, agentName: caller.agentName } as RuntimeEventInput),
    dispose: () => {
      lease(current, false)
      server?.drop()
    }
  }
}

/**
 * On files, for a session that leads `team` again after its earlier leader ended without shutting
 * the team down (a crash, a `kill -9`; docs/teams.md#teammate-life-cycle): the members that ended
 * with that leader — its worker teammates (threads of its process) and `process` teammates no
 * longer running (their terminal went with it) — are marked inactive and their unfinished tasks go
 * back to pending, as the supervisor would have done had it seen them end; a notice names each.
 * A `process` teammate still running is left as it is. What JetStream's reaper does for a resumed
 * leader there (teammates/reaper.ts). Never rejects: a failure is a warning.
 */
async function releaseOrphans(
  store: TeamStorePort,
  home: string,
  team: string,
  warn: (message: string) => void
): Promise<void> {
  try {
    for (const { name, released } of await reapVanished(store, team, Date.now(), runningTeammates(home, team))) {
      const freed = released.length ? `; tasks ${released.map((t) => `#${t.id}`).join(', ')} are pending again` : ''
      warn(`Teammate ${name} ended with the session's earlier process: marked inactive${freed}.`)
    }
  } catch (error) {
    warn(`Could not clean up after the teammates of the team '${team}': ${(error as Error).message}`)
  }
}

/** The team a resumed session led, if its file names one whose config still exists; unreadable files are ignored (the session then has no team). */
function restoreTeam(file: string | undefined, home: string): string | undefined {
  const team = readTeamFile(file)
  return team !== undefined && existsSync(join(home, 'teams', team, 'config.json')) ? team : undefined
}

/** The team `<sessionDir>/team.json` names; undefined when there is none or it is unreadable. */
function readTeamFile(file: string | undefined): string | undefined {
  if (!file || !existsSync(file)) return undefined
  try {
    return TeamFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).team
  } catch {
    return undefined
  }
}
