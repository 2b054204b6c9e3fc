import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { simulateWriteFaults } from '../../storage/diskWrites'
import { journalFile, PaneJournal, readPaneJournal, tailFromLineStart } from './paneJournal'

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

  it('cuts a tail at a line start and resets the colours there', () => {
    expect(tailFromLineStart('short', 10)).toBe('short')
    const text = '\x1b[31mone\r\ntwo\r\nthree\r\n'
    const tail = tailFromLineStart(text, 14)
    expect(tail).toBe('\x1b[0mthree\r\n')
    expect(tail.length).toBeLessThanOrEqual(14)
  })
})
