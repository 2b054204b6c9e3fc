import { realpath } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'

/**
 * Resolves a tool's path argument: absolute paths stay as they are (normalised), relative ones
 * resolve against the agent's root `cwd` (docs/tools.md#tools: the agent's cwd is pinned; no `~` expansion,
 * because Bash is the only place a shell would expand it).
 * @returns an absolute, normalised path (not yet canonical: symlinks untouched).
 */
export function resolveToolPath(cwd: string, path: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path)
}

/**
 * The key a file is known by in the file-state cache: its realpath when it exists (so `a/../b`
 * and a symlink to `b` are one file to the read-before-write rule), else the resolved path.
 */
export async function canonicalPath(absolutePath: string): Promise<string> {
  try {
    return await realpath(absolutePath)
  } catch {
    return absolutePath
  }
}

/** Node's error code of a failed fs call (`ENOENT`, `EACCES`…), or undefined for other throws. */
export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined
}
