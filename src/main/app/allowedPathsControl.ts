import type { TeamAllowedPaths } from '../../shared/ipc'
import type { Disposable } from '../runtime/base'
import type { Session } from '../runtime/session'
import type { TeamStorePort } from '../runtime/teamStore'
import { AllowedPathError, editAllowedPaths } from '../runtime/teammates'
import { TeamNameError, TeamNotFoundError } from '../runtime/teams'
import { refusing } from './requestError'
import { TeamControlError } from './teamControl'

/** What the control needs of the workspace: its session now (a new session replaces it) and where to push changes. */
export interface AllowedPathsControlOptions {
  session(): Session
  /** Called with the paths whenever they, or the session's team, change (the `team.allowedPaths` push). */
  push(view: TeamAllowedPaths): void
}

const same = (a: TeamAllowedPaths, b: TeamAllowedPaths): boolean =>
  a.team === b.team && a.paths.length === b.paths.length && a.paths.every((p, i) => p === b.paths[i])

/**
 * The session's team's allowed paths as the dashboard shows and edits them
 * (docs/teams.md#allowed-paths, docs/ui.md#team-dashboard). Reads them from the team config in the
 * session's team store (files or JetStream alike), pushes them when they change — after an edit
 * here at once; after one made elsewhere (`swarmdesk team allow`, another machine) when the config's
 * watch (`config.watch`) reports it, as teammates hear of it; for a new team or session when the
 * session says so — and edits them with {@link editAllowedPaths}, relative paths against the
 * workspace folder. Nothing is read on a timer.
 */
export class AllowedPathsControl implements Disposable {
  private last: TeamAllowedPaths = { paths: [] }
  private reading: Promise<TeamAllowedPaths> | undefined
  /** Counts edits and pushed changes: a read that began before one does not undo it. */
  private changes = 0
  /** The session's team changes (TeamCreate, TeamDelete, a resumed lead). */
  private teamChanges: Disposable | undefined
  /** The config watch of the team followed now, and which team of which store it is. */
  private watching: { store: TeamStorePort; team: string; watch: Disposable } | undefined
  private disposed = false

  constructor(private readonly o: AllowedPathsControlOptions) {
    this.sessionChanged()
  }

  /** The workspace's session was replaced (_New session_, one resumed): follows its team from now on. */
  sessionChanged(): void {
    this.teamChanges?.dispose()
    this.teamChanges = this.o.session().team?.onDidChangeTeam(() => this.follow())
    this.follow()
  }

  /**
   * The paths now, read from the team config (pushed if they changed). A config that cannot be read
   * (a server away) keeps the last paths read; a team whose config is gone has none.
   */
  refresh(): Promise<TeamAllowedPaths> {
    if (this.reading) return this.reading
    const reading = this.read().finally(() => {
      if (this.reading === reading) this.reading = undefined
    })
    return (this.reading = reading)
  }

  /**
   * The paths for a snapshot: read now while the team store is connected, else the last paths read
   * (a page opening while the team's server is away is not held up by it; the push follows).
   */
  snapshot(): Promise<TeamAllowedPaths> {
    const store = this.o.session().team?.store
    return !store || store.connection.state() === 'connected' ? this.refresh() : Promise.resolve(this.last)
  }

  /**
   * Adds `path` to the session's team's allowed paths or takes it off; a relative path is resolved
   * against the workspace folder. Pushes and answers the paths after the change.
   * @throws IpcRequestError with the reason for a path that cannot be allowed (AllowedPathError), an
   *   unknown team, or a session without a team.
   */
  async edit(action: 'add' | 'remove', path: string): Promise<TeamAllowedPaths> {
    const session = this.o.session()
    const team = session.team?.team()
    const context = session.team
    const paths = await refusing([AllowedPathError, TeamNotFoundError, TeamNameError, TeamControlError], () => {
      if (!context || !team)
        throw new TeamControlError('The session leads no team: create one first, then allow paths for it.')
      return editAllowedPaths(
        context.store,
        team,
        action === 'add' ? { add: path } : { remove: path },
        session.identity.cwd
      )
    })
    this.changes++
    return this.note({ team, paths })
  }

  dispose(): void {
    this.disposed = true
    this.teamChanges?.dispose()
    this.watching?.watch.dispose()
    this.watching = undefined
  }

  /** Watches the config of the session's team now (none without a team) and reads the paths once the watch holds. */
  private follow(): void {
    if (this.disposed) return
    const context = this.o.session().team
    const team = context?.team()
    const w = this.watching
    if (w && w.store === context?.store && w.team === team) return
    w?.watch.dispose()
    this.watching = undefined
    // a read in flight is of the team before: it neither stands for this one nor undoes what follows
    this.changes++
    this.reading = undefined
    if (!context || !team) return void this.refresh()
    const watching = {
      store: context.store,
      team,
      watch: context.store.config.watch(team, (change) => {
        if (this.watching !== watching) return
        this.changes++
        this.note({ team, paths: change.type === 'updated' ? [...change.config.allowedPaths] : [] })
      })
    }
    this.watching = watching
    void watching.watch.ready.catch(() => undefined).then(() => this.refresh())
  }

  private async read(): Promise<TeamAllowedPaths> {
    const session = this.o.session()
    const team = session.team?.team()
    if (!session.team || !team) return this.note({ paths: [] })
    const changes = this.changes
    let view: TeamAllowedPaths
    try {
      view = { team, paths: [...(await session.team.store.config.read(team)).allowedPaths] }
    } catch (error) {
      view = error instanceof TeamNotFoundError || this.last.team !== team ? { team, paths: [] } : this.last
    }
    return changes === this.changes ? this.note(view) : this.last
  }

  /** Keeps `view` as the last paths, pushing it when it differs. */
  private note(view: TeamAllowedPaths): TeamAllowedPaths {
    if (!same(view, this.last)) {
      this.last = view
      this.o.push(view)
    }
    return this.last
  }
}
