import { Terminal } from '@xterm/headless'
import { afterEach, describe, expect, it } from 'vitest'
import { PANE_COLS, PANE_ROWS, PaneTerminals } from './panes'
import { INTERRUPTED_PANE_LINE } from './restore/startup'

/** Rows of a headless terminal's whole buffer as text, trailing spaces trimmed. */
function rows(term: Terminal): string[] {
  const out: string[] = []
  for (let i = 0; i < term.buffer.active.length; i++) out.push(term.buffer.active.getLine(i)!.translateToString(true))
  while (out.length > 0 && out[out.length - 1] === '') out.pop()
  return out
}

/** Rows joined where xterm wrapped them, so the text does not depend on the width. */
function lines(term: Terminal): string[] {
  const out: string[] = []
  for (let i = 0; i < term.buffer.active.length; i++) {
    const line = term.buffer.active.getLine(i)!
    const text = line.translateToString(true)
    if (line.isWrapped && out.length > 0) out[out.length - 1] += text
    else out.push(text)
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop()
  return out
}

const write = (term: Terminal, data: string) => new Promise<void>((resolve) => term.write(data, resolve))

/**
 * Saved output of a teammate that was working when the workspace stopped, then the notice: fewer
 * rows than a 120 × 40 pane, but at 37 × 12 the wrapped notice ends on the screen's last row, where
 * the serialization's closing "cursor down" cannot go further.
 */
const saved = `${Array.from({ length: 8 }, (_, i) => `carol line ${i}: reading the repository and planning the change`).join('\r\n')}\r\n${INTERRUPTED_PANE_LINE}`
const notice = INTERRUPTED_PANE_LINE.replace(/\x1b\[[0-9;]*m/g, '').trim()

describe('PaneTerminals', () => {
  const panes = new PaneTerminals()
  afterEach(() => {
    panes.drop('carol@team')
  })

  it('serializes at most the lines of scrollback asked for above the screen, and never more than it keeps', async () => {
    const numbered = Array.from({ length: 100 }, (_, i) => `line ${i + 1}\r\n`).join('')
    panes.write('carol@team', numbered)
    // 40 rows: lines 62 to 100 and the empty cursor row; 5 lines above them
    const five = await panes.scrollback('carol@team', 5)
    expect(five.data).toContain('line 57\r')
    expect(five.data).not.toContain('line 56\r')
    expect((await panes.scrollback('carol@team', 0)).data).not.toContain('line 61\r')
    const all = await panes.scrollback('carol@team')
    expect(all.data).toContain('line 1\r')
    expect(all.chunk).toBe(five.chunk)
    const few = new PaneTerminals({ scrollbackLines: 10 })
    few.write('carol@team', numbered)
    expect((await few.scrollback('carol@team', 50)).data.startsWith('line 52\r')).toBe(true)
    few.dispose()
  })

  it('serializes at 120 × 40 until the pane reports a size; a terminal of another width writing it as is puts later output over a restored row', async () => {
    panes.restore('carol@team', saved)
    const sb = await panes.scrollback('carol@team')
    expect([sb.cols, sb.rows]).toEqual([PANE_COLS, PANE_ROWS])
    // the page's pane, 37 columns wide, restoring without matching main's size first
    const narrow = new Terminal({ cols: 37, rows: 12, allowProposedApi: true })
    await write(narrow, sb.data)
    await write(narrow, 'carol Done.\r\n')
    // the cursor moves meant for 120 columns leave it on the notice's last row: output overwrites it
    expect(rows(narrow)).toContain('carol Done.om its transcript.')
    expect(lines(narrow)).not.toContain(notice)
    narrow.dispose()
  })

  it('follows the size its pane reports: the scrollback carries it, and a terminal of that size restores it with later output on rows of its own', async () => {
    panes.restore('carol@team', saved)
    panes.resize('carol@team', { cols: 37, rows: 12 })
    const sb = await panes.scrollback('carol@team')
    expect([sb.cols, sb.rows]).toEqual([37, 12])
    const page = new Terminal({ cols: sb.cols, rows: sb.rows, scrollback: 10_000, allowProposedApi: true })
    await write(page, sb.data)
    await write(page, 'carol Done.\r\n')
    const text = lines(page)
    expect(text.slice(-2)).toEqual([notice, 'carol Done.'])
    expect(text.filter((l) => l.startsWith('carol line')).length).toBe(8)
    expect(rows(page).every((r) => r.length <= 37)).toBe(true)
    page.dispose()
  })

  it('starts a pane at the size reported before main had a terminal for it (sizeOf), else at 120 × 40', async () => {
    // a size for a pane main has no terminal for is left to sizeOf
    panes.resize('carol@team', { cols: 50, rows: 10 })
    expect((await panes.scrollback('carol@team')).cols).toBe(PANE_COLS)
    const sized = new PaneTerminals({ sizeOf: (id) => (id === 'carol@team' ? { cols: 30, rows: 8 } : undefined) })
    const sb = await sized.scrollback('carol@team')
    expect([sb.cols, sb.rows]).toEqual([30, 8])
    expect((await sized.scrollback('lead@team')).cols).toBe(PANE_COLS)
    sized.dispose()
  })

  it('applies output written before a resize at the old size, and reflows it at the new one', async () => {
    const line = 'y'.repeat(100)
    panes.write('carol@team', `${line}\r\n`)
    panes.resize('carol@team', { cols: 40, rows: 10 })
    panes.write('carol@team', 'after\r\n')
    const sb = await panes.scrollback('carol@team')
    const page = new Terminal({ cols: 40, rows: 10, allowProposedApi: true })
    await write(page, sb.data)
    expect(lines(page)).toEqual([line, 'after'])
    expect(rows(page)).toEqual(['y'.repeat(40), 'y'.repeat(40), 'y'.repeat(20), 'after'])
    page.dispose()
  })

  it("refuses a size outside the contract's bounds with a message naming them", () => {
    expect(() => panes.resize('carol@team', { cols: 0, rows: 10 })).toThrow(/cols/)
    expect(() => panes.resize('carol@team', { cols: 10.5, rows: 10 })).toThrow(/whole/)
  })
})
