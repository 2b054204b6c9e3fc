import { z } from 'zod'

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
