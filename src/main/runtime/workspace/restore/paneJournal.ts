import { createHash } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { writeFileAtomicSync } from '../../locks/atomicWrite'
import { appendRecordSync, endTornLineSync } from '../../storage/diskWrites'
import { PANE_RESTORE_MAX_CHARS } from '../panes'

/** The journal's folder, beside the session's transcript: `<session dir>/panes/`. */
export const PANE_JOURNAL_DIR = 'panes'

/**
 * A pane's journal file is cut back once it passes this many bytes: to its last
 * {@link PANE_JOURNAL_KEEP_BYTES}, from a record's start. JSON escapes make ANSI output up to ~1.5×
 * longer on disk, so what is kept still holds about the {@link PANE_RESTORE_MAX_CHARS} a restart uses.
 */
export const PANE_JOURNAL_COMPACT_BYTES = 4 * PANE_RESTORE_MAX_CHARS
/** A pane's file that cannot be compacted (its folder turned read-only) is not appended to past this size. */
export const PANE_JOURNAL_STOP_BYTES = 2 * PANE_JOURNAL_COMPACT_BYTES
/** Bytes a compaction keeps of a pane's journal file (whole records, so a little more). */
export const PANE_JOURNAL_KEEP_BYTES = 2 * PANE_RESTORE_MAX_CHARS
/**
 * Files compacted by one flush at most (~10 ms each); the others wait for a later flush. Panes that
 * grow alike would otherwise all compact in the same second (bench/panes: 16 at once took 176 ms).
 */
const COMPACTIONS_PER_FLUSH = 4

/** What is written before a tail that was cut: reset colours and attributes, so the cut line starts plain. */
const CUT_PREFIX = '\x1b[0m'

/** One line of a journal file: output of pane `a`, in arrival order. */
interface JournalRecord {
  a: string
  d: string
}

/**
 * Each pane's output since the session began, on disk, for the restart of a crashed or closed
 * workspace (issue 8 "Restore", issue 7's cost of it): one append-only file per pane,
 * `<session dir>/panes/<sha256(agentId)[0..32]>.jsonl`, one JSON line `{a: agentId, d: output}` per
 * flush. Appending costs what the output weighs — the pane's headless terminal is never
 * serialized, which for 16 full panes took 2.6 s of the main thread per save. A restart replays the
 * last {@link PANE_RESTORE_MAX_CHARS} characters of each pane (from a line start) into its pane.
 *
 * Output is gathered in memory by {@link append} and written by {@link flush} (the recorder calls it
 * at most once a second), one record per pane, whole or not at all (a full disk cuts the file back;
 * a torn last line from a `kill -9` is skipped by the reader). A file past
 * {@link PANE_JOURNAL_COMPACT_BYTES} is rewritten (temp + rename) to its last records, cut on a
 * line boundary of the file's bytes, with no parsing: a few ms however long the pane's output.
 */
export class PaneJournal {
  private readonly pending = new Map<string, string[]>()
  /** Characters queued per pane: past {@link PANE_RESTORE_MAX_CHARS} (writes failing) only the tail is kept. */
  private readonly pendingChars = new Map<string, number>()
  /** Bytes in each pane's file as this process knows them (read once, then counted). */
  private readonly sizes = new Map<string, number>()
  /** Panes whose file could not be compacted: not tried again; their file stops growing at {@link PANE_JOURNAL_STOP_BYTES}. */
  private readonly uncompactable = new Set<string>()
  /** Panes whose write failure was reported and has not cleared since: reported once, not every flush. */
  private readonly failing = new Set<string>()

  /** @param dir the journal folder (`<session dir>/panes`), created at the first flush. */
  constructor(readonly dir: string) {}

  /**
   * Queues output of `agentId`'s pane for the next {@link flush}. While writes fail, a pane's queue
   * keeps only its last {@link PANE_RESTORE_MAX_CHARS} characters (all a restart would use).
   */
  append(agentId: string, data: string): void {
    if (data === '') return
    const queue = this.pending.get(agentId)
    if (queue) queue.push(data)
    else this.pending.set(agentId, [data])
    const chars = (this.pendingChars.get(agentId) ?? 0) + data.length
    if (chars <= 2 * PANE_RESTORE_MAX_CHARS) {
      this.pendingChars.set(agentId, chars)
      return
    }
    const tail = tailFromLineStart(this.pending.get(agentId)!.join(''), PANE_RESTORE_MAX_CHARS)
    this.pending.set(agentId, [tail])
    this.pendingChars.set(agentId, tail.length)
  }

  /** True when output waits for {@link flush}. */
  get hasPending(): boolean {
    return this.pending.size > 0
  }

  /**
   * Writes every pane's queued output, one record per pane, and compacts files grown past the limit.
   * A pane whose write fails keeps its output queued for the next flush; a pane whose file cannot be
   * compacted is not compacted again, and its output stops being kept once the file reaches
   * {@link PANE_JOURNAL_STOP_BYTES}.
   * @throws Error naming the panes whose output could not be written or compacted and why (the
   *   others were): each failure once, until that pane's writes succeed again.
   */
  flush(): void {
    if (this.pending.size === 0) return
    mkdirSync(this.dir, { recursive: true })
    const failures: string[] = []
    let compactions = 0
    for (const [agentId, queue] of [...this.pending]) {
      const file = journalFile(this.dir, agentId)
      if (this.uncompactable.has(agentId) && (this.sizes.get(agentId) ?? 0) >= PANE_JOURNAL_STOP_BYTES) {
        this.drop(agentId)
        continue
      }
      const line = `${JSON.stringify({ a: agentId, d: queue.join('') } satisfies JournalRecord)}\n`
      try {
        const fd = openSync(file, 'a+')
        try {
          // the first write of this process to a file a killed one left with a torn last line ends that line first
          if (!this.sizes.has(agentId)) endTornLineSync(fd, file)
          appendRecordSync(fd, line, file)
        } finally {
          closeSync(fd)
        }
      } catch (error) {
        if (!this.failing.has(agentId)) failures.push(`${agentId}: ${(error as Error).message} (its output is kept in memory, the last ${PANE_RESTORE_MAX_CHARS >> 20} MiB of it, until a write succeeds)`)
        this.failing.add(agentId)
        continue
      }
      this.failing.delete(agentId)
      this.drop(agentId)
      const known = this.sizes.get(agentId)
      const size = known === undefined ? fileSize(file) : known + Buffer.byteLength(line)
      this.sizes.set(agentId, size)
      if (size > PANE_JOURNAL_COMPACT_BYTES && !this.uncompactable.has(agentId) && compactions++ < COMPACTIONS_PER_FLUSH) {
        try {
          this.compact(agentId, file)
        } catch (error) {
          this.uncompactable.add(agentId)
          failures.push(`${agentId} (compacting; its saved output now stops at ${PANE_JOURNAL_STOP_BYTES >> 20} MiB): ${(error as Error).message}`)
        }
      }
    }
    if (failures.length > 0) throw new Error(`Could not write the pane journal in ${this.dir}: ${failures.join('; ')}`)
  }

  private drop(agentId: string): void {
    this.pending.delete(agentId)
    this.pendingChars.delete(agentId)
  }

  /**
   * Rewrites a pane's file as its last records: from the start of the record that holds the
   * {@link PANE_JOURNAL_KEEP_BYTES}th byte from the end. When that one record is itself past the
   * compaction size (one huge flush), the file becomes one record holding the pane's tail instead.
   */
  private compact(agentId: string, file: string): void {
    const bytes = readFileSync(file)
    const from = bytes.lastIndexOf(0x0a, bytes.length - PANE_JOURNAL_KEEP_BYTES) + 1
    let kept: Buffer | string = bytes.subarray(from)
    if (kept.length > PANE_JOURNAL_COMPACT_BYTES) {
      kept = `${JSON.stringify({ a: agentId, d: readJournalFile(file).get(agentId) ?? '' } satisfies JournalRecord)}\n`
    }
    writeFileAtomicSync(file, Buffer.from(kept))
    this.sizes.set(agentId, Buffer.byteLength(kept))
  }
}

/**
 * Every pane's saved output in a journal folder: per agent id, the last
 * {@link PANE_RESTORE_MAX_CHARS} characters at most, starting at a line (with a colour reset when
 * cut). A missing folder is no panes; an unreadable file, a line that is not a record (a torn last
 * line after a crash) and a record of another agent than the file's are skipped.
 */
export function readPaneJournal(dir: string): Record<string, string> {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return {}
  }
  const panes: Record<string, string> = {}
  for (const name of names) {
    if (name.startsWith('.') || !name.endsWith('.jsonl')) continue
    for (const [agentId, text] of readJournalFile(join(dir, name))) panes[agentId] = text
  }
  return panes
}

/** The pane's file in `dir`: named by a hash of the agent id, which may hold any character. */
export function journalFile(dir: string, agentId: string): string {
  return join(dir, `${createHash('sha256').update(agentId).digest('hex').slice(0, 32)}.jsonl`)
}

/** A file's records joined into its pane's tail; empty when unreadable. Only records of the agent the file is named for count. */
function readJournalFile(file: string): Map<string, string> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return new Map()
  }
  const name = basename(file)
  const parts: string[] = []
  let owner: string | undefined
  for (const line of text.split('\n')) {
    if (line === '') continue
    let record: Partial<JournalRecord>
    try {
      record = JSON.parse(line) as Partial<JournalRecord>
    } catch {
      continue
    }
    if (typeof record.a !== 'string' || typeof record.d !== 'string') continue
    if (owner === undefined) {
      if (basename(journalFile('', record.a)) !== name) continue
      owner = record.a
    } else if (record.a !== owner) continue
    parts.push(record.d)
  }
  return owner === undefined ? new Map() : new Map([[owner, tailFromLineStart(parts.join(''), PANE_RESTORE_MAX_CHARS)]])
}

/**
 * The last `maxChars` characters of `text` at most: from the first line start after the cut when
 * one comes within the first half of them; otherwise (one very long line spans the cut, or
 * `\r`-only progress output) from the cut itself, moved past an escape sequence or surrogate pair
 * it would split. A cut tail starts with a colour reset.
 */
export function tailFromLineStart(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const budget = maxChars - CUT_PREFIX.length
  const from = text.length - budget
  const newline = text.indexOf('\n', from)
  if (newline !== -1 && newline - from < budget / 2) return CUT_PREFIX + text.slice(newline + 1)
  return CUT_PREFIX + text.slice(safeCut(text, from))
}

/** `at`, or just past the escape sequence (CSI, up to 64 characters long) or surrogate pair it falls inside. */
function safeCut(text: string, at: number): number {
  const esc = text.lastIndexOf('\x1b', at - 1)
  if (esc !== -1 && at - esc <= 64 && text[esc + 1] === '[') {
    for (let i = esc + 2; i < text.length && i - esc <= 64; i++) {
      const code = text.charCodeAt(i)
      if (code >= 0x40 && code <= 0x7e) return i + 1 > at ? i + 1 : at
    }
  }
  const code = text.charCodeAt(at)
  return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at
}

/** Size of `file` in bytes, read once per pane and process (then counted); 0 when it cannot be read. */
function fileSize(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}
