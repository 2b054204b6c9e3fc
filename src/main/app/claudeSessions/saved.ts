import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomicSync } from '../../runtime/locks'
import { workspaceDir } from '../../runtime/storage'

/** One Claude Code session of a workspace as saved for the next start (docs/claude-code.md#restore). */
export const SavedClaudeSessionSchema = z.object({
  /** Its pane's agent id (`claude-1`…), kept so the pane's scrollback comes back under the same id. */
  paneId: z.string().min(1),
  /** Claude Code's session id, once its session file named it: what `claude --resume` takes. */
  sessionId: z.string().min(1).optional(),
  cwd: z.string().min(1)
})
export type SavedClaudeSession = z.infer<typeof SavedClaudeSessionSchema>

const SavedFileSchema = z.object({ schemaVersion: z.literal(1), sessions: z.array(SavedClaudeSessionSchema) })

/** `claude-sessions.json` in the workspace's data folder. */
export function savedSessionsPath(home: string, cwd: string): string {
  return join(workspaceDir(home, cwd), 'claude-sessions.json')
}

/**
 * The sessions the workspace had open when it last closed.
 * @returns `{sessions}`, or `{sessions: [], warning}` naming the file when it does not parse (it is then ignored, never guessed at).
 */
export function readSavedSessions(path: string): { sessions: SavedClaudeSession[]; warning?: string } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return { sessions: [] }
  }
  try {
    return { sessions: SavedFileSchema.parse(JSON.parse(text)).sessions }
  } catch (error) {
    return { sessions: [], warning: `Ignored ${path}: it does not parse (${(error as Error).message.slice(0, 200)}).` }
  }
}

/** Writes the list atomically (temp file + rename), so a crash leaves the old list or the new one. */
export function writeSavedSessions(path: string, sessions: SavedClaudeSession[]): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileAtomicSync(path, JSON.stringify({ schemaVersion: 1, sessions }, null, 2) + '\n')
}
