import { RunUsageError } from '../base'
import { randomUUID } from 'node:crypto'
import { mkdirSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'

import { workspaceDir } from './paths'
import { writeNewFileSync } from '../locks'

/**
 * Swarmdesk's data directory (SWARMDESK_HOME, docs/storage.md#layout) cannot be written: thrown before a
 * session, workspace or teammate starts, instead of a raw EACCES from the first transcript.
 * A {@link RunUsageError}, so the command line reports it as bad input (exit code 2).
 * `path` is the folder that could not be written; `code` the system error (EACCES, EROFS, …).
 */
export class DataDirectoryError extends RunUsageError {
  override readonly name = 'DataDirectoryError'
  constructor(
    message: string,
    readonly path: string,
    readonly code: string
  ) {
    super(message)
  }
}

/** Why a code stops writes, and what to do about it; SWARMDESK_HOME is the way out in every case. */
const ADVICE: Record<string, { why: string; todo: string }> = {
  EACCES: {
    why: 'permission denied',
    todo: 'Make it writable for this user (chown or chmod), or point SWARMDESK_HOME at a folder you can write.'
  },
  EPERM: {
    why: 'operation not permitted',
    todo: 'Make it writable for this user (chown or chmod), or point SWARMDESK_HOME at a folder you can write.'
  },
  EROFS: { why: 'the file system is read-only', todo: 'Point SWARMDESK_HOME at a folder on a writable file system.' },
  ENOSPC: {
    why: 'no space left on the device',
    todo: 'Free some space there, or point SWARMDESK_HOME at a folder on another disk.'
  },
  EDQUOT: {
    why: 'the disk quota is exhausted',
    todo: 'Free some space there, or point SWARMDESK_HOME at a folder on another disk.'
  },
  ENOTDIR: {
    why: 'part of the path is a file, not a folder',
    todo: 'Point SWARMDESK_HOME at a folder (it is created when missing).'
  },
  EEXIST: {
    why: 'a file of that name is in the way',
    todo: 'Point SWARMDESK_HOME at a folder (it is created when missing).'
  }
}

/**
 * Checks that Swarmdesk can write where a run will write, before anything runs: `home`, given
 * `cwd` the workspace's folder `<home>/projects/<slug>`, and the `also` folders (a teammate's
 * team folder), each created when missing. Each
 * gets a probe file written and removed, so a read-only mount, missing permission or full disk is
 * found here rather than by the first transcript line. Run as root, permission bits do not stop
 * writes; a read-only mount or a file in the path still does.
 * @throws DataDirectoryError naming the folder, the reason (EACCES, EROFS, ENOSPC, ENOTDIR, …) and
 *   what to do.
 */
export function ensureWritableDataDirectory(home: string, cwd?: string, also: readonly string[] = []): void {
  for (const dir of [home, ...(cwd === undefined ? [] : [workspaceDir(home, cwd)]), ...also]) probe(dir)
}

function probe(dir: string): void {
  // unique per call: teammates in worker threads of one process check the same folders at once
  const file = join(dir, `.write-check-${randomUUID()}`)
  try {
    mkdirSync(dir, { recursive: true })
    writeNewFileSync(file, 'swarmdesk\n', 'w')
    unlinkSync(file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN'
    const advice = ADVICE[code] ?? {
      why: (error as Error).message,
      todo: 'Fix the folder, or point SWARMDESK_HOME at a folder you can write.'
    }
    throw new DataDirectoryError(
      `Cannot write Swarmdesk's data directory ${dir}: ${advice.why} (${code}). ${advice.todo}`,
      dir,
      code
    )
  }
}
