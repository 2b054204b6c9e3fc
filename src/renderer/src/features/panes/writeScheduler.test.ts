import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  FALLBACK_MS,
  ON_TIME_FRAMES_TO_GROW,
  PaneWriteScheduler,
  WATCH_FRAMES,
  type FrameSource,
  type PaneWriter
} from './writeScheduler'

/** Animation frames the test produces: `frame(at)` runs the waiting callbacks with time `at`. */
function fakeFrames() {
  let next = 1
  const callbacks = new Map<number, (time: number) => void>()
  let clock = 0
  const source: FrameSource = {
    request: (cb) => {
      callbacks.set(next, cb)
      return next++
    },
    cancel: (h) => void callbacks.delete(h),
    now: () => clock
  }
  return {
    source,
    get requested() {
      return callbacks.size
    },
    /** A frame at `at` ms (the clock moves there first). */
    frame(at: number) {
      clock = at
      const due = [...callbacks.values()]
      callbacks.clear()
      for (const cb of due) cb(at)
    },
    setClock: (at: number) => void (clock = at)
  }
}

/** A pane that records its turns in `log` and asks again for one each time `busy` says so. */
function pane(name: string, log: string[], scheduler: PaneWriteScheduler, busy = () => false): PaneWriter {
  const writer: PaneWriter = {
    takeTurn: () => {
      log.push(name)
      if (busy()) scheduler.request(writer)
    }
  }
  return writer
}

describe('PaneWriteScheduler', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('gives at most perFrame panes a turn per frame, longest waiting first, and a pane once however often it asks', () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 2 })
    const log: string[] = []
    const [a, b, c] = ['a', 'b', 'c'].map((n) => pane(n, log, s))
    s.request(a!)
    s.request(b!)
    s.request(a!)
    s.request(c!)
    expect(frames.requested).toBe(1)
    frames.frame(16)
    expect(log).toEqual(['a', 'b'])
    expect(s.pending).toBe(1)
    s.request(a!)
    frames.frame(32)
    expect(log).toEqual(['a', 'b', 'c', 'a'])
    // it watches the frames that follow, then stops asking for them
    for (let i = 1; i < WATCH_FRAMES; i++) frames.frame(32 + 16 * i)
    expect(frames.requested).toBe(1)
    frames.frame(32 + 16 * WATCH_FRAMES)
    expect(frames.requested).toBe(0)
    expect(log).toHaveLength(4)
  })

  it('halves the panes per frame after a late frame, down to the minimum, and grows by one after a run of on-time frames that left panes waiting', () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 8, minPerFrame: 1 })
    const log: string[] = []
    // 16 panes that always have output again after their turn
    for (let i = 0; i < 16; i++) s.request(pane(`p${i}`, log, s, () => true))
    let t = 0
    const frame = (gap: number) => frames.frame((t += gap))
    frame(16.7)
    frame(16.7)
    expect(s.perFrame).toBe(8)
    frame(50) // late: three periods
    expect(s.perFrame).toBe(4)
    frame(40)
    frame(40)
    frame(40)
    expect(s.perFrame).toBe(1)
    for (let i = 0; i < ON_TIME_FRAMES_TO_GROW - 1; i++) frame(16.7)
    expect(s.perFrame).toBe(1)
    frame(16.7)
    expect(s.perFrame).toBe(2)
    // every pane got turns in order: the first 16 turns are the 16 panes once each
    expect(new Set(log.slice(0, 16)).size).toBe(16)
    // one frame asked for at a time, though the panes ask again during their turns
    expect(frames.requested).toBe(1)
  })

  it('probes a budget that made a frame late far less often than it grows below it', () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 1 })
    const log: string[] = []
    for (let i = 0; i < 4; i++) s.request(pane(`p${i}`, log, s, () => true))
    // 2 panes a frame fit; a frame after 3 or more turns comes late
    let t = 0
    let late = 0
    let lastTurns = 0
    for (let i = 0; i < 1200; i++) {
      const gap = lastTurns >= 3 ? 33.4 : 16.7
      if (gap > 20) late++
      const before = log.length
      frames.frame((t += gap))
      lastTurns = log.length - before
    }
    // one late frame per probe of 3, every ~64 frames (without the ceiling: every ~33)
    expect(late).toBeLessThanOrEqual(21)
    expect(late).toBeGreaterThan(0)
    expect(s.perFrame).toBeLessThanOrEqual(3)
    expect(log.length).toBeGreaterThan(1200 * 1.8)
  })

  it('does not grow while every waiting pane gets its turn (the budget is not what limits the frames)', () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 4 })
    const log: string[] = []
    const a = pane('a', log, s)
    let t = 0
    for (let i = 0; i < 3 * ON_TIME_FRAMES_TO_GROW; i++) {
      s.request(a)
      frames.frame((t += 16.7))
    }
    expect(s.perFrame).toBe(4)
    expect(log).toHaveLength(3 * ON_TIME_FRAMES_TO_GROW)
  })

  it('judges no gap after an idle spell: a request once the watching ended starts afresh', () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 4 })
    const log: string[] = []
    const a = pane('a', log, s)
    s.request(a)
    let t = 16.7
    frames.frame(t)
    for (let i = 0; i < WATCH_FRAMES; i++) frames.frame((t += 16.7))
    expect(frames.requested).toBe(0)
    frames.setClock(1000)
    s.request(a)
    frames.frame(1016.7)
    expect(s.perFrame).toBe(4)
    expect(log).toEqual(['a', 'a'])
  })

  it('does not judge the gap of a window that was hidden: the frame watched before comes when it shows again', () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 4 })
    const log: string[] = []
    const a = pane('a', log, s)
    s.request(a)
    frames.frame(16.7)
    frames.frame(33.4)
    // hidden for a minute: the watched frame requested at 33.4 comes at 60 s
    frames.frame(60_033.4)
    expect(s.perFrame).toBe(4)
    s.request(a)
    frames.frame(60_050.1)
    expect(s.perFrame).toBe(4)
    expect(log).toEqual(['a', 'a'])
  })

  it('judges the frames between two messages of output: a frame made late while nobody waited still halves the budget', () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 8 })
    const log: string[] = []
    const panes = Array.from({ length: 4 }, (_, i) => pane(`p${i}`, log, s))
    let t = 0
    for (let i = 0; i < 4; i++) {
      // a message of output for every pane lands 12 ms after a frame (more than half a period),
      // and the frame after the turns comes late: 2 periods
      frames.setClock(t + 12)
      for (const p of panes) s.request(p)
      frames.frame((t += 16.7))
      frames.frame((t += 33.4))
    }
    expect(s.perFrame).toBe(1)
    // what is left waiting is written at the frames that follow, one pane a frame
    const left = s.pending
    expect(left).toBeGreaterThan(0)
    for (let i = 0; i < left; i++) frames.frame((t += 16.7))
    expect(s.pending).toBe(0)
    expect(new Set(log)).toEqual(new Set(['p0', 'p1', 'p2', 'p3']))
  })

  it('still judges frames while output keeps coming though every pane gets its turn: slow frames shrink a budget that is too large', () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 32 })
    const log: string[] = []
    const panes = Array.from({ length: 16 }, (_, i) => pane(`p${i}`, log, s))
    let t = 0
    for (let i = 0; i < 4; i++) {
      // output arrives right after each frame (a WebSocket message), for all 16 panes
      frames.setClock(t + 1)
      for (const p of panes) s.request(p)
      frames.frame((t += 33.4))
    }
    expect(s.perFrame).toBeLessThan(16)
  })

  it('writes everything waiting on a timer when no frame comes (a hidden window), and stops waiting once nothing is left', async () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 1 })
    const log: string[] = []
    for (const n of ['a', 'b', 'c']) s.request(pane(n, log, s))
    await vi.advanceTimersByTimeAsync(FALLBACK_MS - 1)
    expect(log).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(log).toEqual(['a', 'b', 'c'])
    expect(frames.requested).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
    // frames come again: a request is served at the next one
    s.request(pane('d', log, s))
    frames.frame(FALLBACK_MS + 16.7)
    expect(log).toEqual(['a', 'b', 'c', 'd'])
  })

  it('keeps the fallback off while frames come', async () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 1 })
    const log: string[] = []
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) s.request(pane(n, log, s))
    let t = 0
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(FALLBACK_MS - 10)
      frames.frame((t += 16.7))
    }
    expect(log).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  it('forgets a cancelled pane, and a pane whose turn throws does not stop the others', () => {
    const frames = fakeFrames()
    const s = new PaneWriteScheduler({ frames: frames.source, initialPerFrame: 8 })
    const log: string[] = []
    const a = pane('a', log, s)
    const broken: PaneWriter = {
      takeTurn: () => {
        throw new Error('boom')
      }
    }
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    s.request(a)
    s.cancel(a)
    expect(vi.getTimerCount()).toBe(0)
    s.request(broken)
    s.request(a)
    frames.frame(16.7)
    expect(log).toEqual(['a'])
    expect(error).toHaveBeenCalledOnce()
    error.mockRestore()
  })

  it('refuses bounds that cannot hold', () => {
    expect(() => new PaneWriteScheduler({ minPerFrame: 0 })).toThrow(RangeError)
    expect(() => new PaneWriteScheduler({ minPerFrame: 4, maxPerFrame: 2 })).toThrow(RangeError)
  })
})
