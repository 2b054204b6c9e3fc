import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import type { RuntimeEventInput } from '../../../../shared/events'
import type { EventBus } from '../../events'
import {
  AGENT_STARTED_SUBTYPE,
  AGENT_STOPPED_SUBTYPE,
  AgentStartedRecordSchema,
  AgentStoppedRecordSchema,
  TranscriptEntrySchema,
  type AgentStoppedRecord,
  type TranscriptEntry
} from '../../transcripts'
import { costOf } from '../../model'
import { compactionNotice } from '../../runner'
import { DirectoryWatch } from './directoryWatch'
import { contentBlocks, resultText, usageOf, type ApiUsage, type DistributiveOmit } from './transcriptLine'

/**
 * Fallback poll period of a {@link TranscriptTail}, ms. Directory watching delivers within ~1 ms
 * (STACK.md); the poll only covers a missed event or a watch that could not be set up.
 */
export const DEFAULT_TAIL_POLL_MS = 1_000

/** Bytes read from the file per `read(2)`. */
const READ_CHUNK_BYTES = 64 * 1024

const NEWLINE = 0x0a

/** Options of {@link TranscriptTail}. */
export interface TranscriptTailOptions {
  /** The JSONL transcript to follow (docs/storage.md#layout, `agentTranscriptPath`); it need not exist yet. */
  path: string
  /** Where the events go (the leader's bus). */
  bus: EventBus
  /** The agent the events are stamped with: `name@team`. */
  agentId: string
  /** Its name (`alice`). */
  agentName: string
  /**
   * Byte offset to start at; default 0. A teammate started again in the same session appends to
   * the transcript of its previous run, so its executor passes the file's size at spawn time and
   * the earlier run's lines are never emitted again. Must be at a line boundary.
   */
  fromOffset?: number
  /** Fallback poll period, ms (default {@link DEFAULT_TAIL_POLL_MS}). */
  pollMs?: number
  /** False: poll only, no fs.watch (a file system without change notifications); default true. */
  watch?: boolean
  /** Told about lines that are skipped (corrupt, torn at the end) and files that cannot be read. */
  onWarning?: (message: string) => void
  /**
   * Called after the events of an `agent_stopped` line were emitted (a subagent's run ended, see
   * below), from inside the read: close the tail later, not from here.
   */
  onAgentStopped?: (record: AgentStoppedRecord) => void
  /**
   * Called when a `user` line carrying text is read (a message, a task or a hook's reason that
   * starts a turn: the agent's model request is on its way), after that line's events, from inside
   * the read, with the line's `timestamp` (ISO, the writer's clock). Lines that only carry tool
   * results, and the history replayed after a compaction, do not count.
   */
  onPrompt?: (timestamp: string) => void
}

/**
 * Follows one agent's JSONL transcript while its writer — another process — appends to it, and
 * turns each new line into the runtime events the leader's side shows for that agent (docs/design.md#process-model:
 * a `process` teammate's "events reach the leader by tailing its transcript"; docs/events.md#event-stream-and-command-line event types):
 *
 * - `assistant` line → `assistant_text {text}` (its text blocks joined by `\n`, only when not
 *   blank, exactly as the agent loop emits it), then `tool_call {toolUseId, name, input}` for each
 *   `tool_use` block, in order; `usage` only when the line's message carries API `usage` (the
 *   current TranscriptWriter records the exact API message param, which has none, so today no
 *   `usage` event comes from a transcript).
 * - `user` line → `tool_result {toolUseId, isError, output}` for each `tool_result` block (string
 *   content, or its text blocks joined by `\n`); text blocks (prompts, teammate messages) emit
 *   nothing, but call `onPrompt` (a turn started).
 * - `system` line with subtype `compact_boundary` → a `notice` (info) that the history was
 *   compacted; the writer then appends the whole new history again (the summary plus the kept
 *   messages, `replacedMessages` fewer plus one than before), and those replayed lines are
 *   skipped so nothing is emitted twice.
 * - `system` line with subtype `agent_started` (a subagent transcript's first line,
 *   `AgentStartedRecordSchema`) → `agent_started {agentType, parentId, depth, model?, cwd?}` then
 *   `agent_state running`, as the subagent runtime emits them in the agent's own process.
 * - `system` line with subtype `agent_stopped` (`AgentStoppedRecordSchema`) → `agent_state`
 *   (`crashed` for a crash, else `exited`) then `agent_stopped {status, reason?}`, then
 *   `onAgentStopped`. Other system lines emit nothing.
 *
 * Reading: the file may not exist yet (the nearest existing ancestor directory is watched until
 * it appears); the directory, not the file, is watched (STACK.md: a file watch misses atomic
 * renames), with a slow poll as fallback. Bytes after the last newline are held until their line
 * is complete, so a line written in pieces is parsed once, whole. A line is never emitted twice:
 * the read position only moves forward. A file that shrinks below the position was truncated or
 * replaced: that is reported as a warning and following restarts at its beginning (rotation is
 * not otherwise supported). A complete line that does not parse is skipped with a warning.
 */
export class TranscriptTail {
  private readonly pollMs: number
  /** Bytes of the file read so far (including {@link partial}). */
  private position: number
  /** Bytes after the last newline read: an incomplete line. */
  private partial: Buffer = Buffer.alloc(0)
  /** The directory watch (none when `watch` is false): the transcript's folder, or its nearest ancestor until it exists. */
  private readonly watcher: DirectoryWatch | undefined
  private readonly timer: NodeJS.Timeout
  private stopped = false
  private reading = false
  private readonly warned = new Set<string>()
  /** User/assistant lines of the agent's current history (to know how many a compaction replays). */
  private historyLength = 0
  /** Lines still to skip: the history re-appended after a compact_boundary. */
  private replaying = 0
  private readonly calledIds = new Set<string>()
  private readonly resultIds = new Set<string>()

  /** Starts following at once; call {@link close} to stop. */
  constructor(private readonly options: TranscriptTailOptions) {
    this.pollMs = options.pollMs ?? DEFAULT_TAIL_POLL_MS
    this.position = options.fromOffset ?? 0
    const name = basename(options.path)
    if (options.watch !== false) {
      // in the transcript's own directory only its file matters (other agents write beside it)
      this.watcher = new DirectoryWatch(dirname(options.path), (filename) => {
        if (filename === undefined || filename === name) this.tick()
      })
    }
    this.timer = setInterval(() => this.tick(), this.pollMs)
    this.timer.unref()
    this.tick()
  }

  /** Bytes of the transcript turned into events so far (complete lines only). */
  get offset(): number {
    return this.position - this.partial.length
  }

  /** True once {@link close} was called. */
  get closed(): boolean {
    return this.stopped
  }

  /**
   * Reads and emits, synchronously, every complete line appended since the last read. A no-op
   * after {@link close}, or when called from a listener of an event this tail is emitting.
   */
  readNow(): void {
    if (this.stopped || this.reading) return
    this.reading = true
    try {
      this.readAvailable()
    } finally {
      this.reading = false
    }
  }

  /**
   * Stops following: one last read (so every line written before the writer exited is emitted),
   * then the watch and the poll are released. An incomplete last line left then was torn (its
   * writer stopped mid-write) and is reported as a warning, never emitted. Idempotent.
   */
  close(): void {
    if (this.stopped) return
    this.readNow()
    this.stopped = true
    clearInterval(this.timer)
    this.watcher?.close()
    if (this.partial.length > 0) {
      this.warn(
        `${this.options.path}: torn last line (${this.partial.length} bytes; its writer stopped mid-write) skipped`
      )
      this.partial = Buffer.alloc(0)
    }
  }

  /** Re-arms the watch on the best directory there is now, then reads. */
  private tick(): void {
    if (this.stopped) return
    this.watcher?.arm()
    this.readNow()
  }

  private readAvailable(): void {
    const { path } = this.options
    let size: number
    try {
      const stats = statSync(path, { throwIfNoEntry: false })
      if (!stats) return
      size = stats.size
    } catch (error) {
      this.warn(`Cannot read transcript ${path}: ${(error as Error).message}`)
      return
    }
    if (size < this.position) {
      this.warn(
        `Transcript ${path} shrank from ${this.position} to ${size} bytes (truncated or replaced); following it again from its start.`
      )
      this.position = 0
      this.partial = Buffer.alloc(0)
    }
    if (size === this.position) return
    let fd: number
    try {
      fd = openSync(path, 'r')
    } catch (error) {
      this.warn(`Cannot read transcript ${path}: ${(error as Error).message}`)
      return
    }
    try {
      const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES)
      for (;;) {
        const n = readSync(fd, chunk, 0, chunk.length, this.position)
        if (n === 0) break
        this.position += n
        this.consume(chunk.subarray(0, n))
        if (this.stopped) break
      }
    } catch (error) {
      this.warn(`Cannot read transcript ${path}: ${(error as Error).message}`)
    } finally {
      closeSync(fd)
    }
  }

  /** Splits the bytes read into complete lines (bytes, so a UTF-8 character split across reads stays whole). */
  private consume(bytes: Buffer): void {
    let data = this.partial.length ? Buffer.concat([this.partial, bytes]) : Buffer.from(bytes)
    for (;;) {
      const end = data.indexOf(NEWLINE)
      if (end < 0) break
      const line = data.subarray(0, end).toString('utf8')
      data = data.subarray(end + 1)
      this.line(line)
    }
    this.partial = Buffer.from(data)
  }

  private line(text: string): void {
    if (text.trim() === '') return
    let entry: TranscriptEntry
    try {
      entry = TranscriptEntrySchema.parse(JSON.parse(text))
    } catch {
      this.warn(
        `${this.options.path}: unreadable line skipped (${JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}…` : text)})`,
        false
      )
      return
    }
    this.entry(entry)
  }

  private entry(entry: TranscriptEntry): void {
    if (entry.type === 'system') {
      if (entry.subtype === AGENT_STARTED_SUBTYPE || entry.subtype === AGENT_STOPPED_SUBTYPE) {
        this.lifecycle(entry)
        return
      }
      if (entry.subtype !== 'compact_boundary') return
      const record = entry.message as { replacedMessages?: unknown; summary?: unknown; cutTexts?: unknown } | null
      const replaced = record?.replacedMessages
      if (typeof replaced === 'number' && Number.isInteger(replaced) && replaced >= 0) {
        this.replaying = Math.max(0, this.historyLength - replaced + 1)
        this.historyLength = 0
        const cut = Array.isArray(record?.cutTexts)
          ? (record.cutTexts as unknown[]).filter(
              (c): c is { file: string } => typeof (c as { file?: unknown })?.file === 'string'
            )
          : []
        this.emit({
          type: 'notice',
          level: 'info',
          message: compactionNotice({
            replaced,
            summary: typeof record?.summary === 'string' ? record.summary : '',
            cut
          })
        })
      } else {
        this.warn(
          `${this.options.path}: a compact_boundary without replacedMessages; the history replayed after it may be shown again.`,
          false
        )
      }
      return
    }
    this.historyLength++
    if (this.replaying > 0) {
      this.replaying--
      return
    }
    const message = entry.message as { content?: unknown; usage?: ApiUsage; model?: unknown } | null
    const blocks = contentBlocks(message?.content)
    if (entry.type === 'assistant') {
      const text = blocks
        .filter((b) => b.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text as string)
        .join('\n')
      if (text.trim() !== '') this.emit({ type: 'assistant_text', text })
      for (const block of blocks) {
        if (
          block.type !== 'tool_use' ||
          typeof block.id !== 'string' ||
          typeof block.name !== 'string' ||
          this.calledIds.has(block.id)
        )
          continue
        this.calledIds.add(block.id)
        this.emit({ type: 'tool_call', toolUseId: block.id, name: block.name, input: block.input })
      }
      // the runtime records usage beside the message; a transcript in Claude Code's shape has it inside
      const usage = usageOf((entry.usage as ApiUsage | undefined) ?? message?.usage)
      const model = entry.model ?? (typeof message?.model === 'string' ? message.model : undefined)
      if (usage) this.emit({ type: 'usage', ...usage, ...(model ? { model, costUsd: costOf(model, usage) } : {}) })
      return
    }
    for (const block of blocks) {
      if (
        block.type !== 'tool_result' ||
        typeof block.tool_use_id !== 'string' ||
        this.resultIds.has(block.tool_use_id)
      )
        continue
      this.resultIds.add(block.tool_use_id)
      this.emit({
        type: 'tool_result',
        toolUseId: block.tool_use_id,
        isError: block.is_error === true,
        output: resultText(block.content)
      })
    }
    if (blocks.some((b) => b.type === 'text' && typeof b.text === 'string' && b.text.trim() !== ''))
      this.options.onPrompt?.(entry.timestamp)
  }

  /** A subagent's start or end line (see the class comment); a malformed one is skipped with a warning. */
  private lifecycle(entry: TranscriptEntry): void {
    if (entry.subtype === AGENT_STARTED_SUBTYPE) {
      const header = AgentStartedRecordSchema.safeParse(entry.message)
      if (!header.success) {
        this.warn(
          `${this.options.path}: a malformed agent_started line skipped (${header.error.issues[0]?.message ?? 'invalid'}).`,
          false
        )
        return
      }
      const { agentType, parentId, depth, model, cwd } = header.data
      this.emit({
        type: 'agent_started',
        agentType,
        parentId,
        depth,
        ...(model ? { model } : {}),
        ...(cwd ? { cwd } : {})
      })
      this.emit({ type: 'agent_state', state: 'running' })
      return
    }
    const end = AgentStoppedRecordSchema.safeParse(entry.message)
    if (!end.success) {
      this.warn(
        `${this.options.path}: a malformed agent_stopped line skipped (${end.error.issues[0]?.message ?? 'invalid'}).`,
        false
      )
      return
    }
    const { status, reason } = end.data
    this.emit({ type: 'agent_state', state: status === 'crashed' ? 'crashed' : 'exited' })
    this.emit({ type: 'agent_stopped', status, ...(reason ? { reason } : {}) })
    this.options.onAgentStopped?.(end.data)
  }

  private emit(event: DistributiveOmit<RuntimeEventInput, 'agentId' | 'agentName'>): void {
    this.options.bus.emit({
      ...event,
      agentId: this.options.agentId,
      agentName: this.options.agentName
    } as RuntimeEventInput)
  }

  /** Reports a problem; `once` reports a message only the first time (a file that stays unreadable). */
  private warn(message: string, once = true): void {
    if (once) {
      if (this.warned.has(message)) return
      this.warned.add(message)
    }
    this.options.onWarning?.(message)
  }
}

/** Starts following a transcript (see {@link TranscriptTail}). */
export function tailTranscript(options: TranscriptTailOptions): TranscriptTail {
  return new TranscriptTail(options)
}
