import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PANE_FLUSH_INTERVAL_MS, PANE_TOTAL_HIGH_WATER_BYTES, PaneBatcher, type PaneBatcherSink } from './paneBatcher'

/** A sink recording what a renderer would receive, numbered per pane like PaneTerminals. */
function recordingSink() {
  const chunks: Array<{ agentId: string; data: string; chunk: number; at: number }> = []
  const numbers = new Map<string, number>()
  const events: string[] = []
  const sink: PaneBatcherSink = {
    flush(agentId, data) {
      const chunk = (numbers.get(agentId) ?? 0) + 1
      numbers.set(agentId, chunk)
      chunks.push({ agentId, data, chunk, at: Date.now() })
      return chunk
    },
    pause: (agentId) => events.push(`pause ${agentId}`),
    resume: (agentId) => events.push(`resume ${agentId}`)
  }
  return { sink, chunks, events }
}

/** Deterministic coloured output of `n` bytes-ish, different for every piece. */
function piece(i: number, size: number): string {
  const head = `\x1b[3${i % 8}m#${i}:`
  return (head + 'x'.repeat(Math.max(0, size - head.length - 4)) + '\x1b[0m').slice(0, size)
}

describe('PaneBatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('coalesces a burst into one chunk and never flushes a pane more than 60 times a second', async () => {
    const { sink, chunks } = recordingSink()
    const batcher = new PaneBatcher(sink, { now: () => Date.now() })
    const sent: string[] = []
    // 3 s of output: a write every millisecond.
    for (let ms = 0; ms < 3000; ms++) {
      const data = `line ${ms}\r\n`
      sent.push(data)
      batcher.write('alice', data)
      await vi.advanceTimersByTimeAsync(1)
    }
    await vi.advanceTimersByTimeAsync(100)
    expect(chunks.map((c) => c.data).join('')).toBe(sent.join(''))
    // the grid's ticks are an interval apart; timers fire on whole milliseconds, so two flushes may
    // come up to 1 ms closer than the interval, never more
    for (let i = 1; i < chunks.length; i++)
      expect(chunks[i]!.at - chunks[i - 1]!.at).toBeGreaterThanOrEqual(PANE_FLUSH_INTERVAL_MS - 1)
    // every one-second window holds at most 60 flushes
    for (const c of chunks)
      expect(chunks.filter((d) => d.at >= c.at && d.at < c.at + 1000).length).toBeLessThanOrEqual(60)
    expect(chunks.length).toBeGreaterThan(100)
    batcher.dispose()
  })

  it('sends a lone write after a quiet interval on the next macrotask, not a frame later', async () => {
    const { sink, chunks } = recordingSink()
    const batcher = new PaneBatcher(sink, { now: () => Date.now() })
    batcher.write('team-lead', 'hello\r\n')
    expect(chunks).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(0)
    expect(chunks.map((c) => c.data)).toEqual(['hello\r\n'])
    batcher.dispose()
  })

  it('flushes busy panes together on one tick, whenever each of them wrote', async () => {
    const { sink, chunks } = recordingSink()
    const batcher = new PaneBatcher(sink, { now: () => Date.now() })
    const ids = Array.from({ length: 16 }, (_, i) => `p${i}`)
    // 1 s of output: pane i writes at every millisecond ≡ i (mod 16), so no two panes write together
    for (let ms = 0; ms < 1000; ms++) {
      batcher.write(ids[ms % 16]!, `${ms};`)
      await vi.advanceTimersByTimeAsync(1)
    }
    await vi.advanceTimersByTimeAsync(100)
    for (const [i, id] of ids.entries()) {
      const mine = chunks.filter((c) => c.agentId === id)
      expect(mine.map((c) => c.data).join('')).toBe(
        Array.from({ length: 1000 / 16 + 1 }, (_, k) => k * 16 + i)
          .filter((ms) => ms < 1000)
          .map((ms) => `${ms};`)
          .join('')
      )
    }
    // After each pane's first (quiet) flush and the tick or two in which the panes join the grid,
    // flushes come in ticks shared by the panes with output.
    const times = new Map<number, number>()
    for (const c of chunks.slice(16)) times.set(c.at, (times.get(c.at) ?? 0) + 1)
    const ticks = [...times.values()].slice(2)
    expect(ticks.length).toBeGreaterThan(50)
    expect(ticks.every((n) => n >= 14)).toBe(true)
    batcher.dispose()
  })

  it('keeps panes apart: each pane has its own chunks and its own rate', async () => {
    const { sink, chunks } = recordingSink()
    const batcher = new PaneBatcher(sink, { now: () => Date.now() })
    for (let i = 0; i < 50; i++) {
      batcher.write('a', `a${i};`)
      batcher.write('b', `b${i};`)
      await vi.advanceTimersByTimeAsync(2)
    }
    batcher.flushAll()
    const text = (id: string) =>
      chunks
        .filter((c) => c.agentId === id)
        .map((c) => c.data)
        .join('')
    expect(text('a')).toBe(Array.from({ length: 50 }, (_, i) => `a${i};`).join(''))
    expect(text('b')).toBe(Array.from({ length: 50 }, (_, i) => `b${i};`).join(''))
    expect(chunks.filter((c) => c.agentId === 'a').map((c) => c.chunk)).toEqual(
      chunks.filter((c) => c.agentId === 'a').map((_, i) => i + 1)
    )
    batcher.dispose()
  })

  it('delivers every byte in order to a slow renderer, pausing the producer above the high-water mark and resuming below the low one', async () => {
    const { sink, chunks, events } = recordingSink()
    const HIGH = 1 << 20
    const LOW = 256 << 10
    const batcher = new PaneBatcher(sink, { now: () => Date.now(), highWaterBytes: HIGH, lowWaterBytes: LOW })
    // The renderer: processes 40 KB every 10 ms (4 MB/s) and acknowledges what it finished.
    let consumed = 0
    let offset = 0
    let received = ''
    let maxUnacked = 0
    batcher.ack('pty', 0) // a renderer is attached
    const consume = () => {
      let budget = 40 << 10
      while (consumed < chunks.length && budget > 0) {
        const c = chunks[consumed]!
        const take = Math.min(budget, c.data.length - offset)
        offset += take
        budget -= take
        if (offset === c.data.length) {
          received += c.data
          batcher.ack(c.agentId, c.chunk)
          consumed++
          offset = 0
        }
      }
    }
    // The producer: a PTY that writes 16 KB per millisecond (16 MB/s) unless paused, 16 MB in all.
    const produced: string[] = []
    let paused = false
    const onEvent = events.push.bind(events)
    events.push = (...e: string[]) => {
      for (const x of e) paused = x.startsWith('pause')
      return onEvent(...e)
    }
    const total = 16 << 20
    let sentBytes = 0
    let i = 0
    let tick = 0
    while (received.length < total) {
      if (!paused && sentBytes < total) {
        const data = piece(i++, 16 << 10)
        produced.push(data)
        sentBytes += data.length
        batcher.write('pty', data)
      }
      await vi.advanceTimersByTimeAsync(1)
      if (++tick % 10 === 0) consume()
      maxUnacked = Math.max(maxUnacked, batcher.unackedBytes('pty'))
      if (tick > 100_000) throw new Error('the slow-consumer run did not finish')
    }
    expect(received.length).toBe(total)
    expect(received).toBe(produced.join(''))
    const pauses = events.filter((e) => e === 'pause pty').length
    const resumes = events.filter((e) => e === 'resume pty').length
    expect(pauses).toBeGreaterThan(1)
    expect(resumes).toBe(pauses)
    expect(events.every((e, k) => e === (k % 2 === 0 ? 'pause pty' : 'resume pty'))).toBe(true)
    // A paused producer stops within one flush's worth of output above the mark: at most two
    // intervals (a pane that flushed after a quiet spell joins the grid at its next tick a whole interval on).
    expect(maxUnacked).toBeLessThan(HIGH + (16 << 10) * Math.ceil(2 * PANE_FLUSH_INTERVAL_MS + 1))
    batcher.dispose()
  })

  it('never pauses when no renderer acknowledges (CLI, unopened web host)', async () => {
    const { sink, events, chunks } = recordingSink()
    const batcher = new PaneBatcher(sink, { now: () => Date.now() })
    for (let i = 0; i < 200; i++) {
      batcher.write('x', piece(i, 64 << 10))
      await vi.advanceTimersByTimeAsync(20)
    }
    expect(events).toEqual([])
    expect(chunks.reduce((n, c) => n + c.data.length, 0)).toBe(200 * (64 << 10))
    batcher.dispose()
  })

  it('resumes a paused pane whose renderer stopped acknowledging, after the stall time', async () => {
    const { sink, events } = recordingSink()
    const batcher = new PaneBatcher(sink, {
      now: () => Date.now(),
      highWaterBytes: 1000,
      lowWaterBytes: 100,
      stallMs: 5000
    })
    batcher.ack('x', 0)
    batcher.write('x', 'y'.repeat(2000))
    await vi.advanceTimersByTimeAsync(20)
    expect(events).toEqual(['pause x'])
    expect(batcher.isPaused('x')).toBe(true)
    await vi.advanceTimersByTimeAsync(5000)
    expect(events).toEqual(['pause x', 'resume x'])
    expect(batcher.unackedBytes('x')).toBe(0)
    batcher.dispose()
  })

  it('bounds what all panes together leave unacknowledged: 16 busy panes wait once 2 MiB is out, and every byte arrives in order', async () => {
    const { sink, chunks, events } = recordingSink()
    const TOTAL_HIGH = PANE_TOTAL_HIGH_WATER_BYTES
    expect(TOTAL_HIGH).toBe(2 << 20)
    const batcher = new PaneBatcher(sink, { now: () => Date.now() })
    const ids = Array.from({ length: 16 }, (_, i) => `p${i}`)
    const paused = new Set<string>()
    const onEvent = events.push.bind(events)
    events.push = (...e: string[]) => {
      for (const x of e) {
        const [what, id] = x.split(' ')
        if (what === 'pause') paused.add(id!)
        else paused.delete(id!)
      }
      return onEvent(...e)
    }
    batcher.ack('p0', 0) // a renderer is attached
    const produced = new Map<string, string>()
    const received = new Map<string, string>()
    let consumed = 0
    let maxTotal = 0
    // 16 PTYs writing 8 KB per ms each unless paused, 1 MiB each; a renderer taking 2 MB/s over all panes.
    for (
      let tick = 0;
      [...produced.values()].reduce((n, t) => n + t.length, 0) < 16 << 20 || consumed < chunks.length;
      tick++
    ) {
      for (const [i, id] of ids.entries()) {
        const sent = produced.get(id) ?? ''
        if (paused.has(id) || sent.length >= 1 << 20) continue
        const data = piece(tick * 16 + i, 8 << 10)
        produced.set(id, sent + data)
        batcher.write(id, data)
      }
      await vi.advanceTimersByTimeAsync(1)
      if (tick % 10 === 0) {
        let budget = 20 << 10
        while (consumed < chunks.length && budget > 0) {
          const c = chunks[consumed++]!
          budget -= c.data.length
          received.set(c.agentId, (received.get(c.agentId) ?? '') + c.data)
          batcher.ack(c.agentId, c.chunk)
        }
      }
      maxTotal = Math.max(maxTotal, batcher.totalUnackedBytes)
      if (tick > 200_000) throw new Error('the 16-pane run did not finish')
    }
    for (const id of ids) expect(received.get(id) === produced.get(id)).toBe(true)
    // Each pane alone stays under its own 1 MiB mark here, so only the total held them back.
    expect(events.filter((e) => e.startsWith('pause')).length).toBeGreaterThan(16)
    // Paused within one flush of every pane past the mark. A flush holds at most two intervals of
    // output (a pane that flushed after a quiet spell joins the grid at its next tick a whole interval on).
    expect(maxTotal).toBeLessThan(TOTAL_HIGH + 16 * (8 << 10) * Math.ceil(2 * PANE_FLUSH_INTERVAL_MS + 1))
    expect(batcher.totalUnackedBytes).toBe(0)
    batcher.dispose()
  })

  it('keeps a pane paused while a slow renderer acknowledges other panes, however long it waits; resumes all only once nothing is acknowledged for the stall time', async () => {
    const { sink, events, chunks } = recordingSink()
    const batcher = new PaneBatcher(sink, {
      now: () => Date.now(),
      highWaterBytes: 1000,
      lowWaterBytes: 100,
      stallMs: 5000
    })
    batcher.ack('x', 0)
    batcher.write('x', 'y'.repeat(2000))
    await vi.advanceTimersByTimeAsync(20)
    expect(events).toEqual(['pause x'])
    // 20 s in which the renderer works through another pane's output, acknowledging it every second.
    for (let s = 0; s < 20; s++) {
      batcher.write('z', `line ${s}\r\n`)
      await vi.advanceTimersByTimeAsync(1000)
      batcher.ack('z', chunks.filter((c) => c.agentId === 'z').length)
    }
    expect(batcher.isPaused('x')).toBe(true)
    expect(events).toEqual(['pause x'])
    await vi.advanceTimersByTimeAsync(5000) // now nothing at all is acknowledged: the renderer is gone
    expect(events).toEqual(['pause x', 'resume x'])
    expect(batcher.totalUnackedBytes).toBe(0)
    batcher.dispose()
  })

  it('does not count a chunk that was acknowledged while it was being handed out', async () => {
    let n = 0
    const batcher: PaneBatcher = new PaneBatcher(
      {
        flush: (agentId) => {
          n++
          batcher!.ack(agentId, n) // a web host with no page open acknowledges at once
          return n
        },
        pause: () => undefined,
        resume: () => undefined
      },
      { now: () => Date.now(), highWaterBytes: 10, lowWaterBytes: 5 }
    )
    batcher.write('x', 'abcdefghijklmnopqrstuvwxyz')
    await vi.advanceTimersByTimeAsync(20)
    expect(batcher.unackedBytes('x')).toBe(0)
    expect(batcher.isPaused('x')).toBe(false)
    batcher.dispose()
  })

  it('flushes what is queued and resumes paused panes on dispose', async () => {
    const { sink, events, chunks } = recordingSink()
    const batcher = new PaneBatcher(sink, { now: () => Date.now(), highWaterBytes: 10, lowWaterBytes: 5 })
    batcher.ack('x', 0)
    batcher.write('x', 'abcdefghijklmnop')
    await vi.advanceTimersByTimeAsync(1)
    batcher.write('x', 'tail')
    batcher.dispose()
    expect(chunks.map((c) => c.data).join('')).toBe('abcdefghijklmnoptail')
    expect(events).toEqual(['pause x', 'resume x'])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('refuses a low-water mark above the high-water mark', () => {
    expect(() => new PaneBatcher(recordingSink().sink, { highWaterBytes: 10, lowWaterBytes: 20 })).toThrow(
      /lowWaterBytes/
    )
  })
})
