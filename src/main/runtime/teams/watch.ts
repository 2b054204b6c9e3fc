import { existsSync, mkdirSync, watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'
import type { TeamConfig } from '../../../shared/teams'
import { toDisposable, type Disposable } from '../base'
import { TeamNotFoundError } from './errors'
import { safeName } from './names'

/** A change of a team's config (docs/teams.md#team-config): its new content, or the team deleted. */
export type TeamConfigChange = { type: 'updated'; team: string; config: TeamConfig } | { type: 'deleted'; team: string }

/**
 * Watches `team`'s `<teamsDir>/{team}/config.json` and calls `listener` with every later change of
 * it, from any store in any process: `updated` with the new config, `deleted` once it is gone (the
 * team deleted). The folders are watched, not the file (a watch on a file misses the atomic rename
 * every write is, STACK.md): `<teamsDir>` (created if missing) for the team's folder appearing or
 * going, and the team's folder while it exists. Each event reads the file again, and a state is
 * reported only when it differs from the last one (the initial state is read here): the several
 * events one write raises report it once, and a write that changes nothing is not reported. An
 * unreadable file (torn by hand, invalid) is skipped until it is readable. `ready` resolves once
 * both watches hold (on a later tick; the listener is never called before this returns). The watches keep no process alive. Dispose to stop.
 * @throws TeamNameError for a bad team name.
 */
export function watchTeamConfig(
  teamsDir: string,
  team: string,
  read: (team: string) => TeamConfig,
  listener: (change: TeamConfigChange) => void
): Disposable & { ready: Promise<void> } {
  const name = safeName(team)
  const dir = join(teamsDir, name)
  mkdirSync(teamsDir, { recursive: true })
  let disposed = false
  let inner: FSWatcher | undefined
  const state = (): string | undefined => {
    try {
      return JSON.stringify(read(name))
    } catch (error) {
      return error instanceof TeamNotFoundError ? 'deleted' : undefined
    }
  }
  let last = state()
  const check = (): void => {
    if (disposed) return
    const now = state()
    if (now === undefined || now === last) return
    last = now
    const change: TeamConfigChange =
      now === 'deleted' ? { type: 'deleted', team: name } : { type: 'updated', team: name, config: JSON.parse(now) }
    try {
      listener(change)
    } catch (error) {
      setImmediate(() => {
        throw error
      })
    }
  }
  // the team's folder is watched anew each time its name changes in <teamsDir>: one made again is another folder
  const armInner = (): void => {
    inner?.close()
    inner = undefined
    if (disposed || !existsSync(dir)) return
    try {
      const w = watch(dir, { persistent: false }, (_event, filename) => {
        if (!filename || filename.toString() === 'config.json') check()
      })
      w.on('error', () => {
        w.close()
        if (inner === w) inner = undefined
      })
      inner = w
    } catch {
      // gone between the look and the watch: the outer watch sees it come back
    }
  }
  const outer = watch(teamsDir, { persistent: false }, (_event, filename) => {
    if (filename && filename.toString() !== name) return
    armInner()
    check()
  })
  outer.on('error', () => outer.close())
  armInner()
  // a write between the first read and the watches taking hold raised no event: looked at once
  // they hold, on a later tick (a listener is never called before this returns)
  const ready = new Promise<void>((resolve) =>
    setImmediate(() => {
      check()
      resolve()
    })
  )
  return Object.assign(
    toDisposable(() => {
      disposed = true
      outer.close()
      inner?.close()
      inner = undefined
    }),
    { ready }
  )
}
