import { SerializeAddon } from '@xterm/addon-serialize'
import { Terminal } from '@xterm/headless'
import { describe, expect, it } from 'vitest'
import { PaneTerminals } from './panes'

/**
 * Edge cases of the pane backlog (issue 7, docs/ui.md#the-workspace-ui): each feeds the same chunks to PaneTerminals
 * (whose plain output may be trimmed unparsed) and to a terminal that parses everything, and
 * expects the same serialized scrollback. 30 × 8 cells, 40 lines of scrollback: a trim keeps 57
 * line feeds and comes due at 72.
 */
const write = (term: Terminal, data: string) => new Promise<void>((resolve) => term.write(data, resolve))
const numbered = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `line ${from + i}\r\n`).join('')

async function scrollbacks(chunks: string[]): Promise<{ got: string; want: string; skipped: number }> {
  const size = { cols: 30, rows: 8 }
  const scrollbackLines = 40
  const panes = new PaneTerminals({ scrollbackLines, sizeOf: () => size })
  const reference = new Terminal({ ...size, scrollback: scrollbackLines, allowProposedApi: true })
  const serializer = new SerializeAddon()
  reference.loadAddon(serializer)
  for (const c of chunks) {
    panes.write('alice', c)
    await write(reference, c)
    // let the pane's parse callbacks run, so later chunks may wait in the backlog
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
  const sb = await panes.scrollback('alice')
  const want = serializer.serialize({ scrollback: scrollbackLines })
  const skipped = panes.parseCounts().skippedChars
  panes.dispose()
  reference.dispose()
  return { got: sb.data, want, skipped }
}

describe('PaneTerminals backlog edge cases', () => {
  // A terminal ignores C0 controls inside an OSC string, so a title's LFs move no line; counted as
  // lines they would trim lines the terminal still shows. Shells put the running command in the
  // title (`\e]0;$BASH_COMMAND\a`); a multi-line command (a heredoc) gives such a title, and the
  // chunk holding it is parsed as it comes.
  it('keeps the lines a title with line feeds inside it does not push out, and trims what comes after', async () => {
    const title = '\x1b]0;' + 'cat <<EOF\n'.repeat(200) + '\x07'
    const r = await scrollbacks([numbered(0, 10), title, numbered(10, 40), '\r\n\r\n', numbered(40, 45)])
    expect(r.skipped).toBe(0)
    expect(r.got).toBe(r.want)
    const later = await scrollbacks([numbered(0, 10), title, numbered(10, 40), numbered(40, 200)])
    expect(later.skipped).toBeGreaterThan(0)
    expect(later.got).toBe(later.want)
  })

  it.each([
    ['insert mode set before', ['\x1b[4h', numbered(0, 50) + 'abc\rxy', '\r\n' + numbered(50, 130) + 'z']],
    ['newline mode set before', ['\x1b[20h', numbered(0, 50).replace(/\r\n/g, '\n') + 'a\r\nb\n', numbered(50, 130)]],
    ['autowrap off, a long line', ['\x1b[?7l', numbered(0, 50) + 'y'.repeat(100) + '\r\n', numbered(50, 130)]],
    ['VT and FF, which move a line too', [numbered(0, 50) + 'a\x0bb\x0cc\r\n', numbered(50, 130)]],
    ['a surrogate pair split between parsed output and the backlog', ['\x1b[?25lx\ud83d', '\ude00' + numbered(0, 120)]],
    [
      'a title with a CRLF inside, near the cut',
      [numbered(0, 14) + '\x1b]0;make \\\r\n  all\x07' + numbered(100, 157), numbered(157, 260)]
    ]
  ])('stays exact with %s', async (_, chunks) => {
    const r = await scrollbacks(chunks)
    expect(r.skipped).toBeGreaterThan(0)
    expect(r.got).toBe(r.want)
  })
})

describe('PaneTerminals backlog around a resize', () => {
  // resize() applies the new size in a write callback (a later macrotask); output written before
  // that callback runs, trimmed with `keep` from the old, smaller row count, would leave the
  // taller terminal too few lines of the tail (and old screen rows among them): it is parsed.
  it('parses output written right after a resize, and trims later output by the new size', async () => {
    const scrollbackLines = 40
    const panes = new PaneTerminals({ scrollbackLines, sizeOf: () => ({ cols: 30, rows: 8 }) })
    const reference = new Terminal({ cols: 30, rows: 8, scrollback: scrollbackLines, allowProposedApi: true })
    const serializer = new SerializeAddon()
    reference.loadAddon(serializer)
    const before = numbered(0, 20)
    panes.write('alice', before)
    await write(reference, before)
    await panes.scrollback('alice')
    panes.resize('alice', { cols: 30, rows: 30 })
    reference.resize(30, 30)
    const after = numbered(20, 120)
    panes.write('alice', after)
    await write(reference, after)
    expect((await panes.scrollback('alice')).data).toBe(serializer.serialize({ scrollback: scrollbackLines }))
    const later = numbered(120, 300)
    panes.write('alice', later)
    await write(reference, later)
    const sb = await panes.scrollback('alice')
    expect(panes.parseCounts().skippedChars).toBeGreaterThan(0)
    expect([sb.cols, sb.rows]).toEqual([30, 30])
    expect(sb.data).toBe(serializer.serialize({ scrollback: scrollbackLines }))
    panes.dispose()
    reference.dispose()
  })
})
