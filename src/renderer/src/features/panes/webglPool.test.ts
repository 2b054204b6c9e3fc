import { describe, expect, it } from 'vitest'
import { MAX_WEBGL_CONTEXTS, WebglContextPool, type WebglHolder } from './webglPool'

function holder(name: string, log: string[]): WebglHolder & { name: string } {
  return { name, releaseWebgl: () => log.push(name) }
}

describe('WebglContextPool', () => {
  it('never holds more than 12 contexts: the 13th visible pane takes the oldest one’s', () => {
    const log: string[] = []
    const pool = new WebglContextPool()
    const panes = Array.from({ length: 16 }, (_, i) => holder(`p${i}`, log))
    for (const p of panes) expect(pool.acquire(p)).toBe(true)
    expect(MAX_WEBGL_CONTEXTS).toBe(12)
    expect(pool.size).toBe(12)
    expect(log).toEqual(['p0', 'p1', 'p2', 'p3'])
    expect(panes.slice(4).every((p) => pool.holds(p))).toBe(true)
  })

  it('evicts the least recently used, not the first acquired', () => {
    const log: string[] = []
    const pool = new WebglContextPool(3)
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => holder(n, log))
    pool.acquire(a!)
    pool.acquire(b!)
    pool.acquire(c!)
    pool.touch(a!) // a printed something
    pool.acquire(b!) // b was shown again
    pool.acquire(d!)
    expect(log).toEqual(['c'])
    expect([a, b, d].every((h) => pool.holds(h!))).toBe(true)
  })

  it('frees a slot when a pane releases (hidden, context lost, disposed) without telling it', () => {
    const log: string[] = []
    const pool = new WebglContextPool(2)
    const [a, b, c] = ['a', 'b', 'c'].map((n) => holder(n, log))
    pool.acquire(a!)
    pool.acquire(b!)
    pool.release(a!)
    pool.acquire(c!)
    expect(log).toEqual([])
    expect(pool.size).toBe(2)
    pool.touch(a!) // no longer a holder: ignored
    expect(pool.holds(a!)).toBe(false)
  })

  it('grants nothing with a capacity of 0 and refuses a bad capacity', () => {
    expect(new WebglContextPool(0).acquire(holder('x', []))).toBe(false)
    expect(() => new WebglContextPool(-1)).toThrow(/capacity/)
  })
})

describe('WebglContextPool, panes waiting after an eviction', () => {
  function waiter(name: string, log: string[]): WebglHolder & { name: string } {
    return { name, releaseWebgl: () => log.push(`lose ${name}`), regainWebgl: () => log.push(`regain ${name}`) }
  }

  it('gives a freed context back to the visible pane evicted last (16 shown, then 12 hidden: the 4 left draw with WebGL)', () => {
    const log: string[] = []
    const pool = new WebglContextPool()
    const panes = Array.from({ length: 16 }, (_, i) => waiter(`p${i}`, log))
    for (const p of panes) pool.acquire(p)
    expect(log).toEqual(['lose p0', 'lose p1', 'lose p2', 'lose p3'])
    expect(pool.waitingCount).toBe(4)
    for (const p of panes.slice(4)) pool.release(p) // hidden with their × buttons
    expect(log.slice(4)).toEqual(['regain p3', 'regain p2', 'regain p1', 'regain p0'])
    expect(panes.slice(0, 4).every((p) => pool.holds(p))).toBe(true)
    expect(pool.size).toBe(4)
    expect(pool.waitingCount).toBe(0)
  })

  it('forgets a waiting pane that is hidden or disposed, and lets a pane that cannot use the context pass it on', () => {
    const log: string[] = []
    const pool = new WebglContextPool(1)
    const a = waiter('a', log)
    const b = waiter('b', log)
    const broken: WebglHolder = { releaseWebgl: () => log.push('lose broken'), regainWebgl: () => pool.release(broken) }
    pool.acquire(a)
    pool.acquire(broken) // evicts a
    pool.acquire(b) // evicts broken
    pool.release(a) // a hidden while waiting: never regains
    pool.release(b) // frees the context: broken is offered it, cannot use it, passes it on (nobody left)
    expect(log).toEqual(['lose a', 'lose broken'])
    expect(pool.size).toBe(0)
    expect(pool.waitingCount).toBe(0)
  })
})
