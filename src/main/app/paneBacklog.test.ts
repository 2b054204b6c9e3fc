import { SerializeAddon } from '@xterm/addon-serialize'
import { Terminal } from '@xterm/headless'
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../testkit/ipcFuzz.testkit'
import { MAX_CARRIED_SGR, PaneBacklog, scanPlainOutput, terminalAtPlainState } from './paneBacklog'
import { PaneTerminals } from './panes'

const write = (term: Terminal, data: string) => new Promise<void>((resolve) => term.write(data, resolve))

describe('scanPlainOutput', () => {
  it.each([
    ['text, CRLF, tab, backspace, bell', 'a\tb\bc\x07\r\n'],
    ['SGR with every parameter form', '\x1b[1;31mred\x1b[38;5;200mx\x1b[48;2;1;2;3my\x1b[4:3mz\x1b[m'],
    ['in-line edits and horizontal moves', 'abc\x1b[K\x1b[5G\x1b[2C\x1b[1D\x1b[3X\x1b[P\x1b[2@\x1b[7`'],
    ['titles ended by BEL or ST', '\x1b]0;build\x07\x1b]2;tests\x1b\\'],
    ['a progress line redrawn with CR', 'building 10%\rbuilding 20%\r\n'],
    ['wide characters and surrogate pairs', '漢字 😀\r\n']
  ])('%s is plain', (_, data) => {
    expect(scanPlainOutput(data)).toBeDefined()
  })

  it.each([
    ['a cursor move up', 'a\x1b[3Ab'],
    ['an absolute cursor position', '\x1b[5;1Hx'],
    ['a scroll region', '\x1b[2;10r'],
    ['the alternate screen', '\x1b[?1049h'],
    ['hiding the cursor (a private mode)', '\x1b[?25l'],
    ['a cursor style (an intermediate byte)', '\x1b[2 q'],
    ['erasing the display', '\x1b[2J'],
    ['a hyperlink', '\x1b]8;;https://example.com\x07link\x1b]8;;\x07'],
    ['a charset designation', '\x1b(0qqq\x1b(B'],
    ['shift out', 'a\x0eb'],
    ['an 8-bit CSI', 'a\x9b2Jb'],
    ['reverse index', '\x1bM'],
    ['save cursor', '\x1b7'],
    ['an unterminated title', '\x1b]0;half'],
    ['a title with a line feed inside (a terminal ignores it: no line moves)', '\x1b]0;cat <<EOF\nx\x07'],
    ['a title ended by ESC without backslash', '\x1b]0;t\x1bx']
  ])('%s is not plain', (_, data) => {
    expect(scanPlainOutput(data)).toBeUndefined()
  })

  it('counts line feeds and finds the last resetting SGR (first parameter 0 or omitted)', () => {
    expect(scanPlainOutput('a\r\nb\nc')).toEqual({ lineFeeds: 2, lastReset: -1, open: 0 })
    const data = 'x\x1b[0;1mbold\x1b[31mred\x1b[mplain\x1b[38;5;0mblack'
    expect(scanPlainOutput(data)).toEqual({ lineFeeds: 0, lastReset: data.indexOf('\x1b[m'), open: 0 })
    expect(scanPlainOutput('\x1b[;4mu')!.lastReset).toBe(0)
    expect(scanPlainOutput('\x1b[1;0mu')!.lastReset).toBe(-1)
  })
})

describe('PaneBacklog', () => {
  const numbered = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `line ${from + i}\r\n`).join('')

  function backlogOf(...chunks: string[]): PaneBacklog {
    const backlog = new PaneBacklog()
    for (const c of chunks) expect(backlog.add(c)).toBe(true)
    return backlog
  }

  it('keeps the last `keep` line feeds and carries the colours set since the last reset, then a CR', () => {
    const backlog = backlogOf(numbered(0, 50), '\x1b[31mred\x1b[0m\r\n\x1b[1mbold \x1b[32mgreen\r\n', numbered(52, 60))
    expect(backlog.lineFeeds).toBe(60)
    expect(backlog.trim(8)).toBe(true)
    expect(backlog.lineFeeds).toBe(8)
    expect(backlog.take()).toBe(`\x1b[0m\x1b[1m\x1b[32m\r${numbered(52, 60)}`)
    expect(backlog.length).toBe(0)
  })

  it('cuts only after a CRLF, keeping more lines when the last ones end in a bare LF, and refuses when none has', () => {
    const backlog = backlogOf('a\r\nb\r\n', 'c\nd\ne\n')
    expect(backlog.trim(2)).toBe(true)
    expect(backlog.take()).toBe('\rc\nd\ne\n')
    const bare = backlogOf('a\nb\nc\nd\n')
    expect(bare.trim(1)).toBe(false)
    expect(bare.take()).toBe('a\nb\nc\nd\n')
  })

  it('reports a CSI sequence cut at the end as open, and reads it whole with the next chunk', () => {
    expect(scanPlainOutput('red: \x1b[3')).toEqual({ lineFeeds: 0, lastReset: -1, open: 3 })
    expect(scanPlainOutput('abc\x1b')!.open).toBe(1)
    const backlog = backlogOf('a\r\n\x1b[1mb\x1b[', '0', 'mc\r\n', 'd\r\n')
    expect(backlog.endsInsideSequence).toBe(false)
    expect(backlog.trim(1)).toBe(true)
    expect(backlog.take()).toBe('\x1b[0m\rd\r\n')
    const moved = backlogOf('a\r\n\x1b[')
    expect(moved.endsInsideSequence).toBe(true)
    expect(moved.add('3Ab')).toBe(false)
    expect(moved.take()).toBe('a\r\n\x1b[')
  })

  it('finds a CRLF split between two chunks', () => {
    const backlog = backlogOf('one\r', '\ntwo\r\n', 'three\r\n')
    expect(backlog.trim(1)).toBe(true)
    expect(backlog.take()).toBe('\rthree\r\n')
  })

  it(`refuses to carry more than ${MAX_CARRIED_SGR} SGR sequences (colours set and never reset)`, () => {
    const colours = Array.from({ length: MAX_CARRIED_SGR + 1 }, (_, i) => `\x1b[3${i % 8}mx\r\n`).join('')
    const backlog = backlogOf(colours, 'a\r\nb\r\n')
    expect(backlog.trim(1)).toBe(false)
    expect(backlog.length).toBe(colours.length + 6)
  })

  it('carries over two trims the colours of both dropped parts', () => {
    const backlog = backlogOf('\x1b[1mA\r\n', 'B\r\nC\r\n')
    expect(backlog.trim(1)).toBe(true)
    expect(backlog.add('\x1b[34mD\r\n')).toBe(true)
    expect(backlog.add('E\r\n')).toBe(true)
    expect(backlog.trim(1)).toBe(true)
    expect(backlog.take()).toBe('\x1b[1m\x1b[34m\rE\r\n')
  })
})

describe('terminalAtPlainState', () => {
  it("reads xterm's parser state, scroll region and reverse wraparound (fails when an upgrade moves them)", async () => {
    const term = new Terminal({ cols: 40, rows: 10, allowProposedApi: true })
    expect(terminalAtPlainState(term)).toBe(true)
    await write(term, '\x1b[2;5r')
    expect(terminalAtPlainState(term)).toBe(false)
    await write(term, '\x1b[r')
    expect(terminalAtPlainState(term)).toBe(true)
    await write(term, 'half a sequence: \x1b[3')
    expect(terminalAtPlainState(term)).toBe(false)
    await write(term, '1m')
    expect(terminalAtPlainState(term)).toBe(true)
    await write(term, '\x1b[?45h')
    expect(terminalAtPlainState(term)).toBe(false)
    term.dispose()
  })
})

/** Agent-like output: coloured lines (some long enough to wrap), progress redrawn with CR, and now and then something that is not plain. */
function stream(random: () => number, lines: number, unplain: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
  const sgr = [
    '\x1b[31m',
    '\x1b[1;32m',
    '\x1b[0m',
    '\x1b[m',
    '\x1b[38;5;200m',
    '\x1b[48;2;10;20;30m',
    '\x1b[22m',
    '\x1b[4:3m',
    '\x1b[0;7m',
    '\x1b[39;49m'
  ]
  const words = ['ok', 'reading', 'src/main.ts', '漢字', '😀', 'error:', '\t', 'x\by', '✓', 'test passed']
  const bursts = [
    'redraw\x1b[3A\x1b[2K over \x1b[3B',
    '\x1b[2;5rinside a region\r\n\r\n\r\n\x1b[r',
    '\x1b[?1049h\x1b[Hfull screen\r\nprogram\x1b[?1049l',
    '\x1b]8;;https://example.com\x07a link\x1b]8;;\x07',
    '\x1b[?45hx\b\b\b\x1b[?45l',
    '\x1b7\x1b[1;1Htop\x1b8',
    '\x1b(0lqqk\x1b(B'
  ]
  let out = ''
  for (let i = 0; i < lines; i++) {
    if (random() < unplain) out += pick(bursts)
    const n = 1 + Math.floor(random() * (random() < 0.1 ? 30 : 6))
    for (let w = 0; w < n; w++) out += (random() < 0.3 ? pick(sgr) : '') + pick(words) + ' '
    if (random() < 0.1) out += '\rprogress 50%\x1b[K\rprogress 100%'
    out += random() < 0.05 ? '\n' : '\r\n'
  }
  return out
}

/** Cuts a stream into chunks at random places: inside escape sequences, CRLFs and surrogate pairs too. */
function chunks(random: () => number, data: string): string[] {
  const out: string[] = []
  for (let at = 0; at < data.length;) {
    const len = 1 + Math.floor(random() * (random() < 0.2 ? 8 : 400))
    out.push(data.slice(at, at + len))
    at += len
  }
  return out
}

describe('PaneTerminals backlog', () => {
  const size = { cols: 30, rows: 8 }
  const scrollbackLines = 40

  async function compare(seed: number, lines: number, unplain: number): Promise<{ parsed: number; skipped: number }> {
    const random = seededRandom(seed)
    const panes = new PaneTerminals({ scrollbackLines, sizeOf: () => size })
    const reference = new Terminal({ ...size, scrollback: scrollbackLines, allowProposedApi: true })
    const serializer = new SerializeAddon()
    reference.loadAddon(serializer)
    let chunk = 0
    for (const c of chunks(random, stream(random, lines, unplain))) {
      panes.write('alice', c)
      chunk++
      if (random() < 0.5) await write(reference, c)
      else reference.write(c)
      if (random() < 0.01) {
        await write(reference, '')
        const sb = await panes.scrollback('alice')
        expect(sb.chunk, `seed ${seed}`).toBe(chunk)
        expect(sb.data, `seed ${seed}, chunk ${chunk}`).toBe(serializer.serialize({ scrollback: scrollbackLines }))
      }
    }
    await write(reference, '')
    const sb = await panes.scrollback('alice')
    expect(sb.data, `seed ${seed}, at the end`).toBe(serializer.serialize({ scrollback: scrollbackLines }))
    const { parsedChars, skippedChars } = panes.parseCounts()
    panes.dispose()
    reference.dispose()
    return { parsed: parsedChars, skipped: skippedChars }
  }

  it('ends with exactly the scrollback of a terminal that parsed everything, while skipping most of plain output', async () => {
    let parsed = 0
    let skipped = 0
    for (let seed = 1; seed <= 12; seed++) {
      const counts = await compare(seed, 1500, 0)
      parsed += counts.parsed
      skipped += counts.skipped
    }
    expect(skipped).toBeGreaterThan(parsed)
  })

  it('stays exact when full-screen programs, scroll regions, hyperlinks and charsets come between plain lines', async () => {
    let skipped = 0
    for (let seed = 101; seed <= 112; seed++) skipped += (await compare(seed, 1500, 0.01)).skipped
    expect(skipped).toBeGreaterThan(0)
  })

  it('parses what waits before a resize, so the output reflows as the page reflowed it', async () => {
    const panes = new PaneTerminals({ scrollbackLines, sizeOf: () => size })
    const reference = new Terminal({ ...size, scrollback: scrollbackLines, allowProposedApi: true })
    const serializer = new SerializeAddon()
    reference.loadAddon(serializer)
    const random = seededRandom(7)
    const before = stream(random, 60, 0)
    const after = stream(random, 20, 0)
    panes.write('alice', before)
    await write(reference, before)
    panes.resize('alice', { cols: 17, rows: 6 })
    reference.resize(17, 6)
    panes.write('alice', after)
    await write(reference, after)
    const sb = await panes.scrollback('alice')
    expect([sb.cols, sb.rows]).toEqual([17, 6])
    expect(sb.data).toBe(serializer.serialize({ scrollback: scrollbackLines }))
    panes.dispose()
    reference.dispose()
  })
})
