import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Terminal } from '@xterm/headless'
import { PANE_RESTORE_MAX_CHARS, PaneTerminals } from '../panes'
import { PaneJournal, readPaneJournal, SEGMENT_RESUME, tailFromLineStart } from './paneJournal'

/** Restarts of the pane journal with non-ASCII output, folders that cannot be made, and what a restored pane does with the next output. */
describe('PaneJournal across restarts', () => {
  let root: string
  let dir: string
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'swarmdesk-pane-journal-restart-'))
    dir = join(root, 'panes')
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  /** `count` coloured lines of CJK, emoji and combining marks from number `from` (~70 UTF-16 units, ~180 bytes each). */
  const wideLines = (from: number, count: number): string => {
    let text = ''
    for (let n = from; n < from + count; n++)
      text += `\x1b[3${n % 7}m行 ${n}\x1b[0m ${'漢字かな😀e\u0301'.repeat(6)}\r\n`
    return text
  }

  it('still restores the last MiB of non-ASCII output after a restart and a switch of segments', () => {
    let n = 0
    const write = (journal: PaneJournal, chars: number): void => {
      const count = Math.ceil(chars / 70)
      journal.append('lead', wideLines(n, count))
      n += count
      journal.flush()
    }
    const first = new PaneJournal(dir)
    // a full segment, then 400k characters (≈1 MB) into the other one
    for (let i = 0; i < 7; i++) write(first, 200_000)
    // restarts: each new process goes on in the newer segment until it switches
    for (let restart = 0; restart < 3; restart++) {
      const next = new PaneJournal(dir)
      for (let i = 0; i < 4; i++) {
        write(next, 100_000)
        // the restored tail is within a line of the last MiB, whichever segment is current
        expect(readPaneJournal(dir).lead!.length).toBeGreaterThan(PANE_RESTORE_MAX_CHARS - 200)
      }
    }
  })

  it('reports a journal folder that cannot be made once, not at every flush, and writes once it can', () => {
    // the session folder is a file: `panes/` cannot be made (ENOTDIR), as a read-only or vanished folder would
    writeFileSync(root + '/session', 'not a folder')
    const journal = new PaneJournal(join(root, 'session', 'panes'))
    const failures: string[] = []
    for (let i = 0; i < 3; i++) {
      journal.append('lead', `line ${i}\r\n`)
      try {
        journal.flush()
      } catch (error) {
        failures.push((error as Error).message)
      }
    }
    expect(failures).toHaveLength(1)
    expect(failures[0]).toMatch(/lead: .*ENOTDIR/)
    expect(journal.hasPending).toBe(true)
    rmSync(join(root, 'session'))
    journal.flush()
    expect(readPaneJournal(join(root, 'session', 'panes'))).toEqual({
      lead: `${SEGMENT_RESUME}line 0\r\nline 1\r\nline 2\r\n`
    })
  })
})

describe('a restored pane', () => {
  it.each([
    ['a colour sequence cut before its end, then output starting with a letter', '\x1b[3', 'Job finished\r\n'],
    ['a window title cut before its end', '\x1b]0;building', 'Job finished\r\n']
  ])("shows the next session's output whole after %s", async (_what, torn, next) => {
    const dir = join(mkdtempSync(join(tmpdir(), 'swarmdesk-restored-pane-')), 'panes')
    try {
      const killed = new PaneJournal(dir)
      killed.append('lead', `before\r\nstill here\r\n${torn}`)
      killed.flush()
      const panes = new PaneTerminals()
      panes.restore('lead', readPaneJournal(dir).lead!)
      panes.write('lead', next)
      const { data } = await panes.scrollback('lead')
      expect(data).toContain('still here')
      expect(data).toContain('Job finished')
      expect(data.startsWith(SEGMENT_RESUME)).toBe(false)
      panes.dispose()
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true })
    }
  })

  it("does not colour the next session's output with the colour the cut output left on", async () => {
    const panes = new PaneTerminals()
    panes.restore('lead', `${SEGMENT_RESUME}plain\r\n\x1b[31mred, cut before its reset`)
    panes.write('lead', 'next session\r\n')
    // the page's terminal refilled from main's scrollback: the next session's line is not red
    const { data } = await panes.scrollback('lead')
    const page = new Terminal({ cols: 120, rows: 40, allowProposedApi: true })
    await new Promise<void>((resolve) => page.write(data, resolve))
    const buffer = page.buffer.active
    const row = (text: string): number =>
      [...Array(buffer.length).keys()].find((y) => buffer.getLine(y)!.translateToString(true) === text)!
    expect(buffer.getLine(row('red, cut before its reset'))!.getCell(0)!.getFgColor()).toBe(1)
    expect(buffer.getLine(row('next session'))!.getCell(0)!.isFgDefault()).toBe(true)
    page.dispose()
    panes.dispose()
  })
})

describe('a pane restored from output cut mid-line', () => {
  it("starts the next session's output on a line of its own", async () => {
    const panes = new PaneTerminals()
    panes.restore('lead', `${SEGMENT_RESUME}00000001 whole\r\n00000002 cut 漢字😀e`)
    panes.restore('done', `${SEGMENT_RESUME}whole\r\n\x1b[0m`)
    for (const id of ['lead', 'done']) panes.write(id, '▶ the next session\r\n')
    const rows = async (id: string): Promise<string[]> => {
      const page = new Terminal({ cols: 120, rows: 40, allowProposedApi: true })
      const { data } = await panes.scrollback(id)
      await new Promise<void>((resolve) => page.write(data, resolve))
      const buffer = page.buffer.active
      const text = [...Array(buffer.length).keys()]
        .map((y) => buffer.getLine(y)!.translateToString(true))
        .filter((l) => l !== '')
      page.dispose()
      return text
    }
    expect(await rows('lead')).toEqual(['00000001 whole', '00000002 cut 漢字😀e', '▶ the next session'])
    // output that ended at a line start gets no blank line
    expect(await rows('done')).toEqual(['whole', '▶ the next session'])
    panes.dispose()
  })
})

describe('a pane restored while a full-screen program had it', () => {
  it.each([
    ['1049', 'normal 3'],
    ['1049', 'normal 3\r\n']
  ])(
    "leaves its alternate screen (mode %s) and modes: the scrollback shows, the next session's output follows it, mouse and keys are the pane's again",
    async (mode, before) => {
      const panes = new PaneTerminals()
      panes.restore(
        'lead',
        `${SEGMENT_RESUME}normal 1\r\nnormal 2\r\n${before}\x1b[?${mode}h\x1b[?1000h\x1b[?1006h\x1b[?2004h\x1b[?1h\x1b[?25l\x1b[2;5r\x1b[Hfull screen, cut`
      )
      panes.write('lead', 'next session\r\n')
      const { data } = await panes.scrollback('lead')
      const page = new Terminal({ cols: 120, rows: 40, allowProposedApi: true })
      await new Promise<void>((resolve) => page.write(data, resolve))
      const buffer = page.buffer.active
      expect(buffer.type).toBe('normal')
      const rows = [...Array(buffer.length).keys()]
        .map((y) => buffer.getLine(y)!.translateToString(true))
        .filter((l) => l !== '')
      expect(rows).toEqual(['normal 1', 'normal 2', 'normal 3', 'next session'])
      expect(page.modes).toMatchObject({
        mouseTrackingMode: 'none',
        bracketedPasteMode: false,
        applicationCursorKeysMode: false
      })
      page.dispose()
      panes.dispose()
    }
  )

  it('leaves an alternate screen of mode 1047 too (the cursor is where the program left it: that mode keeps none of its own)', async () => {
    const panes = new PaneTerminals()
    panes.restore('lead', `${SEGMENT_RESUME}normal 1\r\n\x1b[?1047h\x1b[?1000hfull screen, cut`)
    const { data } = await panes.scrollback('lead')
    const page = new Terminal({ cols: 120, rows: 40, allowProposedApi: true })
    await new Promise<void>((resolve) => page.write(data, resolve))
    expect(page.buffer.active.type).toBe('normal')
    expect(page.modes.mouseTrackingMode).toBe('none')
    page.dispose()
    panes.dispose()
  })

  it('changes nothing for output that left its full-screen program before the cut', async () => {
    const panes = new PaneTerminals()
    panes.restore('lead', `${SEGMENT_RESUME}normal 1\r\n\x1b[?1049hvim\x1b[?1049lnormal 2\r\n`)
    panes.write('lead', 'next session\r\n')
    const { data } = await panes.scrollback('lead')
    const page = new Terminal({ cols: 120, rows: 40, allowProposedApi: true })
    await new Promise<void>((resolve) => page.write(data, resolve))
    const buffer = page.buffer.active
    expect(
      [...Array(buffer.length).keys()].map((y) => buffer.getLine(y)!.translateToString(true)).filter((l) => l !== '')
    ).toEqual(['normal 1', 'normal 2', 'next session'])
    page.dispose()
    panes.dispose()
  })
})

describe('a restored tail cut inside a full-screen program', () => {
  /** `before` lines, then a full-screen program redrawing ~1.5 MB of frames, then (when it exits) `after` lines. */
  const history = (exits: boolean): string => {
    let text = ''
    for (let i = 0; i < 100; i++) text += `before ${i}\r\n`
    text += '\x1b[?1049h'
    for (let frame = 0; text.length < 1_500_000; frame++)
      text += `\x1b[H\x1b[2J\x1b[7mTOP frame ${frame}\x1b[0m\r\n${'row of the program '.repeat(4)}\r\n`
    if (!exits) return text
    text += '\x1b[?1049l'
    for (let i = 0; i < 50; i++) text += `after ${i}\r\n`
    return text
  }
  /** The normal screen's rows and scrollback of a page terminal refilled from a pane restored with `saved`, then given the next session's line. */
  const shown = async (saved: string): Promise<string[]> => {
    const panes = new PaneTerminals()
    panes.restore('lead', saved)
    panes.write('lead', 'next session\r\n')
    const { data } = await panes.scrollback('lead')
    panes.dispose()
    const page = new Terminal({ cols: 120, rows: 40, allowProposedApi: true })
    await new Promise<void>((resolve) => page.write(data, resolve))
    const buffer = page.buffer.active
    expect(buffer.type).toBe('normal')
    const rows = [...Array(buffer.length).keys()]
      .map((y) => buffer.getLine(y)!.translateToString(true))
      .filter((l) => l !== '')
    page.dispose()
    return rows
  }

  it('starts where the program left the pane: its frames are not drawn into the scrollback, nor the lines after it over them', async () => {
    const tail = tailFromLineStart(history(true), PANE_RESTORE_MAX_CHARS)
    expect(tail.length).toBeLessThanOrEqual(PANE_RESTORE_MAX_CHARS)
    expect(await shown(tail)).toEqual([...Array.from({ length: 50 }, (_, i) => `after ${i}`), 'next session'])
  })

  it('enters its screen again when the program still had the pane at the end', async () => {
    const tail = tailFromLineStart(history(false), PANE_RESTORE_MAX_CHARS)
    expect(tail.length).toBeLessThanOrEqual(PANE_RESTORE_MAX_CHARS)
    expect(tail.startsWith('\x1b[0m\x1b[?1049h')).toBe(true)
    expect(await shown(tail)).toEqual(['next session'])
  })
})
