import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { simulateWriteFaults } from '../../runtime/locks/diskWrites'
import { PANE_RESTORE_MAX_CHARS } from '../panes'
import { Terminal } from '@xterm/headless'
import {
  legacyJournalFile,
  PANE_SEGMENT_CHARS,
  PaneJournal,
  readPaneJournal,
  SEGMENT_RESUME,
  segmentFile,
  tailFromLineStart
} from './paneJournal'

describe('PaneJournal', () => {
  let dir: string
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'swarmdesk-pane-journal-')), 'panes')
  })
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }))

  /** `count` coloured lines from number `from`, ~120 chars each. */
  const lines = (from: number, count: number): string => {
    let text = ''
    for (let n = from; n < from + count; n++) text += `\x1b[3${n % 7}mline ${n}\x1b[0m ${'x'.repeat(100)}\r\n`
    return text
  }

  it('keeps panes apart whatever their ids hold, writes nothing until flushed, and writes the output raw after a header', () => {
    const journal = new PaneJournal(dir)
    journal.append('alice@team one', 'a\r\n')
    journal.append('../../etc/passwd', '\x1b[31mb\x1b[0m\r\n')
    journal.append('alice@team one', '')
    expect(journal.hasPending).toBe(true)
    expect(readPaneJournal(dir)).toEqual({})
    journal.flush()
    expect(journal.hasPending).toBe(false)
    expect(readPaneJournal(dir)).toEqual({
      'alice@team one': `${SEGMENT_RESUME}a\r\n`,
      '../../etc/passwd': `${SEGMENT_RESUME}\x1b[31mb\x1b[0m\r\n`
    })
    expect(readdirSync(dir).every((f) => /^[0-9a-f]{32}\.0\.out$/.test(f))).toBe(true)
    expect(readFileSync(segmentFile(dir, '../../etc/passwd', 0), 'utf8')).toBe(
      `{"a":"../../etc/passwd","seq":1}\n\x18\x1b[31mb\x1b[0m\r\n`
    )
  })

  it('goes on from a torn end (a kill mid-write): CAN ends the torn escape sequence, and a file of another agent or without a header is skipped', async () => {
    const first = new PaneJournal(dir)
    first.append('lead', 'first\r\n')
    first.flush()
    // a cut 3-byte character, then killed in the middle of a colour sequence
    appendFileSync(
      segmentFile(dir, 'lead', 0),
      Buffer.concat([Buffer.from('cut '), Buffer.from('€').subarray(0, 2), Buffer.from('\x1b[38;5')])
    )
    const next = new PaneJournal(dir)
    next.append('lead', 'after the restart\r\n')
    next.flush()
    const saved = readPaneJournal(dir).lead!
    expect(saved).toBe(`${SEGMENT_RESUME}first\r\ncut \ufffd\x1b[38;5${SEGMENT_RESUME}after the restart\r\n`)
    // what a terminal shows of it: the torn sequence ends at the CAN, the next output is whole
    const term = new Terminal({ cols: 40, rows: 4, allowProposedApi: true })
    await new Promise<void>((resolve) => term.write(saved, resolve))
    expect([0, 1, 2].map((y) => term.buffer.active.getLine(y)!.translateToString(true))).toEqual([
      'first',
      'cut \ufffdafter the restart',
      ''
    ])
    term.dispose()
    // another agent's header in this pane's file, and a file with no header line: neither counts
    writeFileSync(segmentFile(dir, 'lead', 1), `${JSON.stringify({ a: 'mallory', seq: 9 })}\nnot hers\r\n`)
    writeFileSync(segmentFile(dir, 'other', 0), 'no header')
    expect(readPaneJournal(dir)).toEqual({ lead: saved })
    const again = new PaneJournal(dir)
    again.append('lead', 'third\r\n')
    again.flush()
    expect(readPaneJournal(dir).lead).toBe(`${saved}${SEGMENT_RESUME}third\r\n`)
  })

  it('on a full disk keeps the output queued and the file as it was; the next flush writes it', () => {
    const journal = new PaneJournal(dir)
    journal.append('lead', 'kept\r\n')
    journal.flush()
    journal.append('lead', 'during the fault\r\n')
    const end = simulateWriteFaults({ matches: (path) => path.endsWith('.out'), bytesLeft: 5 })
    try {
      expect(() => journal.flush()).toThrow(/Could not write the pane journal .*lead: ENOSPC/)
    } finally {
      end()
    }
    expect(readFileSync(segmentFile(dir, 'lead', 0), 'utf8')).toBe(`{"a":"lead","seq":1}\n${SEGMENT_RESUME}kept\r\n`)
    expect(journal.hasPending).toBe(true)
    journal.flush()
    expect(readPaneJournal(dir)).toEqual({ lead: `${SEGMENT_RESUME}kept\r\nduring the fault\r\n` })
  })

  it("takes turns between two segments: the disk holds at most two, and the tail read back is exactly the output's, across a restart and a failed switch", () => {
    let all = ''
    let n = 0
    const journal = new PaneJournal(dir)
    const write = (j: PaneJournal, chars: number): void => {
      const count = Math.ceil(chars / 120)
      const text = lines(n, count)
      n += count
      all += text
      j.append('lead', text)
      j.flush()
    }
    all += SEGMENT_RESUME
    for (let i = 0; i < 12; i++) {
      write(journal, 300_000)
      const sizes = readdirSync(dir).map((f) => statSync(join(dir, f)).size)
      expect(sizes.length).toBeLessThanOrEqual(2)
      for (const size of sizes) expect(size).toBeLessThanOrEqual(PANE_SEGMENT_CHARS + 300_200)
      expect(readPaneJournal(dir).lead).toBe(tailFromLineStart(all, PANE_RESTORE_MAX_CHARS))
    }
    // a restart goes on in the newer segment
    const next = new PaneJournal(dir)
    all += SEGMENT_RESUME
    write(next, 1000)
    expect(readPaneJournal(dir).lead).toBe(tailFromLineStart(all, PANE_RESTORE_MAX_CHARS))
    // the switch to the other segment fails: reported, queued, written at the next flush
    const end = simulateWriteFaults({ matches: (path) => path.endsWith('.out') })
    try {
      for (let i = 0; i < 4; i++) {
        const text = lines(n, 2500)
        n += 2500
        all += text
        next.append('lead', text)
        try {
          next.flush()
        } catch (error) {
          expect((error as Error).message).toMatch(/lead: ENOSPC/)
        }
      }
    } finally {
      end()
    }
    next.flush()
    expect(next.hasPending).toBe(false)
    expect(readdirSync(dir)).toHaveLength(2)
    expect(readPaneJournal(dir).lead).toBe(tailFromLineStart(all, PANE_RESTORE_MAX_CHARS))
  })

  it('writes nothing while a segment cannot be read: new output never goes before output it cannot see', () => {
    const first = new PaneJournal(dir)
    first.append('lead', 'older\r\n')
    first.flush()
    // segment 1 is there but unreadable (a directory stands in for a device error)
    mkdirSync(segmentFile(dir, 'lead', 1))
    const next = new PaneJournal(dir)
    next.append('lead', 'newer\r\n')
    expect(() => next.flush()).toThrow(/lead: cannot read the pane's journal segment .*\.1\.out \(EISDIR/)
    expect(next.hasPending).toBe(true)
    expect(readFileSync(segmentFile(dir, 'lead', 0), 'utf8')).toBe(`{"a":"lead","seq":1}\n${SEGMENT_RESUME}older\r\n`)
    rmSync(segmentFile(dir, 'lead', 1), { recursive: true })
    next.flush()
    expect(readPaneJournal(dir).lead).toBe(`${SEGMENT_RESUME}older\r\n${SEGMENT_RESUME}newer\r\n`)
  })

  it('keeps a surrogate pair cut between two flushes whole', () => {
    const journal = new PaneJournal(dir)
    const face = '😀'
    journal.append('lead', `smile ${face[0]}`)
    journal.flush()
    expect(journal.hasPending).toBe(true)
    journal.append('lead', `${face[1]}\r\n`)
    journal.flush()
    expect(journal.hasPending).toBe(false)
    expect(readPaneJournal(dir).lead).toBe(`${SEGMENT_RESUME}smile ${face}\r\n`)
  })

  it("reads an earlier version's .jsonl journal before the segments, skipping its torn and foreign lines", () => {
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      legacyJournalFile(dir, 'lead'),
      `${JSON.stringify({ a: 'lead', d: 'old one\r\n' })}\n${JSON.stringify({ a: 'mallory', d: 'not hers\r\n' })}\n{"a":"lead","d":"cut sho`
    )
    writeFileSync(legacyJournalFile(dir, 'only-old'), `${JSON.stringify({ a: 'only-old', d: 'before\r\n' })}\n`)
    const journal = new PaneJournal(dir)
    journal.append('lead', 'new one\r\n')
    journal.flush()
    expect(readPaneJournal(dir)).toEqual({ lead: `old one\r\n${SEGMENT_RESUME}new one\r\n`, 'only-old': 'before\r\n' })
  })

  it('a pane whose writes fail is reported once and keeps only its tail in memory', () => {
    const chunk = `${'x'.repeat(1000)}\r\n`.repeat(512) // ~0.5 MB a flush
    const other = new PaneJournal(dir)
    const stop = simulateWriteFaults({ matches: (path) => path.endsWith('.out') })
    const failures: string[] = []
    try {
      for (let i = 0; i < 10; i++) {
        other.append('lead', chunk)
        try {
          other.flush()
        } catch (error) {
          failures.push((error as Error).message)
        }
      }
    } finally {
      stop()
    }
    expect(failures).toHaveLength(1)
    other.flush()
    const kept = readPaneJournal(dir).lead!
    expect(kept.length).toBeLessThanOrEqual(PANE_RESTORE_MAX_CHARS)
    expect(kept.length).toBeGreaterThan(PANE_RESTORE_MAX_CHARS / 2)
  })

  it('a very long line across the cut keeps the last MiB of it instead of only what follows it, and never splits an escape sequence', () => {
    const huge = `BEGIN\r\n${'x'.repeat(3_000_000)}\r\nEND-OF-HUGE\r\n`
    const tail = tailFromLineStart(huge, 1000)
    expect(tail.length).toBeLessThanOrEqual(1000)
    expect(tail.endsWith('END-OF-HUGE\r\n')).toBe(true)
    expect(tail.length).toBeGreaterThan(900)
    // a cut falling inside "\x1b[38;5;196m" moves past it
    const coloured = 'y'.repeat(5000) + '\x1b[38;5;196m' + 'z'.repeat(990)
    const cut = tailFromLineStart(coloured, 1000)
    expect(cut).toBe('\x1b[0m' + 'z'.repeat(990))
  })

  it('cuts a tail at a line start and resets the colours there', () => {
    expect(tailFromLineStart('short', 10)).toBe('short')
    const text = '\x1b[31mone\r\ntwo\r\nthree\r\n'
    const tail = tailFromLineStart(text, 14)
    expect(tail).toBe('\x1b[0mthree\r\n')
    expect(tail.length).toBeLessThanOrEqual(14)
  })
})
