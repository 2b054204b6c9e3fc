// @vitest-environment happy-dom
import { Terminal as HeadlessTerminal } from '@xterm/headless'
import type { IBuffer } from '@xterm/xterm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PaneTerminals } from '../../../../main/app/panes'
import { INTERRUPTED_PANE_LINE } from '../../../../main/app/restore/startup'
import type { PaneScrollback } from '../../../../shared/ipc'
import type { TerminalSize } from '../../../../shared/terminalSize'
import { MAX_HELD_OFFSCREEN, PaneOwner, SIZE_REPORT_DEBOUNCE_MS, type PaneOwnerDeps } from './PaneOwner'
import { PaneRouter } from './paneRouter'
import { bufferText, createXtermTerminal, type PaneTerminal } from './terminal'
import type { PaneWriter } from './writeScheduler'

/** A terminal that records what the owner does to it. */
class FakeTerminal implements PaneTerminal {
  static live = 0
  out = ''
  fits = 0
  disposed = false
  constructor() {
    FakeTerminal.live++
  }
  /** Parses at once: `done` runs before write returns. */
  write(data: string, done?: () => void) {
    this.out += data
    done?.()
  }
  reset() {
    this.out = ''
  }
  /** What the next fit measures; undefined: the host has no size (hidden, detached). */
  size: TerminalSize | undefined = { cols: 80, rows: 24 }
  fit() {
    this.fits++
    return this.size
  }
  text() {
    return this.out
  }
  dispose() {
    if (!this.disposed) FakeTerminal.live--
    this.disposed = true
  }
}

/** A ResizeObserver whose callback the test triggers. */
class FakeResizeObserver {
  static live = new Set<FakeResizeObserver>()
  constructor(readonly cb: () => void) {}
  observe() {
    FakeResizeObserver.live.add(this)
  }
  unobserve() {}
  disconnect() {
    FakeResizeObserver.live.delete(this)
  }
}

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: Error) => void
  const promise = new Promise<T>((a, b) => {
    resolve = a
    reject = b
  })
  return { promise, resolve, reject }
}

const sb = (data: string, chunk: number): PaneScrollback => ({ agentId: 'team-lead', data, chunk, cols: 80, rows: 24 })
const chunk = (n: number, data = `<${n}>`) => ({ agentId: 'team-lead', data, chunk: n })
const flush = () => new Promise((r) => setTimeout(r, 0))

/** Turns granted the moment they are asked for: a live chunk of a visible pane is written at once. */
const immediateWrites = { request: (w: PaneWriter) => w.takeTurn(), cancel: () => undefined }

function setup(
  fetches: Array<ReturnType<typeof deferred<PaneScrollback>>>,
  options: { visible?: boolean; size?: TerminalSize | undefined; writes?: PaneOwnerDeps['writes'] } = {}
) {
  const router = new PaneRouter()
  let i = 0
  router.setScrollbackFetcher(() => {
    const d = fetches[i++]
    if (!d) throw new Error('unexpected fetch')
    return d.promise
  })
  let term!: FakeTerminal
  const host = document.createElement('div')
  const owner = new PaneOwner(host, 'team-lead', {
    source: router,
    createTerminal: () => {
      term = new FakeTerminal()
      if ('size' in options) term.size = options.size
      return term
    },
    ResizeObserver: FakeResizeObserver as unknown as typeof ResizeObserver,
    fitDebounceMs: 30,
    writes: options.writes ?? immediateWrites,
    ...(options.visible !== undefined ? { visible: options.visible } : {})
  })
  return { router, owner, term, fetched: () => i }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('PaneOwner', () => {
  it('writes nothing while off screen, acknowledges what it holds, and writes it all in order when shown', async () => {
    const first = deferred<PaneScrollback>()
    const { router, owner, term } = setup([first])
    const acks: Array<[string, number]> = []
    router.setAckSender((batch) => acks.push(...batch.map((a): [string, number] => [a.agentId, a.chunk])))
    vi.useFakeTimers()
    first.resolve(sb('S', 1))
    await vi.advanceTimersByTimeAsync(0)
    owner.setVisible(false)
    router.dispatch(chunk(2))
    router.dispatch(chunk(3))
    expect(term.out).toBe('S')
    await vi.advanceTimersByTimeAsync(60)
    expect(acks).toEqual([['team-lead', 3]])
    owner.setVisible(true)
    expect(term.out).toBe('S<2><3>')
    router.dispatch(chunk(4))
    expect(term.out).toBe('S<2><3><4>')
    owner.dispose()
  })

  it('writes live output at its turn, in one write, acknowledging it once written', async () => {
    const turns = new Set<PaneWriter>()
    const writes = { request: (w: PaneWriter) => void turns.add(w), cancel: (w: PaneWriter) => void turns.delete(w) }
    const first = deferred<PaneScrollback>()
    const { router, owner, term } = setup([first], { writes })
    const acks: Array<[string, number]> = []
    router.setAckSender((batch) => acks.push(...batch.map((a): [string, number] => [a.agentId, a.chunk])))
    const written: string[] = []
    term.write = (data: string, done?: () => void) => {
      written.push(data)
      term.out += data
      done?.()
    }
    first.resolve(sb('S', 1))
    await flush()
    router.dispatch(chunk(2))
    router.dispatch(chunk(3))
    expect(term.out).toBe('S')
    expect([...turns]).toEqual([owner])
    ;[...turns][0]!.takeTurn()
    expect(written).toEqual(['S', '<2><3>'])
    expect(turns.size).toBe(0)
    await new Promise((r) => setTimeout(r, 60))
    expect(acks).toEqual([['team-lead', 3]])
    owner.dispose()
  })

  it('drops output waiting for its turn when it restores (the scrollback has it), holds it when hidden, writes it when its text is read, and gives up its turn when disposed', async () => {
    const turns = new Set<PaneWriter>()
    const writes = { request: (w: PaneWriter) => void turns.add(w), cancel: (w: PaneWriter) => void turns.delete(w) }
    const fetches = [deferred<PaneScrollback>(), deferred<PaneScrollback>()]
    const { router, owner, term } = setup(fetches, { writes })
    fetches[0].resolve(sb('S', 1))
    await flush()
    // a gap: the pane restores; <2> waited for its turn and is in the scrollback
    router.dispatch(chunk(2))
    router.dispatch(chunk(4))
    expect(turns.size).toBe(0)
    fetches[1].resolve(sb('S<2><3><4>', 4))
    await flush()
    expect(term.out).toBe('S<2><3><4>')
    // hidden while <5> waits: held, and written on show
    router.dispatch(chunk(5))
    expect(turns.size).toBe(1)
    owner.setVisible(false)
    expect(turns.size).toBe(0)
    expect(term.out).toBe('S<2><3><4>')
    owner.setVisible(true)
    expect(term.out).toBe('S<2><3><4><5>')
    // reading the text writes what waits
    router.dispatch(chunk(6))
    expect(owner.text()).toBe('S<2><3><4><5><6>')
    expect(turns.size).toBe(0)
    router.dispatch(chunk(7))
    expect(turns.size).toBe(1)
    owner.dispose()
    expect(turns.size).toBe(0)
  })

  it('drops output held off screen past the limit and restores from the scrollback on show instead', async () => {
    const fetches = [deferred<PaneScrollback>(), deferred<PaneScrollback>()]
    const { router, owner, term, fetched } = setup(fetches)
    fetches[0].resolve(sb('S', 1))
    await flush()
    owner.setVisible(false)
    const big = 'x'.repeat(MAX_HELD_OFFSCREEN / 2 + 1)
    router.dispatch(chunk(2, big))
    router.dispatch(chunk(3, big))
    router.dispatch(chunk(4, '<4>'))
    expect(term.out).toBe('S')
    expect(fetched()).toBe(1)
    owner.setVisible(true)
    expect(fetched()).toBe(2)
    fetches[1].resolve(sb('S+2+3+4', 4))
    await flush()
    expect(term.out).toBe('S+2+3+4')
    owner.dispose()
  })

  it('gathers the acknowledgements of every pane into one request per interval, the highest chunk of each', async () => {
    vi.useFakeTimers()
    const router = new PaneRouter()
    const requests: Array<Array<{ agentId: string; chunk: number }>> = []
    router.setAckSender((batch) => requests.push(batch))
    for (let n = 1; n <= 3; n++) for (const id of ['a', 'b', 'c']) router.dispatch({ agentId: id, data: 'x', chunk: n })
    await vi.advanceTimersByTimeAsync(60)
    expect(requests).toEqual([
      [
        { agentId: 'a', chunk: 3 },
        { agentId: 'b', chunk: 3 },
        { agentId: 'c', chunk: 3 }
      ]
    ])
  })

  it('acknowledges chunks for an agent no pane shows (hidden or collapsed)', async () => {
    vi.useFakeTimers()
    const router = new PaneRouter()
    const acks: Array<[string, number]> = []
    router.setAckSender((batch) => acks.push(...batch.map((a): [string, number] => [a.agentId, a.chunk])))
    router.dispatch({ agentId: 'hidden', data: 'x', chunk: 7 })
    router.dispatch({ agentId: 'hidden', data: 'y', chunk: 8 })
    await vi.advanceTimersByTimeAsync(60)
    expect(acks).toEqual([['hidden', 8]])
  })

  it('writes the scrollback, then only the chunks after it, in order, including those that came while fetching', async () => {
    const first = deferred<PaneScrollback>()
    const { router, owner, term } = setup([first])
    router.dispatch(chunk(4))
    router.dispatch(chunk(3))
    router.dispatch(chunk(2))
    first.resolve(sb('[1..2]', 2))
    await flush()
    expect(term.out).toBe('[1..2]<3><4>')
    router.dispatch(chunk(4))
    router.dispatch(chunk(5))
    router.dispatch({ ...chunk(6), agentId: 'someone-else' })
    expect(term.out).toBe('[1..2]<3><4><5>')
    expect(owner.lastChunkWritten).toBe(5)
    owner.dispose()
  })

  it('restores again when a chunk is missing, and on a resync', async () => {
    const fetches = [deferred<PaneScrollback>(), deferred<PaneScrollback>(), deferred<PaneScrollback>()]
    const { router, owner, term, fetched } = setup(fetches)
    fetches[0].resolve(sb('A', 1))
    await flush()
    router.dispatch(chunk(3)) // 2 is missing
    expect(fetched()).toBe(2)
    router.dispatch(chunk(4))
    fetches[1].resolve(sb('AB', 2))
    await flush()
    expect(term.out).toBe('AB<3><4>')
    router.resyncAll()
    router.dispatch(chunk(5))
    fetches[2].resolve(sb('ABCDE', 5))
    await flush()
    expect(term.out).toBe('ABCDE')
    owner.dispose()
  })

  it('shows live chunks when there is no scrollback to fetch', async () => {
    const first = deferred<PaneScrollback>()
    const { router, owner, term } = setup([first])
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    router.dispatch(chunk(7))
    first.reject(new Error('down'))
    await flush()
    router.dispatch(chunk(8))
    expect(term.out).toBe('<7><8>')
    owner.dispose()
  })

  it('fits once per burst of resizes', () => {
    vi.useFakeTimers()
    const { owner, term } = setup([deferred()])
    const fitsAfterOpen = term.fits
    const [ro] = [...FakeResizeObserver.live]
    ro.cb()
    ro.cb()
    ro.cb()
    vi.advanceTimersByTime(29)
    expect(term.fits).toBe(fitsAfterOpen)
    vi.advanceTimersByTime(1)
    expect(term.fits).toBe(fitsAfterOpen + 1)
    owner.dispose()
  })

  it('leaves no registration, observer, timer or terminal behind when disposed, and ignores what arrives later', async () => {
    vi.useFakeTimers()
    const first = deferred<PaneScrollback>()
    const { router, owner, term } = setup([first])
    expect(router.size).toBe(1)
    expect(FakeResizeObserver.live.size).toBe(1)
    ;[...FakeResizeObserver.live][0].cb() // a fit pending
    owner.dispose()
    owner.dispose()
    expect(router.size).toBe(0)
    expect(FakeResizeObserver.live.size).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
    expect(term.disposed).toBe(true)
    expect(FakeTerminal.live).toBe(0)
    vi.useRealTimers()
    first.resolve(sb('late', 1))
    await flush()
    router.dispatch(chunk(2))
    expect(term.out).toBe('')
  })

  it('drives a real xterm in happy-dom: restored text, live chunks, soft-wrapped lines joined, nothing left after dispose', async () => {
    const router = new PaneRouter()
    const long = 'x'.repeat(100)
    router.setScrollbackFetcher(async () => sb('\x1b[32mrestored\x1b[0m line\r\n', 1))
    const host = document.createElement('div')
    document.body.append(host)
    const owner = new PaneOwner(host, 'team-lead', { source: router, createTerminal: createXtermTerminal })
    await flush()
    router.dispatch(chunk(2, `live   \r\n${long}\r\n`))
    await vi.waitFor(() => expect(router.text('team-lead')).toBe(`restored line\nlive\n${long}`))
    expect(host.querySelector('.xterm')).not.toBeNull()
    owner.dispose()
    expect(router.size).toBe(0)
    expect(router.text('team-lead')).toBe('')
    host.remove()
  })
})

/**
 * xterm's own engine (headless) behind a pane whose host measures `host` cells: what the page's
 * xterm does with the bytes, without a layout engine to measure the element.
 */
function headlessPane(host: TerminalSize) {
  const term = new HeadlessTerminal({ cols: 80, rows: 24, scrollback: 10_000, allowProposedApi: true })
  const pane: PaneTerminal = {
    write: (data, done) => term.write(data, done),
    reset: () => term.reset(),
    fit: () => {
      term.resize(host.cols, host.rows)
      return { ...host }
    },
    text: () => bufferText(term.buffer.active as unknown as IBuffer),
    currentSize: () => ({ cols: term.cols, rows: term.rows }),
    resize: ({ cols, rows }) => term.resize(cols, rows),
    dispose: () => term.dispose()
  }
  /** The buffer's rows as they are on screen and in scrollback, trailing blanks dropped. */
  const rows = () => {
    const out: string[] = []
    for (let i = 0; i < term.buffer.active.length; i++) out.push(term.buffer.active.getLine(i)!.translateToString(true))
    while (out.length > 0 && out[out.length - 1] === '') out.pop()
    return out
  }
  return { pane, term, rows }
}

describe('PaneOwner restoring a scrollback main serialized at another size', () => {
  const notice = INTERRUPTED_PANE_LINE.replace(/\x1b\[[0-9;]*m/g, '').trim()
  // a teammate interrupted by a restart: its saved output, refilled into main's pane at 120 × 40
  const saved = `${Array.from({ length: 8 }, (_, i) => `carol line ${i}: reading the repository and planning the change`).join('\r\n')}\r\n${INTERRUPTED_PANE_LINE}`

  it.each([
    ['a narrow pane (37 × 12) restoring 120 × 40', { cols: 37, rows: 12 }],
    ['a wide pane (160 × 50) restoring 120 × 40', { cols: 160, rows: 50 }]
  ])('%s: the restored rows stay whole and the resumed output starts on a row of its own', async (_, host) => {
    const main = new PaneTerminals()
    main.restore('carol@team', saved)
    const router = new PaneRouter()
    router.setScrollbackFetcher((id) => main.scrollback(id))
    const sizes: TerminalSize[] = []
    router.setSizeSender((_, size) => sizes.push(size))
    const xterm = headlessPane(host)
    const owner = new PaneOwner(document.createElement('div'), 'carol@team', {
      source: router,
      createTerminal: () => xterm.pane,
      sizeReportDebounceMs: 0
    })
    await vi.waitFor(() => expect(owner.text()).toContain(notice))
    router.dispatch({ agentId: 'carol@team', data: 'carol Done.\r\n', chunk: 2 })
    await vi.waitFor(() => expect(owner.text()).toContain('carol Done.'))
    const text = owner.text().split('\n')
    expect(text.slice(-3)).toEqual(['', notice, 'carol Done.'])
    expect(text.filter((l) => l.startsWith('carol line'))).toHaveLength(8)
    expect(xterm.rows().at(-1)).toBe('carol Done.')
    expect(xterm.rows().every((r) => r.length <= host.cols)).toBe(true)
    // refitted to its host after the restore, and that size went to main
    expect(xterm.pane.currentSize!()).toEqual(host)
    await vi.waitFor(() => expect(sizes.at(-1)).toEqual(host))
    owner.dispose()
    main.dispose()
  })

  it("restores as before when main serialized it at the pane's own size", async () => {
    const main = new PaneTerminals()
    main.restore('carol@team', saved)
    main.resize('carol@team', { cols: 37, rows: 12 })
    const router = new PaneRouter()
    router.setScrollbackFetcher((id) => main.scrollback(id))
    const xterm = headlessPane({ cols: 37, rows: 12 })
    const resize = vi.spyOn(xterm.pane, 'resize')
    const owner = new PaneOwner(document.createElement('div'), 'carol@team', {
      source: router,
      createTerminal: () => xterm.pane
    })
    await vi.waitFor(() => expect(owner.text()).toContain(notice))
    router.dispatch({ agentId: 'carol@team', data: 'carol Done.\r\n', chunk: 2 })
    await vi.waitFor(() => expect(owner.text().split('\n').slice(-2)).toEqual([notice, 'carol Done.']))
    expect(resize).not.toHaveBeenCalled()
    owner.dispose()
    main.dispose()
  })
})

describe('PaneOwner size reports (pane.resize)', () => {
  /** A pane whose sizes reach `sent` through a router, as the wiring's sender would send them. */
  function sized(options: Parameters<typeof setup>[1] = {}) {
    vi.useFakeTimers()
    const sent: Array<[string, TerminalSize]> = []
    const t = setup([deferred(), deferred()], options)
    t.router.setSizeSender((id, size) => sent.push([id, size]))
    const resizeTo = (size: TerminalSize | undefined) => {
      t.term.size = size
      ;[...FakeResizeObserver.live][0]!.cb()
    }
    return { ...t, sent, resizeTo }
  }

  it('reports its size once after it first fits, when it has been quiet for the debounce', async () => {
    const { owner, sent, router } = sized()
    await vi.advanceTimersByTimeAsync(SIZE_REPORT_DEBOUNCE_MS - 1)
    expect(sent).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(sent).toEqual([['team-lead', { cols: 80, rows: 24 }]])
    await vi.advanceTimersByTimeAsync(1000)
    expect(sent).toHaveLength(1)
    expect(router.reportedSize('team-lead')).toEqual({ cols: 80, rows: 24 })
    owner.dispose()
    expect(router.reportedSize('team-lead')).toBeUndefined()
  })

  it('sends one size for a splitter drag of many fits: where it stopped', async () => {
    const { owner, sent, term, resizeTo } = sized()
    await vi.advanceTimersByTimeAsync(SIZE_REPORT_DEBOUNCE_MS)
    sent.length = 0
    const fitsBefore = term.fits
    for (let i = 1; i <= 60; i++) {
      resizeTo({ cols: 80 + i, rows: 24 + (i % 3) })
      // a frame every 40 ms: each refits the pane (30 ms debounce) but none is quiet long enough to report
      await vi.advanceTimersByTimeAsync(40)
    }
    expect(term.fits - fitsBefore).toBe(60)
    expect(sent).toEqual([])
    await vi.advanceTimersByTimeAsync(SIZE_REPORT_DEBOUNCE_MS)
    expect(sent).toEqual([['team-lead', { cols: 140, rows: 24 }]])
    // fits that measure the same size send nothing more; a drag back to where it was neither
    resizeTo({ cols: 140, rows: 24 })
    await vi.advanceTimersByTimeAsync(500)
    resizeTo({ cols: 100, rows: 24 })
    await vi.advanceTimersByTimeAsync(40)
    resizeTo({ cols: 140, rows: 24 })
    await vi.advanceTimersByTimeAsync(500)
    expect(sent).toHaveLength(1)
    owner.dispose()
  })

  it('sends nothing for a pane off screen, even as it resizes, and its size once shown', async () => {
    const { owner, sent, resizeTo } = sized({ visible: false })
    resizeTo({ cols: 90, rows: 30 })
    await vi.advanceTimersByTimeAsync(1000)
    resizeTo({ cols: 91, rows: 30 })
    await vi.advanceTimersByTimeAsync(1000)
    expect(sent).toEqual([])
    owner.setVisible(true)
    await vi.advanceTimersByTimeAsync(30 + SIZE_REPORT_DEBOUNCE_MS)
    expect(sent).toEqual([['team-lead', { cols: 91, rows: 30 }]])
    owner.dispose()
  })

  it('drops a size waiting to be sent when the pane leaves the screen, and sends nothing for a host with no size', async () => {
    const { owner, sent, resizeTo } = sized()
    owner.setVisible(false)
    await vi.advanceTimersByTimeAsync(1000)
    expect(sent).toEqual([])
    // shown again, but hidden by CSS: nothing to measure
    resizeTo(undefined)
    owner.setVisible(true)
    await vi.advanceTimersByTimeAsync(1000)
    expect(sent).toEqual([])
    resizeTo({ cols: 70, rows: 20 })
    await vi.advanceTimersByTimeAsync(1000)
    expect(sent).toEqual([['team-lead', { cols: 70, rows: 20 }]])
    owner.dispose()
  })

  it("reports its size again after a resync (main may have restarted), and never past main's bounds", async () => {
    const { owner, sent, router, resizeTo } = sized()
    await vi.advanceTimersByTimeAsync(SIZE_REPORT_DEBOUNCE_MS)
    router.resyncAll()
    await vi.advanceTimersByTimeAsync(30 + SIZE_REPORT_DEBOUNCE_MS)
    expect(sent).toEqual([
      ['team-lead', { cols: 80, rows: 24 }],
      ['team-lead', { cols: 80, rows: 24 }]
    ])
    resizeTo({ cols: 5000, rows: 3000 })
    await vi.advanceTimersByTimeAsync(1000)
    expect(sent.at(-1)).toEqual(['team-lead', { cols: 2000, rows: 1000 }])
    owner.dispose()
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('PaneRouter', () => {
  it('counts registrations per pane and forgets them when disposed', () => {
    const router = new PaneRouter()
    const got: string[] = []
    const sub = (name: string) => ({
      onData: (c: { data: string }) => got.push(`${name}:${c.data}`),
      onResync: () => got.push(`${name}:resync`),
      text: () => name
    })
    const a = router.register('a', sub('a'))
    const b = router.register('b', sub('b'))
    expect(router.size).toBe(2)
    router.dispatch({ agentId: 'a', data: '1', chunk: 1 })
    router.resyncAll()
    expect(got).toEqual(['a:1', 'a:resync', 'b:resync'])
    expect(router.text('b')).toBe('b')
    a.dispose()
    a.dispose()
    b.dispose()
    expect(router.size).toBe(0)
  })
})
