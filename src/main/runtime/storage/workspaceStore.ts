import { SessionMetaSchema } from './sessionMeta'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomicSync } from '../locks'

import { canonicalFolder, legacyWorkspaceKey, workspaceKey } from './workspaceKey'

/** `<home>/projects/{key}/last-session.json`: which session the workspace reopens (restore/stateFile.ts). */
export const LAST_SESSION_FILE = 'last-session.json'

/** `last-session.json`: the session a workspace reopens at its next start. */
export const LastSessionSchema = z.object({
  schemaVersion: z.literal(1),
  sessionId: z.string().min(1),
  updatedAt: z.string()
})
export type LastSession = z.infer<typeof LastSessionSchema>

/** The file in each session folder that names its workspace (session/session.ts writes it first). */
const SESSION_META_FILE = 'session.json'

/** `(home, canonical folder)` pairs whose earlier store this process has adopted already. */
const adopted = new Set<string>()

/**
 * A workspace's own folder, `<home>/projects/{key}` ({@link workspaceKey}), after adopting what an
 * earlier version stored for it under its {@link legacyWorkspaceKey} (once per process; see
 * {@link adoptLegacyStore}). Never throws: a session that cannot be moved stays where it was,
 * with a process warning naming it, and the move is tried again at the next start.
 */
export function workspaceStoreDir(home: string, cwd: string): string {
  const canonical = canonicalFolder(cwd)
  const dir = join(home, 'projects', workspaceKey(canonical))
  const memo = `${home}\0${canonical}`
  if (!adopted.has(memo)) {
    adopted.add(memo)
    for (const problem of adoptLegacyStore(home, canonical)) process.emitWarning(problem, 'SwarmdeskStoreMigration')
  }
  return dir
}

/**
 * Moves the sessions of folder `canonical` out of the store an earlier version kept under its
 * {@link legacyWorkspaceKey} into its own {@link workspaceKey} folder. That old folder may hold
 * other folders' sessions too (the old key let them collide), so a session moves only when its
 * `session.json` names exactly this folder; the others stay for their own folder to adopt, and a
 * folder without a readable `session.json` (whose owner cannot be told) stays where it is.
 *
 * Crash-safe and safe to run in several processes at once: each session folder moves by one
 * `rename(2)` within `<home>/projects` (atomic; it never replaces an existing folder, and a
 * folder another process moved first is skipped). `last-session.json` is written in its new place
 * (temp + rename) before the old one is removed, and is carried over only when the session it
 * names has moved and is newer than the new folder's own. The old folder is removed once empty.
 * @returns what could not be moved, one sentence each (nothing is deleted in that case).
 */
export function adoptLegacyStore(home: string, canonical: string): string[] {
  const projects = join(home, 'projects')
  const oldDir = join(projects, legacyWorkspaceKey(canonical))
  const newDir = join(projects, workspaceKey(canonical))
  const problems: string[] = []
  let names: string[]
  try {
    names = readdirSync(oldDir)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      problems.push(
        `Cannot read the earlier session folder ${oldDir} (${code}); its sessions of ${canonical} stay there until it can be read.`
      )
    return problems
  }
  for (const name of names) {
    const from = join(oldDir, name)
    if (name === LAST_SESSION_FILE || !isDirectory(from) || sessionFolder(from) !== canonical) continue
    const to = join(newDir, name)
    try {
      mkdirSync(newDir, { recursive: true })
      renameSync(from, to)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' && existsSync(to)) continue // another process moved it first
      problems.push(
        `Session ${name} of ${canonical} could not move from ${from} to ${to} (${code ?? (error as Error).message}); it stays where it is and is tried again at the next start.`
      )
    }
  }
  try {
    carryLastSession(oldDir, newDir)
  } catch (error) {
    problems.push(
      `${join(oldDir, LAST_SESSION_FILE)} could not be carried to ${newDir} (${(error as Error).message}); the workspace may open a new session instead of its last one.`
    )
  }
  try {
    rmdirSync(oldDir)
  } catch {
    // not empty: other folders' sessions, or ones that could not move
  }
  return problems
}

/** The folder `session.json` names, or undefined when a session folder has none that parses. */
function sessionFolder(dir: string): string | undefined {
  try {
    return SessionMetaSchema.parse(JSON.parse(readFileSync(join(dir, SESSION_META_FILE), 'utf8'))).cwd
  } catch {
    return undefined
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function readLastSession(path: string): LastSession | undefined {
  try {
    return LastSessionSchema.parse(JSON.parse(readFileSync(path, 'utf8')))
  } catch {
    return undefined
  }
}

/**
 * Carries the old folder's `last-session.json` when the session it names now lives in `newDir`
 * (it was this workspace's), keeping whichever of the two was written last; then removes the old
 * one. One naming another folder's session, or one that does not parse, is left alone.
 */
function carryLastSession(oldDir: string, newDir: string): void {
  const oldPath = join(oldDir, LAST_SESSION_FILE)
  const old = readLastSession(oldPath)
  if (!old || !existsSync(join(newDir, old.sessionId))) return
  const newPath = join(newDir, LAST_SESSION_FILE)
  const current = readLastSession(newPath)
  if (!current || Date.parse(old.updatedAt) > Date.parse(current.updatedAt))
    writeFileAtomicSync(newPath, JSON.stringify(old) + '\n')
  unlinkSync(oldPath)
}
