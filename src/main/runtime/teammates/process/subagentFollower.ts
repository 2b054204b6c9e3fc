import { closeSync, openSync, readdirSync, readSync } from 'node:fs'
import { join } from 'node:path'
import type { EventBus } from '../../events'
import { DEFAULT_MAX_CONCURRENT_AGENTS } from '../../subagents'
import {
  AGENT_STARTED_SUBTYPE,
  AgentStartedRecordSchema,
  TranscriptEntrySchema,
  type AgentStartedRecord
} from '../../transcripts'
import { DirectoryWatch } from './directoryWatch'
import { DEFAULT_TAIL_POLL_MS, TranscriptTail } from './transcriptTail'

/**
 * Subagent transcripts of one teammate followed at once, by default. A teammate's own runtime
 * refuses spawns past {@link DEFAULT_MAX_CONCURRENT_AGENTS} running agents, so it never has more
 * running; any beyond the bound wait, unread, for a slot and are then read from their first line.
 */
export const DEFAULT_MAX_FOLLOWED_SUBAGENTS = DEFAULT_MAX_CONCURRENT_AGENTS

/** Bytes read from the start of a new transcript to find its first line. A header is a few hundred. */
const HEADER_PROBE_BYTES = 16 * 1024

/** Options of {@link SubagentFollower}. */
export interface SubagentFollowerOptions {
  /**
   * The session's `agents/` folder (docs/storage.md#layout), where the teammate's subagents write their
   * transcripts beside its own; it need not exist yet.
   */
  dir: string
  /** The teammate whose subagents are followed: `name@team`. Its subagents' subagents are followed too. */
  parentId: string
  /** Where the events go (the leader's bus). */
  bus: EventBus
  /**
   * File names in `dir` to leave alone: the executor passes those present before the teammate's
   * process started (a previous run's subagents, already shown or gone).
   */
  skip?: Iterable<string>
  /** Fallback poll period of the folder and of each followed transcript, ms (default {@link DEFAULT_TAIL_POLL_MS}). */
  pollMs?: number
  /** False: poll only, no fs.watch; default true. */
  watch?: boolean
  /** Transcripts followed at once (default {@link DEFAULT_MAX_FOLLOWED_SUBAGENTS}); at least 1. */
  maxFollowed?: number
  /** Told about lines skipped and files that cannot be read. */
  onWarning?: (message: string) => void
}

/** How a teammate ended, for the subagents it left without an end of their own. */
export interface SubagentOrphaning {
  status: 'killed' | 'crashed'
  reason: string
}

/** What is known of one `.jsonl` file in the folder. */
type Known =
  /** Not a subagent transcript (a teammate's, an old one without a header), or skipped. */
  | { kind: 'ignored' }
  /** A subagent of no agent in this teammate's family (yet: its parent may be adopted later). */
  | { kind: 'foreign'; header: Header }
  /** One of the teammate's subagents waiting for a free slot. */
  | { kind: 'waiting'; header: Header }
  | Followed
  /** Followed to its `agent_stopped` line, or to the teammate's end. */
  | { kind: 'ended'; header: Header }

/** A subagent being read; `stopped` once its `agent_stopped` line was read. */
interface Followed {
  kind: 'followed'
  header: Header
  tail: TranscriptTail
  stopped: boolean
}

interface Header {
  record: AgentStartedRecord
  /** The header line's ISO timestamp: the order agents started in. */
  timestamp: string
}

/**
 * Follows the subagents of one `process` teammate (docs/design.md#process-model, docs/teams.md#spawning-a-teammate) for the leader. They run inside
 * the teammate's process, so all the leader has of them is their transcripts, written beside the
 * teammate's (docs/storage.md#layout). Each transcript opens with an `agent_started` system line naming the
 * agent, its type and its `parentId` (`AgentStartedRecordSchema`); a transcript is this
 * teammate's subagent's when that parent is the teammate or one of its subagents already found —
 * never by its file name. Each one found is followed from its first byte by a
 * {@link TranscriptTail} stamped with the subagent's id and name, so the leader's bus gets the
 * events the subagent runtime emits in a worker teammate: `agent_started {agentType, parentId,
 * depth, model, cwd}`, `agent_state`, `assistant_text`, `tool_call`, `tool_result`, `usage`, and
 * `agent_stopped` from its closing `agent_stopped` line, where following it stops.
 *
 * Bounded: one directory watch (with a slow poll) for the whole folder, whatever the number of
 * subagents; the tails do not watch on their own but are read when the watch names their file;
 * at most `maxFollowed` tails at once, the rest waiting their turn, unread. Each file's first line
 * is read once. {@link close} (the teammate ended) reads everything once more and stops every
 * subagent that never wrote its end with the teammate's fate.
 */
export class SubagentFollower {
  private readonly files = new Map<string, Known>()
  /** The teammate and every subagent of it found: a transcript whose parent is one of these is followed. */
  private readonly family: Set<string>
  private readonly watch: DirectoryWatch | undefined
  private readonly timer: NodeJS.Timeout
  private readonly pollMs: number
  private readonly maxFollowed: number
  private closed = false
  private scanning = false

  /** Starts at once: transcripts already in the folder are found by the first scan; call {@link close} to stop. */
  constructor(private readonly options: SubagentFollowerOptions) {
    this.pollMs = options.pollMs ?? DEFAULT_TAIL_POLL_MS
    const max = options.maxFollowed ?? DEFAULT_MAX_FOLLOWED_SUBAGENTS
    if (!Number.isInteger(max) || max < 1)
      throw new Error(`maxFollowed must be a whole number of transcripts, at least 1 (got ${max}).`)
    this.maxFollowed = max
    this.family = new Set([options.parentId])
    for (const name of options.skip ?? []) this.files.set(name, { kind: 'ignored' })
    if (options.watch !== false) this.watch = new DirectoryWatch(options.dir, (filename) => this.changed(filename))
    this.timer = setInterval(() => this.scan(), this.pollMs)
    this.timer.unref()
    this.scan()
  }

  /** Ids of the subagents whose transcripts are being read now, in start order. */
  get followed(): string[] {
    return this.inOrder('followed').map((k) => k.header.record.agentId)
  }

  /** Ids of every subagent of the teammate found so far (followed, waiting or ended), in start order. */
  get found(): string[] {
    return [...this.files.values()]
      .filter((k): k is Extract<Known, { header: Header }> => k.kind !== 'ignored' && k.kind !== 'foreign')
      .sort(byStart)
      .map((k) => k.header.record.agentId)
  }

  /** True while the folder is watched (leak tests). */
  get watching(): boolean {
    return this.watch?.watching === true
  }

  /**
   * Looks at the folder now: new transcripts are read up to their first line, the teammate's
   * subagents among them followed. A no-op after {@link close}, or when called from an event this
   * follower is emitting.
   */
  scan(): void {
    if (this.closed || this.scanning) return
    this.scanning = true
    try {
      this.watch?.arm()
      let names: string[]
      try {
        names = readdirSync(this.options.dir)
      } catch {
        return
      }
      for (const name of names) {
        if (!name.endsWith('.jsonl') || this.files.has(name)) continue
        const header = this.probe(join(this.options.dir, name))
        if (header === 'incomplete') continue
        this.files.set(name, header ? { kind: 'foreign', header } : { kind: 'ignored' })
      }
      this.adopt()
    } finally {
      this.scanning = false
    }
  }

  /**
   * Stops following (the teammate's process ended): a last scan and a last read of every transcript
   * found, then each subagent that wrote no end of its own gets `agent_state` and `agent_stopped`
   * with `orphaning` (newest first, so a child ends before its parent), and the watch, the poll and
   * every tail are released. Without `orphaning` such a subagent is left as it is. Idempotent.
   */
  close(orphaning?: SubagentOrphaning): void {
    if (this.closed) return
    this.scan()
    this.closed = true
    clearInterval(this.timer)
    this.watch?.close()
    for (const [name, known] of this.entries('waiting')) this.start(name, known.header)
    const unfinished: Header[] = []
    for (const known of this.inOrder('followed')) {
      known.tail.close()
      if (!known.stopped) unfinished.push(known.header)
    }
    for (const [name, known] of this.files)
      if (known.kind === 'followed') this.files.set(name, { kind: 'ended', header: known.header })
    if (!orphaning) return
    for (const { record } of unfinished.reverse()) {
      const who = { agentId: record.agentId, agentName: record.agentName }
      this.options.bus.emit({
        type: 'agent_state',
        state: orphaning.status === 'crashed' ? 'crashed' : 'exited',
        ...who
      })
      this.options.bus.emit({ type: 'agent_stopped', status: orphaning.status, reason: orphaning.reason, ...who })
    }
  }

  /** A change the watch saw: a followed file is read; an unknown one (or an unnamed change) means a scan. */
  private changed(filename: string | undefined): void {
    const known = filename === undefined ? undefined : this.files.get(filename)
    if (known?.kind === 'followed') known.tail.readNow()
    else if (!known) this.scan()
  }

  /**
   * Takes in, in start order, every transcript whose parent is in the family (a grandchild found
   * before its parent joins once the parent does), then starts tails while slots are free.
   */
  private adopt(): void {
    for (let grew = true; grew;) {
      grew = false
      for (const [name, known] of this.entries('foreign')) {
        if (!this.family.has(known.header.record.parentId)) continue
        this.family.add(known.header.record.agentId)
        this.files.set(name, { kind: 'waiting', header: known.header })
        grew = true
      }
    }
    let free = this.maxFollowed - this.inOrder('followed').length
    for (const [name, known] of this.entries('waiting')) {
      if (free-- <= 0) break
      this.start(name, known.header)
    }
  }

  /** Follows one subagent's transcript, file `name` in the folder, from its first byte. */
  private start(name: string, header: Header): void {
    const { record } = header
    const entry: Followed = { kind: 'followed', header, tail: undefined as unknown as TranscriptTail, stopped: false }
    this.files.set(name, entry)
    entry.tail = new TranscriptTail({
      path: join(this.options.dir, name),
      bus: this.options.bus,
      agentId: record.agentId,
      agentName: record.agentName,
      pollMs: this.pollMs,
      watch: false,
      ...(this.options.onWarning ? { onWarning: this.options.onWarning } : {}),
      onAgentStopped: () => {
        entry.stopped = true
        // the tail is mid-read here: let it finish before closing it
        queueMicrotask(() => this.ended(name, entry))
      }
    })
  }

  /** A followed subagent wrote its end: its tail is closed and its slot goes to the next one waiting. */
  private ended(name: string, entry: Followed): void {
    if (this.closed || this.files.get(name) !== entry) return
    entry.tail.close()
    this.files.set(name, { kind: 'ended', header: entry.header })
    this.scanning = true
    try {
      this.adopt()
    } finally {
      this.scanning = false
    }
  }

  private entries<K extends 'foreign' | 'waiting'>(kind: K): Array<[string, Extract<Known, { kind: K }>]> {
    return [...this.files]
      .filter((e): e is [string, Extract<Known, { kind: K }>] => e[1].kind === kind)
      .sort((a, b) => byStart(a[1], b[1]))
  }

  private inOrder<K extends Known['kind']>(kind: K): Array<Extract<Known, { kind: K }> & { header: Header }> {
    return [...this.files.values()]
      .filter((k): k is Extract<Known, { kind: K }> & { header: Header } => k.kind === kind)
      .sort(byStart)
  }

  /**
   * The header of a transcript from its first line: a {@link Header} when the line is a valid
   * `agent_started` system line; undefined when the file is something else (a teammate's
   * transcript, one without a header) or unreadable; `incomplete` while its first line is not
   * written in full yet (read again at the next scan).
   */
  private probe(path: string): Header | undefined | 'incomplete' {
    let fd: number
    try {
      fd = openSync(path, 'r')
    } catch {
      return 'incomplete'
    }
    let text: string
    try {
      const buffer = Buffer.allocUnsafe(HEADER_PROBE_BYTES)
      const n = readSync(fd, buffer, 0, buffer.length, 0)
      const end = buffer.subarray(0, n).indexOf(0x0a)
      if (end < 0) return n === buffer.length ? undefined : 'incomplete'
      text = buffer.subarray(0, end).toString('utf8')
    } catch (error) {
      this.options.onWarning?.(`Cannot read transcript ${path}: ${(error as Error).message}`)
      return undefined
    } finally {
      closeSync(fd)
    }
    try {
      const entry = TranscriptEntrySchema.parse(JSON.parse(text))
      if (entry.type !== 'system' || entry.subtype !== AGENT_STARTED_SUBTYPE) return undefined
      const record = AgentStartedRecordSchema.safeParse(entry.message)
      return record.success ? { record: record.data, timestamp: entry.timestamp } : undefined
    } catch {
      return undefined
    }
  }
}

/** Start order: by the header's timestamp, then by id (two agents started in the same millisecond). */
function byStart(a: { header: Header }, b: { header: Header }): number {
  if (a.header.timestamp !== b.header.timestamp) return a.header.timestamp < b.header.timestamp ? -1 : 1
  return a.header.record.agentId < b.header.record.agentId
    ? -1
    : a.header.record.agentId > b.header.record.agentId
      ? 1
      : 0
}
