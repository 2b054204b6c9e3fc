import { z } from 'zod'

/** Version of the transcript line format; bump when a line's shape changes. */
export const TRANSCRIPT_SCHEMA_VERSION = 1

/**
 * One transcript line (SPEC §6.10): `message` is the exact API message, so a resumed request
 * re-serialises byte-identically. `system` lines carry a `subtype` (e.g. `compact_boundary`).
 * An assistant line may carry the response's API `usage` (snake_case token counts) and `model`
 * beside the message, never inside it: whoever follows the transcript (a process teammate's
 * leader) counts tokens and cost from them.
 */
export const TranscriptEntrySchema = z.object({
  schemaVersion: z.number().int(),
  uuid: z.string(),
  parentUuid: z.string().nullable(),
  type: z.enum(['user', 'assistant', 'system']),
  subtype: z.string().optional(),
  timestamp: z.string(),
  agentId: z.string(),
  message: z.unknown(),
  usage: z.record(z.string(), z.unknown()).optional(),
  model: z.string().optional()
})
export type TranscriptEntry = z.infer<typeof TranscriptEntrySchema>

/** A session's metadata file beside its transcript, for `sessions list` and resume. */
export const SessionMetaSchema = z.object({
  schemaVersion: z.literal(1),
  sessionId: z.string(),
  cwd: z.string(),
  model: z.string(),
  createdAt: z.string(),
  firstPrompt: z.string().optional()
})
export type SessionMeta = z.infer<typeof SessionMetaSchema>
