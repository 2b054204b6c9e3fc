import { randomUUID } from 'node:crypto'
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { TRANSCRIPT_SCHEMA_VERSION, type TranscriptEntry } from './schema'

/**
 * Appends one agent's transcript as JSONL (SPEC §6.10): append-only, never rewritten. Each line
 * goes to the kernel in a single `write(2)` on an `O_APPEND` descriptor as soon as it is
 * recorded, so a process killed at any instant leaves every earlier line intact and at most the
 * line being written torn (the reader skips a torn last line).
 */
export class TranscriptWriter {
  private fd: number | undefined
  private lastUuid: string | null

  /**
   * @param path the .jsonl file; parent directories are created.
   * @param agentId stamped on every line.
   * @param parentUuid the uuid of the last line already in the file (when resuming).
   */
  constructor(
    readonly path: string,
    private readonly agentId: string,
    parentUuid: string | null = null
  ) {
    mkdirSync(dirname(path), { recursive: true })
    this.fd = openSync(path, 'a')
    this.lastUuid = parentUuid
  }

  /** Appends an API message (`user`/`assistant`) or a `system` entry; returns the line written. */
  append(type: TranscriptEntry['type'], message: unknown, subtype?: string, response?: Pick<TranscriptEntry, 'usage' | 'model'>): TranscriptEntry {
    if (this.fd === undefined) throw new Error(`Transcript ${this.path} is closed; nothing more can be appended.`)
    const entry: TranscriptEntry = {
      schemaVersion: TRANSCRIPT_SCHEMA_VERSION,
      uuid: randomUUID(),
      parentUuid: this.lastUuid,
      type,
      ...(subtype ? { subtype } : {}),
      timestamp: new Date().toISOString(),
      agentId: this.agentId,
      message,
      ...(response?.usage ? { usage: response.usage } : {}),
      ...(response?.model ? { model: response.model } : {})
    }
    writeSync(this.fd, JSON.stringify(entry) + '\n')
    this.lastUuid = entry.uuid
    return entry
  }

  /** Closes the file; later appends throw. Idempotent. */
  close(): void {
    if (this.fd === undefined) return
    closeSync(this.fd)
    this.fd = undefined
  }
}
