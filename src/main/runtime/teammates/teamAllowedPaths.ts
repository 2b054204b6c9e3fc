import { stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { PermissionDecision, PermissionSubject } from '../../../shared/permissions'
import { canonicalPath, PermissionEngine, type DecideContext, type LoadedSettings } from '../permissions'
import type { Disposable } from '../base'
import type { TeamStorePort } from '../teamStore'

/**
 * The allow rules that let a teammate read and edit in the team's allowed paths
 * (docs/teams.md#allowed-paths): `Read` and `Edit` of each directory and everything below it,
 * as absolute rules (`//dir`). `dirs` are absolute, canonical paths.
 */
export function allowedPathRules(dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) => {
    const base = dir.replace(/\/+$/, '') || '/'
    const below = base === '/' ? '/**' : `${base}/**`
    return ['Read', 'Edit'].flatMap((tool) => [`${tool}(/${base})`, `${tool}(/${below})`])
  })
}

/**
 * A teammate's permission engine (docs/teams.md#allowed-paths): decides as {@link PermissionEngine}
 * does, with the team config's `allowedPaths` as allow rules besides the session's "Always allow"
 * rules. Deny and ask rules, plan mode and protected files still win over them, as over any allow
 * rule. The paths are read through `allowedPaths` at each decision (cached by it).
 */
export class TeammatePermissionEngine extends PermissionEngine {
  constructor(
    settings: LoadedSettings,
    private readonly allowedPaths: () => Promise<readonly string[]>
  ) {
    super(settings)
  }

  override async decide(subject: PermissionSubject, ctx: DecideContext): Promise<PermissionDecision> {
    if (subject.kind === 'none' || subject.kind === 'tool') return super.decide(subject, ctx)
    const team = allowedPathRules(await this.allowedPaths())
    if (team.length === 0) return super.decide(subject, ctx)
    return super.decide(subject, { ...ctx, sessionAllowRules: [...(ctx.sessionAllowRules ?? []), ...team] })
  }
}

/** A team's allowed paths as a teammate follows them: the paths now, and a dispose that stops following. */
export type FollowedAllowedPaths = (() => Promise<readonly string[]>) & Disposable

/**
 * Follows `team`'s `allowedPaths` in `store` (docs/teams.md#allowed-paths): reads them once, then
 * takes every change from the config's watch (`config.watch`, a push from the team's folder or the
 * server), so a path the leader or the UI adds applies to a teammate's next decision once the push
 * arrives — no re-reading on a timer. The first call waits for the first read; a config that cannot
 * be read then has no paths (none at first), and a team deleted has none. Dispose to stop watching.
 */
export function teamAllowedPaths(store: Pick<TeamStorePort, 'config'>, team: string): FollowedAllowedPaths {
  let paths: readonly string[] = []
  /** Counts pushes: a first read that began before one does not undo it. */
  let pushes = 0
  const watch = store.config.watch(team, (change) => {
    pushes++
    paths = change.type === 'updated' ? change.config.allowedPaths : []
  })
  // read after the watch holds: a change from then on is pushed, one before it is in what is read
  const first = watch.ready
    .catch(() => undefined)
    .then(async () => {
      const seen = pushes
      const read = (await store.config.read(team)).allowedPaths
      if (seen === pushes) paths = read
    })
    .catch(() => undefined)
  return Object.assign(async () => (await first, paths), { dispose: () => watch.dispose() })
}

/** Thrown by {@link editAllowedPaths} for a path that cannot be an allowed path; the message says why. */
export class AllowedPathError extends Error {
  override name = 'AllowedPathError'
}

/**
 * Adds `dir` to `team`'s allowed paths, or removes it (docs/teams.md#allowed-paths). `dir` is
 * made absolute against `cwd` and canonical (links resolved), as permission decisions compare
 * paths; adding one already there, or removing one that is not, changes nothing. A path that does
 * not exist may be added (a folder made later, or there on another teammate's host); one that is a
 * file may not (allowed paths are directories).
 * @returns the team's allowed paths after the change.
 * @throws AllowedPathError for a relative path without `cwd`, `/` (every file on the machine), or
 *   an added path that is not a directory.
 * @throws the team store's errors (no such team, an unreadable config).
 */
export async function editAllowedPaths(
  store: Pick<TeamStorePort, 'config'>,
  team: string,
  change: { add: string } | { remove: string },
  cwd?: string
): Promise<string[]> {
  const raw = 'add' in change ? change.add : change.remove
  if (!raw.trim()) throw new AllowedPathError('the path is empty: give a directory')
  if (!raw.startsWith('/') && !cwd) throw new AllowedPathError(`'${raw}' is relative: give an absolute directory`)
  const dir = await canonicalPath(raw, cwd ?? '/')
  if (dir === '/')
    throw new AllowedPathError('/ would let every teammate edit every file on the machine: give a narrower directory')
  if ('add' in change) {
    const stats = await stat(dir).catch(() => undefined)
    if (stats && !stats.isDirectory())
      throw new AllowedPathError(
        `${dir} is a file, not a directory: allowed paths are folders; give the folder it is in (${dirname(dir)})`
      )
  }
  const updated = await store.config.update(team, (c) => {
    const has = c.allowedPaths.includes(dir)
    if ('add' in change ? has : !has) return c
    return {
      ...c,
      allowedPaths: 'add' in change ? [...c.allowedPaths, dir] : c.allowedPaths.filter((p) => p !== dir)
    }
  })
  return updated.allowedPaths
}
