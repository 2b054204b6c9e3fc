import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { simulateWriteFaults } from '../../storage/diskWrites'
import { PANE_RESTORE_MAX_CHARS } from '../panes'
import { journalFile, PANE_JOURNAL_STOP_BYTES, PaneJournal, readPaneJournal, tailFromLineStart } from './paneJournal'

describe('PaneJournal', () => {
  let dir: string
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'swarmdesk-pane-journal-')), 'panes')
  })
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }))

  it('keeps panes apart whatever their ids hold, and writes nothing until flushed', () => {
    const journal = new PaneJournal(dir)
    journal.append('alice@team one', 'a\r\n')
    journal.append('../../etc/passwd', 'b\r\n')
    journal.append('alice@team one', '')
    expect(journal.hasPending).toBe(true)
    expect(readPaneJournal(dir)).toEqual({})
    journal.flush()
    expect(journal.hasPending).toBe(false)
    expect(readPaneJournal(dir)).toEqual({ 'alice@team one': 'a\r\n', '../../etc/passwd': 'b\r\n' })
    expect(readdirSync(dir).every((f) => /^[0-9a-f]{32}\.jsonl$/.test(f))).toBe(true)
  })

  it('skips a torn last line (a kill mid-append) and records of another agent, keeping everything before them', () => {
    const journal = new PaneJournal(dir)
    journal.append('lead', 'first\r\n')
    journal.flush()
    journal.append('lead', 'second\r\n')
    journal.flush()
    const file = journalFile(dir, 'lead')
    appendFileSync(file, `${JSON.stringify({ a: 'mallory', d: 'not hers\r\n' })}\n{"a":"lead","d":"cut sho`)
    expect(readPaneJournal(dir)).toEqual({ lead: 'first\r\nsecond\r\n' })
    // a file whose first record is not of the agent its name belongs to holds nothing
    writeFileSync(journalFile(dir, 'other'), `${JSON.stringify({ a: 'lead', d: 'moved here\r\n' })}\n`)
    expect(readPaneJournal(dir)).toEqual({ lead: 'first\r\nsecond\r\n' })
  })

  it('on a full disk keeps the output queued and the file as it was; the next flush writes it', () => {
    const journal = new PaneJournal(dir)
    journal.append('lead', 'kept\r\n')
    journal.flush()
    journal.append('lead', 'during the fault\r\n')
    const end = simulateWriteFaults({ matches: (path) => path.endsWith('.jsonl'), bytesLeft: 5 })
    try {
      expect(() => journal.flush()).toThrow(/Could not write the pane journal .*lead: ENOSPC/)
    } finally {
      end()
    }
    expect(readFileSync(journalFile(dir, 'lead'), 'utf8')).toBe(`${JSON.stringify({ a: 'lead', d: 'kept\r\n' })}\n`)
    expect(journal.hasPending).toBe(true)
    journal.flush()
    expect(readPaneJournal(dir)).toEqual({ lead: 'kept\r\nduring the fault\r\n' })
  })

  it('a file a killed process left with a torn last line: the next record starts on its own line and is read', () => {
    const file = journalFile(dir, 'lead')
    const first = new PaneJournal(dir)
    first.append('lead', 'before\r\n')
    first.flush()
    appendFileSync(file, '{"a":"lead","d":"TORN')
    const next = new PaneJournal(dir)
    next.append('lead', 'after the restart\r\n')
    next.flush()
    expect(readPaneJournal(dir)).toEqual({ lead: 'before\r\nafter the restart\r\n' })
  })

  it('a file that cannot be compacted is reported once and stops growing; a failing pane keeps only its tail in memory', () => {
    const journal = new PaneJournal(dir)
    const chunk = `${'x'.repeat(1000)}\r\n`.repeat(512) // ~0.5 MB a flush
    const end = simulateWriteFaults({ matches: (path) => path.endsWith('.tmp') })
    const errors: string[] = []
    try {
      for (let i = 0; i < 40; i++) {
        journal.append('lead', chunk)
        try {
          journal.flush()
        } catch (error) {
          errors.push((error as Error).message)
        }
      }
    } finally {
      end()
    }
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/lead \(compacting; its saved output now stops at 8 MiB\): ENOSPC/)
    expect(statSync(journalFile(dir, 'lead')).size).toBeLessThanOrEqual(PANE_JOURNAL_STOP_BYTES + chunk.length + 100)

    // appends failing: reported once, and the queue keeps about the last MiB, not everything
    const other = new PaneJournal(join(dir, 'other'))
    const stop = simulateWriteFaults({ matches: (path) => path.endsWith('.jsonl') })
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
    const kept = readPaneJournal(join(dir, 'other')).lead!
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
