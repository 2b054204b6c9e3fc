import { appendFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'

/**
 * One permission decision as recorded (docs/permissions.md#permissions: who asked, tool, input, decision, by whom, when).
 * `by`: `rule`/`mode` when the engine decided, else who answered the prompt.
 */
export const PermissionDecisionRecordSchema = z.object({
  schemaVersion: z.literal(1),
  time: z.string(),
  agentId: z.string(),
  agentName: z.string().optional(),
  tool: z.string(),
  input: z.unknown(),
  decision: z.enum(['allow', 'deny']),
  by: z.enum(['rule', 'mode', 'user', 'approve-flag', 'hook', 'cancelled']),
  reason: z.string().optional(),
  rule: z.string().optional()
})
export type PermissionDecisionRecord = z.infer<typeof PermissionDecisionRecordSchema>

/** Where records go: kept in memory (`records`) and, when a file is given, appended as JSON lines. */
export class PermissionDecisionLog {
  readonly records: PermissionDecisionRecord[] = []
  private chain: Promise<void> = Promise.resolve()

  constructor(private readonly file?: string) {}

  /** Record one decision. Appends are serialised so lines never interleave; await `flushed()` to know they are on disk. */
  append(
    record: Omit<PermissionDecisionRecord, 'schemaVersion' | 'time'> & { time?: string }
  ): PermissionDecisionRecord {
    const full = PermissionDecisionRecordSchema.parse({ schemaVersion: 1, time: new Date().toISOString(), ...record })
    this.records.push(full)
    const file = this.file
    if (file)
      this.chain = this.chain.then(async () => {
        const line = JSON.stringify(full) + '\n'
        // the folder is made when a line finds it missing, not before every line (one call less per decision)
        try {
          await appendFile(file, line)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
          await mkdir(path.dirname(file), { recursive: true })
          await appendFile(file, line)
        }
      })
    return full
  }

  /** Resolves once every appended record is written (rejects with the first write error). */
  flushed(): Promise<void> {
    return this.chain
  }
}
