import { realpathSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { RunUsageError } from '../base'

/**
 * The workspace directory, absolute and canonical.
 * @throws RunUsageError when it does not exist or is not a directory.
 */
export function canonicalWorkspace(dir: string): string {
  const abs = resolve(dir)
  let isDir: boolean
  try {
    isDir = statSync(abs).isDirectory()
  } catch {
    throw new RunUsageError(`--cwd ${abs} does not exist: create it or pass an existing directory.`)
  }
  if (!isDir) throw new RunUsageError(`--cwd ${abs} is not a directory.`)
  return realpathSync(abs)
}
