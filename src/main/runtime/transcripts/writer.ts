import { randomUUID } from 'node:crypto'
import { closeSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import { appendRecordSync, endTornLineSync } from '../locks'
import { TRANSCRIPT_SCHEMA_VERSION, type TranscriptEntry } from './schema'

/** A transcript line could not be written (disk full, device error); the file is as it was before the call. */
export class TranscriptWriteError extends Error {
  override readonly name = 'TranscriptWriteError'
}

/**
 * Appends one agent's transcript as JSONL (docs/storage.md#transcripts): append-only, never rewritten. Each line
 * goes to the kernel in a single `write(2)` on an `O_APPEND` descriptor as soon as it is
 * recorded, so a process killed at any instant leaves every earlier line intact and at most the
 * line being written torn (the reader skips a torn last line; opening the file again ends that line
 * first, so it never swallows the next one). A write the device refuses (a full
 * disk) is undone — the file cut back to its last whole line — and throws {@link TranscriptWriteError}.
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
    this.fd = openSync(path, 'a+')
    try {
      // a line a killed process left torn must not swallow the first line written now
      endTornLineSync(this.fd, path)
    } catch (error) {
      closeSync(this.fd)
      this.fd = undefined
      throw new TranscriptWriteError(`Cannot record to the transcript ${path}: ${(error as Error).message}.`, {
        cause: error
      })
    }
    this.lastUuid = parentUuid
  }

  /**
   * Appends an API message (`user`/`assistant`) or a `system` entry; returns the line written.
   * @throws TranscriptWriteError when the device refuses the write; nothing of the line remains.
   */
  append(
    type: TranscriptEntry['type'],
    message: unknown,
    subtype?: string,
    response?: Pick<TranscriptEntry, 'usage' | 'model'>
  ): TranscriptEntry {
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
    try {
      appendRecordSync(this.fd, JSON.stringify(entry) + '\n', this.path)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      const why = code === 'ENOSPC' ? 'the disk is full' : (error as Error).message
      throw new TranscriptWriteError(
        `Cannot record to the transcript ${this.path}: ${why}. The transcript is unchanged (up to its last whole line); free some space, then resume the session.`,
        { cause: error }
      )
    }
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
