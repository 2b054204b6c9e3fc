import { z } from 'zod'

/** Version of the transcript line format; bump when a line's shape changes. */
export const TRANSCRIPT_SCHEMA_VERSION = 1

/**
 * One transcript line (docs/storage.md#transcripts): `message` is the exact API message, so a resumed request
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

/** `subtype` of the `system` line a subagent's transcript opens with (see {@link AgentStartedRecordSchema}). */
export const AGENT_STARTED_SUBTYPE = 'agent_started'

/** `subtype` of the `system` line that ends each run of a subagent (see {@link AgentStoppedRecordSchema}). */
export const AGENT_STOPPED_SUBTYPE = 'agent_stopped'

/**
 * The `message` of a subagent transcript's first line (`type: "system"`, subtype
 * {@link AGENT_STARTED_SUBTYPE}), written before anything else when the agent starts (docs/storage.md#transcripts,
 * docs/storage.md#layout). It says who the agent is and whose child it is, so a reader that only has the file — the
 * leader following a `process` teammate, whose subagents run in another process — can tell a
 * teammate's subagents from everyone else's by `parentId` and show them as the agent's own events
 * (docs/events.md#event-stream-and-command-line `agent_started`) would. `depth` counts from the agent's root (a teammate's children are 1).
 */
export const AgentStartedRecordSchema = z.object({
  agentId: z.string().min(1),
  agentName: z.string().min(1),
  agentType: z.string().min(1),
  description: z.string(),
  parentId: z.string().min(1),
  depth: z.number().int().positive(),
  model: z.string().optional(),
  cwd: z.string().optional(),
  isAsync: z.boolean()
})
export type AgentStartedRecord = z.infer<typeof AgentStartedRecordSchema>

/**
 * The `message` of the `system` line (subtype {@link AGENT_STOPPED_SUBTYPE}) a subagent's run
 * appends as it ends, on every exit path: how it ended, as its `agent_stopped` event says (docs/events.md#event-stream-and-command-line).
 * A transcript whose last run has no such line was cut short with its process.
 */
export const AgentStoppedRecordSchema = z.object({
  status: z.enum(['completed', 'failed', 'killed', 'crashed']),
  reason: z.string().optional()
})
export type AgentStoppedRecord = z.infer<typeof AgentStoppedRecordSchema>
