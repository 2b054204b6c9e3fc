import type { RuntimeEvent } from '../../../shared/events'
import type { MailboxMessage } from '../../../shared/mailbox'
import type { ClaimResult, Task, TaskChange } from '../../../shared/tasks'
import type { TeamConfig } from '../../../shared/teams'
import type { Disposable } from '../base'
import type { OutgoingMessage, SentEvent } from '../mailbox'
import type { NewTask, TaskListing, TaskPatch, UpdateResult } from '../tasks'
import type { NewTeam, StaleTeamRemoval, TeamConfigChange } from '../teams'
import type { TeamConnection } from './connectionState'

/** Which engine holds a team: the data directory's files (the default) or NATS JetStream (docs/nats.md). */
export type TeamTransportKind = 'files' | 'nats'

/** A delivered message and its read state. */
export interface StoredMessage {
  message: MailboxMessage
  read: boolean
}

/**
 * The inboxes of a team (docs/teams.md#mailbox): one per member, a send acknowledged only once
 * stored, no message stored twice, each sender's messages in order, a waiting reader woken by a push.
 */
export interface MailboxPort {
  /**
   * Stores `message` in `to`'s inbox; resolves once it is stored (the acknowledgement).
   * `existingTeamOnly`: refuse when the team's config is gone (a teammate's last words after its
   * leader deleted the team are then not stored where nobody reads them).
   * @throws InvalidNameError for a bad team or recipient; InvalidMessageError for a bad message;
   *   TeamGoneError with `existingTeamOnly` when the team no longer exists.
   */
  send(
    team: string,
    to: string,
    message: OutgoingMessage,
    opts?: { existingTeamOnly?: boolean }
  ): Promise<{ id: string }>
  /**
   * Sends `message` to each of `members` but its sender (duplicates dropped), as {@link send} does.
   * @throws InvalidNameError for a bad member name (before anything is sent).
   */
  broadcast(team: string, members: readonly string[], message: OutgoingMessage): Promise<{ id: string }[]>
  /**
   * Calls `listener` after every acknowledged send made through this store (in this process; the
   * runtime turns it into a `message_sent` event and arms a shutdown timer on it). Dispose to stop.
   */
  onDidSend(listener: (e: SentEvent) => void): Disposable
  /** The inbox, oldest first; changes nothing. */
  read(team: string, agent: string, opts?: { unreadOnly?: boolean }): Promise<StoredMessage[]>
  /**
   * How many unread messages wait in the inbox (0 for one that does not exist yet): the cheap
   * "is anything waiting to be delivered" of a headless run's settling check (files: a listing of
   * `new/`; JetStream: a read of the inbox and its read marks).
   */
  unreadCount(team: string, agent: string): Promise<number>
  /** Marks messages read. Already-read ids count as marked; unknown ones are `missing`. */
  markRead(team: string, agent: string, ids: readonly string[]): Promise<{ marked: string[]; missing: string[] }>
  /**
   * The oldest unread message: at once if one waits, else as soon as one is stored (a push, never
   * a poll loop). Does not mark it read. @throws MailboxAbortError when `signal` aborts.
   */
  waitForMessage(team: string, agent: string, opts?: { signal?: AbortSignal }): Promise<StoredMessage>
  /**
   * Calls `listener` once for every unread message of the inbox — those waiting now, then each new
   * one as it is stored (a push) — oldest first. Messages marked read before they were seen are not
   * reported. A throwing listener's error is rethrown on a later tick. `ready` resolves once waiting
   * messages were reported and new ones will be. A failure to read the inbox goes to `onError`
   * (default: rethrown on a later tick on files; JetStream's watch ends quietly). Dispose to stop.
   */
  watch(
    team: string,
    agent: string,
    listener: (entry: StoredMessage) => void,
    opts?: { onError?: (error: unknown) => void }
  ): Disposable & { ready: Promise<void> }
  /**
   * JetStream only (the mailbox inspector's feed, docs/nats.md#mailbox): every message of every
   * inbox of `team` — those stored, then each new one — and every read mark, old and new, as
   * pushes. A mark may come before its message. The files have none: the inspector reads their
   * folders itself (app/mailboxWatch.ts). `ready` resolves once both are subscribed.
   */
  follow?(team: string, listener: (e: MailEvent) => void): Disposable & { ready: Promise<void> }
}

/** What {@link MailboxPort.follow} reports: a message of any inbox of the team, or a read mark. */
export type MailEvent = { type: 'message'; message: MailboxMessage } | { type: 'read'; agent: string; id: string }

/** The shared task list of a team (docs/teams.md#shared-task-list); the same rules and refusals on every transport. */
export interface TaskListPort {
  /** A new task with the next id of a counter that never repeats. @throws TaskInputError, TaskNotFoundError (a blocker). */
  create(team: string, fields: NewTask): Promise<Task>
  /** The task, or `undefined`. */
  get(team: string, id: number): Promise<Task | undefined>
  /** Every task, by id. */
  list(team: string): Promise<Task[]>
  /** Every task, by id, with the problems met reading the list (the files name each unreadable task file; JetStream has none). */
  listing(team: string): Promise<TaskListing>
  /** Of any number of concurrent claimants of one task exactly one wins; the others get a refusal. */
  claim(team: string, id: number, agent: string): Promise<ClaimResult>
  /** @throws TaskNotFoundError, TaskInputError, TaskCycleError as TaskStore.update. */
  update(team: string, id: number, patch: TaskPatch): Promise<UpdateResult>
  /** Deletes a task and its links; its id is never handed out again. @throws TaskNotFoundError. */
  delete(team: string, id: number): Promise<void>
  /** Returns every unfinished task of `agent` to pending with no owner; the released tasks. */
  releaseOwnedBy(team: string, agent: string): Promise<Task[]>
  /**
   * Calls `listener` after every later change, from any process. `ready` resolves once changes
   * are being delivered. Dispose to stop.
   */
  watch(team: string, listener: (change: TaskChange) => void): Disposable & { ready: Promise<void> }
}

/** Team configs (docs/teams.md#team-config). */
export interface TeamConfigPort {
  /** @throws TeamExistsError, TeamNameError. */
  create(input: NewTeam): Promise<TeamConfig>
  /**
   * Creates a team led by session `sessionId` (TeamCreate). On files its leader lease is written
   * with it and a team of that name whose leader session is gone is removed first (`replaced`,
   * docs/teams.md#team-config); on JetStream the lease is the server's (docs/nats.md#the-leader-lease) and a
   * taken name is refused.
   * @throws TeamExistsError, TeamNameError.
   */
  createAsLeader(input: NewTeam, sessionId: string): Promise<{ config: TeamConfig; replaced?: StaleTeamRemoval }>
  /** Where `team`'s config lives, for people: its file, or its key on the server. @throws TeamNameError. */
  where(team: string): string
  /** @throws TeamNotFoundError. */
  read(team: string): Promise<TeamConfig>
  /** Read-modify-write without lost updates; `change` may throw to abort. @throws TeamNotFoundError. */
  update(team: string, change: (config: TeamConfig) => TeamConfig): Promise<TeamConfig>
  /** Removes the config, the inboxes and the task list. @throws TeamActiveError, TeamNotFoundError. */
  delete(team: string): Promise<void>
  /**
   * Calls `listener` after every later change of `team`'s config, from any store in any process:
   * `updated` with the new config, `deleted` when the team is deleted (a config made again later is
   * `updated` again). A change that leaves the config as it was may be reported or not. `ready`
   * resolves once changes are being delivered: read the config after it, not before, to miss
   * nothing. It lives through a lost connection: on JetStream a watch that lost its server goes on
   * from the last change it delivered once the server is back, reporting what changed meanwhile
   * (docs/nats.md#team-config). Dispose to stop. Files: a watch of the team's folder
   * (teams/watch.ts); JetStream: an ordered consumer of the config's key.
   * @throws TeamNameError for a bad team name.
   */
  watch(team: string, listener: (change: TeamConfigChange) => void): Disposable & { ready: Promise<void> }
}

/**
 * Whether a teammate still runs (docs/nats.md#liveness). A teammate's process calls `beat` while it
 * lives; one that vanishes without a word is no longer `alive` within `boundMs`.
 */
export interface LivenessPort {
  /** The longest time, ms, from a teammate vanishing to `alive` answering false for it. */
  readonly boundMs: number
  /** Records that `agent` lives; call at least every `beatEveryMs`. */
  beat(team: string, agent: string): Promise<void>
  /** How often `beat` must be called, ms. */
  readonly beatEveryMs: number
  /** The members that have beaten recently enough (or whose recorded process still runs). */
  alive(team: string): Promise<Set<string>>
  /** Forgets `agent`'s heartbeat (an orderly exit). */
  forget(team: string, agent: string): Promise<void>
}

/**
 * A teammate's events for the leader's view of it (docs/nats.md#a-teammates-events): on a server
 * the teammate publishes what its bus emits, and the leader follows that instead of tailing a
 * transcript that may be in another data directory or on another machine. The server keeps them an
 * hour: a follower whose connection drops goes on where it left off, and one that starts later may
 * replay from a position it was given. On files nothing is published: the leader tails the
 * transcript, as always.
 */
export interface TeammateEventsPort {
  /** Sends `event` for whoever follows `agent`, now or later; never throws, never waits. */
  publish(team: string, agent: string, event: RuntimeEvent): void
  /**
   * Calls `listener` with each event `agent` publishes from now on — or, with `after`, each one
   * stored after that position (a `position` an earlier listener was given) — in order, each once,
   * with its position. `ready` once following. Dispose to stop.
   */
  follow(
    team: string,
    agent: string,
    listener: (event: RuntimeEvent, position: number) => void,
    opts?: { after?: number }
  ): Disposable & { ready: Promise<void> }
}

/** A team's leader record on a server (docs/nats.md#the-leader-lease): who leads it, from which process on which host. */
export interface ServerLeaderLease {
  schemaVersion: 1
  sessionId: string
  pid: number
  host: string
  /** ISO time the lease was written. */
  claimedAt: string
}

/** Whether a team's leader on a server is alive (it beats) or stale (`reason` says why, for people). */
export type ServerLeaderStatus =
  { state: 'alive'; lease: ServerLeaderLease } | { state: 'stale'; reason: string; lease?: ServerLeaderLease }

/**
 * The leader lease of a team on JetStream (docs/nats.md#the-leader-lease); the files keep theirs in
 * `leader.json` (teams/leader.ts). A holder calls `beat` every `beatEveryMs` while it leads.
 */
export interface LeaderLeasePort {
  /** The names of every team whose config is on the server, sorted. */
  teams(): Promise<string[]>
  readonly beatEveryMs: number
  /**
   * Makes session `sessionId` of this process the team's leader: a free or stale lease is taken
   * (a compare-and-set: of two claimants one wins), its own lease kept; a lease another live
   * leader holds is refused with that lease. Beats once on success.
   */
  claim(team: string, sessionId: string): Promise<{ ok: true } | { ok: false; lease: ServerLeaderLease }>
  /** Records that the holder still leads. */
  beat(team: string, sessionId: string): Promise<void>
  /** Gives the lease up when this process's session `sessionId` holds it; anything else is left alone. */
  release(team: string, sessionId: string): Promise<void>
  status(team: string): Promise<ServerLeaderStatus>
}

/**
 * The team store: everything a team shares — mailbox, task list, config, liveness — behind one
 * interface, with one implementation per transport (docs/nats.md#the-team-store).
 */
export interface TeamStorePort {
  readonly transport: TeamTransportKind
  /** Where it is, for people: a folder, or the server URLs (never credentials). */
  readonly describe: string
  readonly mailbox: MailboxPort
  readonly tasks: TaskListPort
  readonly config: TeamConfigPort
  readonly liveness: LivenessPort
  readonly events: TeammateEventsPort
  /** The connection to its engine (docs/nats.md#connection-state): always `connected` on files. */
  readonly connection: TeamConnection
  /** JetStream only: the leader lease on the server (the files keep theirs in `leader.json`). */
  readonly leader?: LeaderLeasePort
  /** Releases connections, watches and timers. Idempotent. */
  close(): Promise<void>
}
