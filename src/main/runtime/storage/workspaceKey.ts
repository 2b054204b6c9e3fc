import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * Longest readable part of a {@link workspaceKey}, in characters: with the separator and hash the
 * key stays far below the 255-byte file name limit of ext4, APFS and NTFS, however deep the folder.
 */
export const READABLE_KEY_CHARS = 96

/** Hex digits of the path hash in a {@link workspaceKey}: 48 bits, so a person's folders never meet by chance. */
export const KEY_HASH_HEX = 12

/**
 * A workspace folder as Swarmdesk names it: its absolute path with symbolic links resolved
 * (`realpath`), so a folder reached through a link or a relative path is the same workspace. A
 * folder that no longer exists keeps its absolute path (its sessions may outlive it).
 */
export function canonicalFolder(cwd: string): string {
  const abs = resolve(cwd)
  try {
    return realpathSync(abs)
  } catch {
    return abs
  }
}

/**
 * The per-workspace folder name under `<home>/projects/` of earlier versions: the absolute path
 * with every character outside `[A-Za-z0-9]` replaced by `-` (Claude Code's convention). Not
 * injective — `/w/a.b`, `/w/a-b`, `/w/проект` and `/w/项目` all map to names that other folders
 * share — so it is only read, to adopt the sessions stored under it (storeMigration.ts).
 */
export function legacyWorkspaceKey(cwd: string): string {
  return resolve(cwd).replace(/[^A-Za-z0-9]/g, '-')
}

/**
 * A workspace's folder name under `<home>/projects/` (docs/storage.md#layout `{workspace-slug}`): a readable
 * part — the end of {@link legacyWorkspaceKey} of the canonical path, at most
 * {@link READABLE_KEY_CHARS} characters, so the folder's own name shows — then `_` and the first
 * {@link KEY_HASH_HEX} hex digits of the SHA-256 of the canonical path's UTF-8. Two folders get
 * the same key only if their paths' hashes agree. The `_` never occurs in a legacy key, so no
 * key of this form is ever an earlier version's folder.
 */
export function workspaceKey(cwd: string): string {
  const canonical = canonicalFolder(cwd)
  const readable = legacyWorkspaceKey(canonical).slice(-READABLE_KEY_CHARS)
  const hash = createHash('sha256').update(canonical, 'utf8').digest('hex').slice(0, KEY_HASH_HEX)
  return `${readable}_${hash}`
}
