import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { TaskChange } from '../../../shared/tasks'
import { toDisposable } from '../base'
import { currentOwner, ownerGone, writeFileAtomicSync, type LockOwner } from '../locks'
import { assertName, createMailbox, type Mailbox } from '../mailbox'
import { TaskStore } from '../tasks'
import { safeName, TeamStore } from '../teams'
import { ALWAYS_CONNECTED } from './connectionState'
import type { LivenessPort, StoredMessage, TeamStorePort } from './port'

/**
 * The file classes behind a {@link createFileTeamStore} store, for the parts of the runtime that
 * still use them directly (docs/nats.md#limits): the same instances the store uses, so a send
 * through either fires the same `onDidSend` and a task change through either the same `onDidChange`.
 */
export interface TeamFiles {
  readonly mailbox: Mailbox
  readonly teams: TeamStore
  /** The task store of list `team` (one instance per list). */
  tasks(team: string): TaskStore
}

/** A team store on files, with its file classes. */
export type FileTeamStore = TeamStorePort & { readonly files: TeamFiles }

/**
 * The team store over the data directory's files (the default transport): a thin face over the
 * maildir `Mailbox`, the `TaskStore` and the `TeamStore`, whose behaviour it does not change
 * (docs/teams.md). Liveness is a record of the teammate's process (pid + start time) in
 * `<home>/teams/{team}/live/{agent}.json`: a vanished process is seen at once. `shared.mailbox`
 * makes it use a given mailbox (a test's, with its own poll interval).
 */
export function createFileTeamStore(home: string, shared: { mailbox?: Mailbox } = {}): FileTeamStore {
  const mailbox: Mailbox = shared.mailbox ?? createMailbox({ home })
  const teams = new TeamStore(home)
  const taskStores = new Map<string, TaskStore>()
  const tasksOf = (team: string): TaskStore => {
    let store = taskStores.get(team)
    if (!store) taskStores.set(team, (store = new TaskStore(home, team)))
    return store
  }
  const stored = (e: { message: StoredMessage['message']; read: boolean }): StoredMessage => ({
    message: e.message,
    read: e.read
  })
  return {
    transport: 'files',
    describe: home,
    mailbox: {
      send: async (team, to, message, opts) => ({ id: (await mailbox.send(team, to, message, opts)).id }),
      broadcast: async (team, members, message) =>
        (await mailbox.broadcast(team, members, message)).map((sent) => ({ id: sent.id })),
      onDidSend: (listener) => mailbox.onDidSend(listener),
      read: async (team, agent, opts) => (await mailbox.read(team, agent, opts)).messages.map(stored),
      unreadCount: async (team, agent) => mailbox.unreadCount(team, agent),
      markRead: (team, agent, ids) => mailbox.markRead(team, agent, ids),
      waitForMessage: async (team, agent, opts) => stored(await mailbox.waitForMessage(team, agent, opts)),
      watch: (team, agent, listener, opts) => mailbox.onDidReceive(team, agent, (e) => listener(stored(e)), opts)
    },
    tasks: {
      create: (team, fields) => tasksOf(team).create(fields),
      get: async (team, id) => tasksOf(team).get(id),
      list: async (team) => tasksOf(team).list().tasks,
      listing: async (team) => tasksOf(team).list(),
      claim: (team, id, agent) => tasksOf(team).claim(id, agent),
      update: (team, id, patch) => tasksOf(team).update(id, patch),
      delete: (team, id) => tasksOf(team).delete(id),
      releaseOwnedBy: (team, agent) => tasksOf(team).releaseOwnedBy(agent),
      watch: (team, listener: (change: TaskChange) => void) => {
        const d = tasksOf(team).onDidChange(listener)
        return Object.assign(
          toDisposable(() => d.dispose()),
          { ready: Promise.resolve() }
        )
      }
    },
    config: {
      create: (input) => teams.create(input),
      createAsLeader: (input, sessionId) => teams.createAsLeader(input, sessionId),
      where: (team) => join(teams.teamDir(team), 'config.json'),
      read: async (team) => teams.read(team),
      update: (team, change) => teams.update(team, change),
      delete: (team) => teams.delete(team),
      watch: (team, listener) => teams.watch(team, listener)
    },
    liveness: fileLiveness(home),
    // the leader tails a file teammate's transcript (docs/nats.md#a-teammates-events)
    events: {
      publish: () => undefined,
      follow: () =>
        Object.assign(
          toDisposable(() => undefined),
          { ready: Promise.resolve() }
        )
    },
    connection: ALWAYS_CONNECTED,
    close: async () => undefined,
    files: { mailbox, teams, tasks: tasksOf }
  }
}

/** Liveness from process records: `alive` is exact at the instant it is asked (bound 0 ms). */
function fileLiveness(home: string): LivenessPort {
  const dir = (team: string): string => join(home, 'teams', safeName(team), 'live')
  return {
    boundMs: 0,
    beatEveryMs: 60_000,
    async beat(team, agent) {
      assertName('agent', agent)
      // never re-creates a deleted team: the live/ folder is made only inside an existing one
      if (!existsSync(join(home, 'teams', safeName(team)))) return
      mkdirSync(dir(team), { recursive: true })
      const owner = currentOwner()
      writeFileAtomicSync(join(dir(team), `${agent}.json`), JSON.stringify({ ...owner, at: Date.now() }) + '\n')
    },
    async alive(team) {
      const live = new Set<string>()
      let names: string[]
      try {
        names = readdirSync(dir(team)).filter((n) => n.endsWith('.json'))
      } catch {
        return live
      }
      for (const n of names) {
        try {
          const owner = JSON.parse(readFileSync(join(dir(team), n), 'utf8')) as LockOwner
          if (ownerGone(owner) === undefined) live.add(n.slice(0, -'.json'.length))
        } catch {
          // a torn or foreign file is no proof of life
        }
      }
      return live
    },
    async forget(team, agent) {
      rmSync(join(dir(team), `${assertName('agent', agent)}.json`), { force: true })
    }
  }
}
