import type { TeamAllowedPaths } from '../../shared/ipc'
import type { Disposable } from '../runtime/base'
import type { Session } from '../runtime/session'
import { AllowedPathError, ALLOWED_PATHS_TTL_MS, editAllowedPaths } from '../runtime/teammates'
import { TeamNameError, TeamNotFoundError } from '../runtime/teams'
import { refusing } from './requestError'
import { TeamControlError } from './teamControl'

/** What the control needs of the workspace: its session now (a new session replaces it) and where to push changes. */
export interface AllowedPathsControlOptions {
  session(): Session
  /** Called with the paths whenever they, or the session's team, change (the `team.allowedPaths` push). */
  push(view: TeamAllowedPaths): void
  /** How often the team config is read again for changes made elsewhere (CLI, another machine), ms; default {@link ALLOWED_PATHS_TTL_MS}. */
  everyMs?: number
}

const same = (a: TeamAllowedPaths, b: TeamAllowedPaths): boolean =>
  a.team === b.team && a.paths.length === b.paths.length && a.paths.every((p, i) => p === b.paths[i])

/**
 * The session's team's allowed paths as the dashboard shows and edits them
 * (docs/teams.md#allowed-paths, docs/ui.md#team-dashboard). Reads them from the team config in the
 * session's team store (files or JetStream alike), pushes them when they change — after an edit
 * here at once; after one made elsewhere (`swarmdesk team allow`, another machine) or a new team
 * within {@link AllowedPathsControlOptions.everyMs}, as teammates see it (they read it with the same
 * period) — and edits them with {@link editAllowedPaths}, relative paths against the workspace folder.
 */
export class AllowedPathsControl implements Disposable {
  private last: TeamAllowedPaths = { paths: [] }
  private readonly timer: ReturnType<typeof setInterval>
  private reading: Promise<TeamAllowedPaths> | undefined
  /** Counts edits: a read that began before one does not undo what it pushed. */
  private edits = 0

  constructor(private readonly o: AllowedPathsControlOptions) {
    this.timer = setInterval(() => void this.refresh(), o.everyMs ?? ALLOWED_PATHS_TTL_MS)
    this.timer.unref()
  }

  /**
   * The paths now, read from the team config (pushed if they changed). A config that cannot be read
   * (a server away) keeps the last paths read; a team whose config is gone has none.
   */
  refresh(): Promise<TeamAllowedPaths> {
    this.reading ??= this.read().finally(() => (this.reading = undefined))
    return this.reading
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
    this.edits++
    return this.note({ team, paths })
  }

  dispose(): void {
    clearInterval(this.timer)
  }

  private async read(): Promise<TeamAllowedPaths> {
    const session = this.o.session()
    const team = session.team?.team()
    if (!session.team || !team) return this.note({ paths: [] })
    const edits = this.edits
    let view: TeamAllowedPaths
    try {
      view = { team, paths: [...(await session.team.store.config.read(team)).allowedPaths] }
    } catch (error) {
      view = error instanceof TeamNotFoundError || this.last.team !== team ? { team, paths: [] } : this.last
    }
    return edits === this.edits ? this.note(view) : this.last
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
