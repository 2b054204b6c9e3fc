import { createHash } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { appendRecordSync, writeNewFileSync } from '../../runtime/locks'
import { PANE_RESTORE_MAX_CHARS } from '../panes'

/** The journal's folder, beside the session's transcript: `<session dir>/panes/`. */
export const PANE_JOURNAL_DIR = 'panes'

/**
 * A pane's output goes to one segment file until that holds this many characters (UTF-16 units),
 * then to the other one, emptied first: the older segment holds at least the
 * {@link PANE_RESTORE_MAX_CHARS} before the newer one, so the two cover what a restart uses (a
 * segment a previous process began is read once to count its characters: counted by its bytes, a
 * segment of CJK output switched at a third of its characters and a restart restored two thirds of
 * a MiB). On disk a pane takes two segments of about this many characters (ANSI output is ASCII:
 * 1 MiB each, plus one flush; up to 4 bytes a character otherwise).
 */
export const PANE_SEGMENT_CHARS = PANE_RESTORE_MAX_CHARS

/**
 * Written first by each process to each pane's journal (CAN, C0 0x18): a process killed in the middle
 * of a write leaves a torn escape sequence at the end, and CAN ends any sequence a terminal is reading
 * (VT500 parsers, xterm.js among them, return to ground and show nothing for it), so what the next
 * process writes is read as written.
 */
export const SEGMENT_RESUME = '\x18'

/** What is written before a tail that was cut: reset colours and attributes, so the cut line starts plain. */
const CUT_PREFIX = '\x1b[0m'

/** A segment file's first line: whose output it holds, and its place among the pane's segments (the higher is newer). */
interface SegmentHeader {
  a: string
  seq: number
}

/** An earlier version's journal line (`<hash>.jsonl` files, one `{a, d}` per flush): still read, never written. */
interface LegacyRecord {
  a: string
  d: string
}

/** Where this process writes a pane's output: its current segment (0 or 1), that segment's number and characters. */
interface PaneSegments {
  current: 0 | 1
  seq: number
  /** Characters (UTF-16 units) in the current segment's body. */
  chars: number
  /** This process wrote to the pane already (so it needs no {@link SEGMENT_RESUME}). */
  resumed: boolean
}

/**
 * Each pane's recent output, on disk, for the restart of a crashed or closed workspace (issue 8
 * "Restore", issue 7's cost of it): the pane's output as its terminal received it, raw, in two
 * segment files per pane, `<session dir>/panes/<sha256(agentId)[0..32]>.<0|1>.out`, each a JSON
 * header line `{a: agentId, seq}` and then the output. Writing costs what the output weighs — no
 * escaping, no rewriting: a segment is appended to until it holds {@link PANE_SEGMENT_CHARS}
 * characters, then the other one is emptied and takes over (a higher `seq`). A restart replays the
 * last {@link PANE_RESTORE_MAX_CHARS} characters of the two (from a line start) into the pane.
 *
 * Output is gathered in memory by {@link append} and written by {@link flush} (the recorder calls it
 * at most once a second), whole or not at all: a write the disk refuses is cut back and stays
 * queued. A process killed mid-write leaves a torn end, which the next process's
 * {@link SEGMENT_RESUME} closes. A lone high surrogate at the end of the queued output waits for
 * its pair. An earlier version's `<hash>.jsonl` journal is read before the segments, and not written.
 */
export class PaneJournal {
  private readonly pending = new Map<string, string[]>()
  /** Characters queued per pane: past {@link PANE_RESTORE_MAX_CHARS} (writes failing) only the tail is kept. */
  private readonly pendingChars = new Map<string, number>()
  /** Each pane's segments as this process knows them (read from their headers at the first flush, then kept). */
  private readonly segments = new Map<string, PaneSegments>()
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
   * Writes every pane's queued output to its current segment (or the other one, emptied, when the
   * current one is full). A pane whose write fails keeps its output queued for the next flush.
   * @throws Error naming the panes whose output could not be written and why (the others were):
   *   each failure once, until that pane's writes succeed again.
   */
  flush(): void {
    if (this.pending.size === 0) return
    // a folder that cannot be made fails each pane's write, and is reported once like any other failure
    let folderError: unknown
    try {
      mkdirSync(this.dir, { recursive: true })
    } catch (error) {
      folderError = error
    }
    const failures: string[] = []
    for (const [agentId, queue] of [...this.pending]) {
      let text = queue.join('')
      // a pair cut between two flushes would be written as two U+FFFD: its first half waits
      const last = text.charCodeAt(text.length - 1)
      const held = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : ''
      if (held) text = text.slice(0, -1)
      if (text !== '') {
        try {
          if (folderError) throw folderError
          this.write(agentId, text)
        } catch (error) {
          if (!this.failing.has(agentId))
            failures.push(
              `${agentId}: ${(error as Error).message} (its output is kept in memory, the last ${PANE_RESTORE_MAX_CHARS >> 20} MiB of it, until a write succeeds)`
            )
          this.failing.add(agentId)
          continue
        }
        this.failing.delete(agentId)
      }
      if (held) {
        this.pending.set(agentId, [held])
        this.pendingChars.set(agentId, 1)
      } else {
        this.pending.delete(agentId)
        this.pendingChars.delete(agentId)
      }
    }
    if (failures.length > 0) throw new Error(`Could not write the pane journal in ${this.dir}: ${failures.join('; ')}`)
  }

  /** Writes `text` to the pane's current segment, or starts the other one when the current one is full. @throws the write's error (the files then as they were, but for an emptied older segment). */
  private write(agentId: string, text: string): void {
    let known = this.segments.get(agentId)
    if (!known) {
      // read once (a failed write leaves the files as they were): not again at each retry of a full disk
      known = openSegments(this.dir, agentId)
      this.segments.set(agentId, known)
    }
    const data = known.resumed ? text : SEGMENT_RESUME + text
    if (known.seq === 0 || known.chars >= PANE_SEGMENT_CHARS) {
      // the first segment, or the other one, emptied: the current one holds all a restart needs
      const next: 0 | 1 = known.seq === 0 ? 0 : known.current === 0 ? 1 : 0
      const seq = known.seq + 1
      writeNewFileSync(
        segmentFile(this.dir, agentId, next),
        `${JSON.stringify({ a: agentId, seq } satisfies SegmentHeader)}\n${data}`,
        'w'
      )
      this.segments.set(agentId, { current: next, seq, chars: data.length, resumed: true })
      return
    }
    const file = segmentFile(this.dir, agentId, known.current)
    const fd = openSync(file, 'a')
    try {
      appendRecordSync(fd, data, file)
    } finally {
      closeSync(fd)
    }
    this.segments.set(agentId, { ...known, chars: known.chars + data.length, resumed: true })
  }
}

/**
 * Every pane's saved output in a journal folder: per agent id, the last
 * {@link PANE_RESTORE_MAX_CHARS} characters at most, starting at a line (with a colour reset when
 * cut): an earlier version's `.jsonl` records, then the pane's segments, older first. A missing
 * folder is no panes; an unreadable file, a segment without a valid header, a record that is not
 * one (a torn last line after a crash) and a file holding another agent than its name says are skipped.
 */
export function readPaneJournal(dir: string): Record<string, string> {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return {}
  }
  const legacy = new Map<string, string>()
  const segments = new Map<string, { seq: number; body: string }[]>()
  for (const name of names) {
    if (name.startsWith('.')) continue
    const file = join(dir, name)
    if (name.endsWith('.jsonl')) {
      for (const [agentId, text] of readLegacyFile(file)) legacy.set(agentId, text)
      continue
    }
    const segment = readSegment(file)
    if (!segment) continue
    const list = segments.get(segment.agentId) ?? []
    list.push(segment)
    segments.set(segment.agentId, list)
  }
  const panes: Record<string, string> = {}
  for (const agentId of new Set([...legacy.keys(), ...segments.keys()])) {
    const parts = (segments.get(agentId) ?? []).sort((x, y) => x.seq - y.seq).map((s) => s.body)
    panes[agentId] = tailFromLineStart((legacy.get(agentId) ?? '') + parts.join(''), PANE_RESTORE_MAX_CHARS)
  }
  return panes
}

/** The pane's name stem in the journal folder: a hash of the agent id, which may hold any character. */
function paneStem(agentId: string): string {
  return createHash('sha256').update(agentId).digest('hex').slice(0, 32)
}

/** The pane's segment file `n` (0 or 1) in `dir`: `<sha256(agentId)[0..32]>.<n>.out`. */
export function segmentFile(dir: string, agentId: string, n: 0 | 1): string {
  return join(dir, `${paneStem(agentId)}.${n}.out`)
}

/** An earlier version's journal file of the pane in `dir` (`<hash>.jsonl`): read, never written. */
export function legacyJournalFile(dir: string, agentId: string): string {
  return join(dir, `${paneStem(agentId)}.jsonl`)
}

/** Most bytes of a segment's header line read to find it (an agent id is far shorter). */
const MAX_HEADER_BYTES = 4096

/** A segment file's header, and its length in bytes with its newline; undefined when it has none (missing, empty, torn) or is of another agent than its name says. */
function readHeader(file: string, bytes: Buffer): { header: SegmentHeader; length: number } | undefined {
  const newline = bytes.indexOf(0x0a)
  if (newline === -1) return undefined
  let header: Partial<SegmentHeader>
  try {
    header = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as Partial<SegmentHeader>
  } catch {
    return undefined
  }
  if (
    typeof header.a !== 'string' ||
    typeof header.seq !== 'number' ||
    !Number.isSafeInteger(header.seq) ||
    header.seq < 1
  )
    return undefined
  if (!basename(file).startsWith(`${paneStem(header.a)}.`)) return undefined
  return { header: { a: header.a, seq: header.seq }, length: newline + 1 }
}

/**
 * Where the pane's output goes next, from its segments' headers: the one with the higher `seq`; a
 * pane with none starts at `seq` 0.
 * @throws Error when a segment exists but cannot be read (EIO, EISDIR, too many open files…).
 */
function openSegments(dir: string, agentId: string): PaneSegments {
  let found: PaneSegments = { current: 0, seq: 0, chars: 0, resumed: false }
  for (const n of [0, 1] as const) {
    const file = segmentFile(dir, agentId, n)
    let head: Buffer
    try {
      const fd = openSync(file, 'r')
      try {
        head = Buffer.alloc(Math.min(statSync(file).size, MAX_HEADER_BYTES))
        readSync(fd, head, 0, head.length, 0)
      } finally {
        closeSync(fd)
      }
    } catch (error) {
      // a missing segment is one not begun yet; one that cannot be read may be the newer one, and
      // writing on as if it were not there would put new output before it: the write fails instead
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw new Error(`cannot read the pane's journal segment ${file} (${(error as Error).message})`, { cause: error })
    }
    const read = readHeader(file, head)
    if (!read || read.header.a !== agentId || read.header.seq <= found.seq) continue
    found = { current: n, seq: read.header.seq, chars: 0, resumed: false }
  }
  // its characters, read whole once per pane and process: counted by bytes, a segment of CJK
  // output would switch at a third of its characters (0 when unreadable: the write then fails, or goes on)
  if (found.seq > 0) found.chars = readSegment(segmentFile(dir, agentId, found.current))?.body.length ?? 0
  return found
}

/** A segment file's agent, `seq` and output; undefined when it is not one. */
function readSegment(file: string): { agentId: string; seq: number; body: string } | undefined {
  if (!/\.[01]\.out$/.test(file)) return undefined
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch {
    return undefined
  }
  const read = readHeader(file, bytes)
  if (!read) return undefined
  return { agentId: read.header.a, seq: read.header.seq, body: bytes.subarray(read.length).toString('utf8') }
}

/** An earlier version's journal file's records joined into its pane's tail; empty when unreadable. Only records of the agent the file is named for count. */
function readLegacyFile(file: string): Map<string, string> {
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
    let record: Partial<LegacyRecord>
    try {
      record = JSON.parse(line) as Partial<LegacyRecord>
    } catch {
      continue
    }
    if (typeof record.a !== 'string' || typeof record.d !== 'string') continue
    if (owner === undefined) {
      if (`${paneStem(record.a)}.jsonl` !== name) continue
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
 * it would split. A cut tail starts with a colour reset. A cut that falls while a full-screen
 * program has the alternate screen moves to where the program left it (its screens never reached
 * the scrollback, and drawn there they were garbage, with the cursor jumping to the top at its
 * exit), or, when it never left, starts by entering it again.
 */
export function tailFromLineStart(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const budget = maxChars - CUT_PREFIX.length
  const from = text.length - budget
  const newline = text.indexOf('\n', from)
  const start = newline !== -1 && newline - from < budget / 2 ? newline + 1 : safeCut(text, from)
  // a cut inside a full-screen program's output: its screen was never part of the scrollback
  const entered = alternateScreenAt(text, start)
  if (entered === undefined) return CUT_PREFIX + text.slice(start)
  const exit = alternateScreenExit(text, start)
  if (exit !== undefined) return CUT_PREFIX + text.slice(exit)
  // the program still had the pane at the end: what follows goes to its screen again
  return CUT_PREFIX + entered + text.slice(safeCut(text, start + entered.length))
}

/** Sequences that switch to the alternate screen (modes 1049, 1047, 47), and those that leave it (RIS too). */
const ALTERNATE_ENTRIES = ['\x1b[?1049h', '\x1b[?1047h', '\x1b[?47h']
const ALTERNATE_EXITS = ['\x1b[?1049l', '\x1b[?1047l', '\x1b[?47l', '\x1bc']

/** The sequence that switched `text` to the alternate screen when it is on it at `at`; undefined on the normal screen. */
function alternateScreenAt(text: string, at: number): string | undefined {
  let entry: string | undefined
  let entryAt = -1
  for (const e of ALTERNATE_ENTRIES) {
    const i = text.lastIndexOf(e, at - e.length)
    if (i > entryAt) [entry, entryAt] = [e, i]
  }
  if (entry === undefined) return undefined
  for (const e of ALTERNATE_EXITS) if (text.lastIndexOf(e, at - e.length) > entryAt) return undefined
  return entry
}

/** Where `text` is back on the normal screen after `from` (just past the first sequence leaving the alternate one); undefined when it is not. */
function alternateScreenExit(text: string, from: number): number | undefined {
  let end: number | undefined
  for (const e of ALTERNATE_EXITS) {
    const i = text.indexOf(e, from)
    if (i !== -1 && (end === undefined || i + e.length < end)) end = i + e.length
  }
  return end
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
