import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import type { AgentState } from '../../../shared/events'

/**
 * What Claude Code writes in `<config>/sessions/<pid>.json` while an interactive session runs
 * (observed in 2.1.197, docs/claude-code.md#state-on-the-dashboard): its pid, session id and cwd,
 * and `status` — `busy` while it works, `shell` while a shell command of the person's runs,
 * `waiting` when it waits for the person (`waitingFor` says for what: "permission prompt",
 * "input needed"…), `idle` at its prompt. Other fields are kept but not read.
 */
export const ClaudeSessionRecordSchema = z
  .object({
    pid: z.number().int().positive(),
    sessionId: z.string().min(1),
    cwd: z.string(),
    status: z.string().optional(),
    waitingFor: z.string().optional()
  })
  .passthrough()
export type ClaudeSessionRecord = z.infer<typeof ClaudeSessionRecordSchema>

/** Claude Code's config folder as it finds it: `CLAUDE_CONFIG_DIR`, else `$HOME/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  if (env.CLAUDE_CONFIG_DIR) return env.CLAUDE_CONFIG_DIR
  return join(env.HOME ?? '', '.claude')
}

/** The read of one record: the record, none yet (no file), or a file that does not parse (the reason). */
export type RecordRead = { record: ClaudeSessionRecord } | { missing: true } | { invalid: string }

/** Reads `sessions/<pid>.json` of `configDir`; never throws. */
export async function readSessionRecord(configDir: string, pid: number): Promise<RecordRead> {
  const path = join(configDir, 'sessions', `${pid}.json`)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return { missing: true }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    // Claude Code rewrites the file in place: a read can meet it half written, and the next read is whole
    return { missing: true }
  }
  const parsed = ClaudeSessionRecordSchema.safeParse(json)
  if (!parsed.success)
    return { invalid: `${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` }
  return { record: parsed.data }
}

/**
 * The dashboard state of a Claude Code status word: `busy` and `shell` are working (`running`),
 * `waiting` is waiting for the person (`awaiting_permission`), `idle` is `idle`. Undefined for a
 * word this version of Swarmdesk does not know (the state then stays as it was).
 */
export function stateOfStatus(status: string | undefined): AgentState | undefined {
  if (status === 'busy' || status === 'shell') return 'running'
  if (status === 'waiting') return 'awaiting_permission'
  if (status === 'idle') return 'idle'
  return undefined
}
