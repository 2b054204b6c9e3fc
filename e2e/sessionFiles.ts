import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Where a `serve` started with `--home <home>` keeps its sessions, for e2e tests that read them:
 * `<home>/projects/<workspace slug>/` (one workspace per test home) and the session the workspace
 * reopens (`last-session.json`).
 */

/** The test's one workspace folder under `<home>/projects`. @throws Error when serve has made none yet. */
export function projectDir(home: string): string {
  const projects = join(home, 'projects')
  const [slug] = readdirSync(projects)
  if (slug === undefined) throw new Error(`no workspace under ${projects} yet`)
  return join(projects, slug)
}

/** The id of the session the workspace reopens; undefined before serve recorded one. */
export function lastSessionId(home: string): string | undefined {
  try {
    return JSON.parse(readFileSync(join(projectDir(home), 'last-session.json'), 'utf8')).sessionId
  } catch {
    return undefined
  }
}

/** The folder of the session the workspace reopens. @throws Error before serve recorded one. */
export function sessionDir(home: string): string {
  const id = lastSessionId(home)
  if (id === undefined) throw new Error(`no session recorded under ${home} yet`)
  return join(projectDir(home), id)
}
