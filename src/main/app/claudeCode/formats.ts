import { z } from 'zod'

// The files Claude Code writes for its agent teams under its config folder, as 2.1.197 writes them
// (docs/claude-code-teams.md#the-files-it-reads). Each schema holds only what Swarmdesk reads and lets
// other fields pass, so a newer release that adds fields still reads; one that changes a field
// Swarmdesk needs fails the schema, and the file is reported with what failed, never guessed at.

/** A member of `teams/<team>/config.json`; `joinedAt` in epoch ms. */
export const ClaudeMemberSchema = z.looseObject({
  agentId: z.string().min(1),
  name: z.string().min(1),
  color: z.string().optional(),
  joinedAt: z.number().optional(),
  cwd: z.string().optional(),
  backendType: z.string().optional(),
  model: z.string().optional(),
  planModeRequired: z.boolean().optional(),
  mode: z.string().optional()
})
export type ClaudeMemberFile = z.infer<typeof ClaudeMemberSchema>

/** `teams/<team>/config.json`: members are added on spawn and removed on shutdown; `createdAt` in epoch ms. */
export const ClaudeTeamConfigSchema = z.looseObject({
  name: z.string().min(1),
  createdAt: z.number().optional(),
  leadAgentId: z.string().optional(),
  leadSessionId: z.string().optional(),
  members: z.array(ClaudeMemberSchema)
})
export type ClaudeTeamConfig = z.infer<typeof ClaudeTeamConfigSchema>

/** One message of `teams/<team>/inboxes/<agent>.json` (an array); `timestamp` is ISO 8601. */
export const ClaudeInboxMessageSchema = z.looseObject({
  from: z.string().min(1),
  text: z.string(),
  summary: z.string().optional(),
  timestamp: z.string().min(1),
  color: z.string().optional(),
  msgV: z.number().optional(),
  msg_id: z.string().optional(),
  type: z.string().optional(),
  read: z.boolean().optional()
})
export type ClaudeInboxMessage = z.infer<typeof ClaudeInboxMessageSchema>

export const ClaudeInboxSchema = z.array(ClaudeInboxMessageSchema)

/** `tasks/<team>/<id>.json`: string ids, no timestamps; `blockedBy` is never cleared by Claude Code. */
export const ClaudeTaskFileSchema = z.looseObject({
  id: z.string().min(1),
  subject: z.string(),
  description: z.string(),
  activeForm: z.string().optional(),
  owner: z.string().optional(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  blocks: z.array(z.string()),
  blockedBy: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).optional()
})
export type ClaudeTaskFile = z.infer<typeof ClaudeTaskFileSchema>

/**
 * `projects/<slug>/<session>/subagents/agent-<id>.meta.json`: a teammate's has `name` and
 * `teamName` (`taskKind: "in_process_teammate"`); a subagent's has `toolUseId`, the id of the
 * Agent call that started it, found in its parent's transcript, and `description`.
 */
export const ClaudeAgentMetaSchema = z.looseObject({
  taskKind: z.string().optional(),
  description: z.string().optional(),
  toolUseId: z.string().optional(),
  spawnDepth: z.number().optional(),
  name: z.string().optional(),
  agentName: z.string().optional(),
  team: z.string().optional(),
  teamName: z.string().optional(),
  color: z.string().optional(),
  agentType: z.string().optional()
})

/** `sessions/<pid>.json`: a running `claude` (removed on exit). */
export const ClaudeSessionFileSchema = z.looseObject({
  pid: z.number().optional(),
  sessionId: z.string().min(1),
  status: z.string().optional()
})

/** A file that exists but is not what Claude Code 2.1.197 writes there: its path and what failed. */
export interface Unreadable {
  path: string
  reason: string
}

/** The outcome of reading one file: its value, or why it could not be read (`missing` when it does not exist). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; missing: boolean; reason: string }

/** Zod's issues in one line: `members.0.name: expected string, received undefined; …`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(top level)'}: ${i.message}`)
    .join('; ')
}

/**
 * Parses `text` (the contents of `path`) as JSON matching `schema`.
 * @returns the value, or the reason: not JSON (with its length — a file mid-write shows as that),
 *   or the first schema issues with their field paths.
 */
export function parseText<T>(schema: z.ZodType<T>, text: string): Parsed<T> {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    return { ok: false, missing: false, reason: `not JSON (${text.length} bytes): ${(error as Error).message}` }
  }
  const parsed = schema.safeParse(data)
  if (parsed.success) return { ok: true, value: parsed.data }
  return {
    ok: false,
    missing: false,
    reason: `not the format Claude Code 2.1.197 writes: ${describeIssues(parsed.error)}`
  }
}
