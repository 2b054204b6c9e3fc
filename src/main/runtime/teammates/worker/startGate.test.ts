import { describe, expect, it } from 'vitest'
import { EventBus } from '../../events/bus'
import { WorkerTeammateExecutor } from './executor'
import { StartGate } from './thread'
import { refusingPrompter, until, useWorkerTestbed } from './worker.testkit'

describe('StartGate', () => {
  it('lets `width` holders through, queues the rest in arrival order, and hands each freed slot to the next in line', async () => {
    const gate = new StartGate(2)
    const order: string[] = []
    const a = await gate.acquire()
    const b = await gate.acquire()
    const c = gate.acquire().then((release) => (order.push('c'), release))
    const d = gate.acquire().then((release) => (order.push('d'), release))
    await new Promise((r) => setTimeout(r, 10))
    expect(order).toEqual([])
    b()
    b() // a second release of the same slot frees nothing more
    const releaseC = await c
    await new Promise((r) => setTimeout(r, 10))
    expect(order).toEqual(['c'])
    a()
    const releaseD = await d
    expect(order).toEqual(['c', 'd'])
    releaseC()
    releaseD()
    // both slots free again: two holders pass at once
    const e = await gate.acquire()
    const f = await gate.acquire()
    e()
    f()
  })
})

describe('WorkerTeammateExecutor start slots', () => {
  const bed = useWorkerTestbed('swarmdesk-start-gate')

  it('with one slot, three teammates spawned at once start one after another and all run; a second spawn of a waiting one is refused', async () => {
    const configs = await bed.prepareTeam(
      'gated',
      Object.fromEntries(['ann', 'ben', 'cat'].map((n) => [n, [{ text: `${n} ready.` }]])),
      'Say that you are ready.'
    )
    const workers = bed.executor({ warmSpare: false, concurrentStarts: 1 })
    const readyOrder: string[] = []
    const spawns = configs.map((c) => workers.spawn(c).then((h) => (readyOrder.push(c.name), h)))
    // cat waits behind ann and ben: spawning her again now is refused, not doubled
    await expect(workers.spawn(configs[2]!)).rejects.toThrow(/already running/)
    const handles = await Promise.all(spawns)
    expect(readyOrder).toEqual(['ann', 'ben', 'cat'])
    await until('all three idle after their turn', () => bed.allIdle('gated', ['ann', 'ben', 'cat']))
    await Promise.all(configs.map((c) => workers.kill(c.agentId)))
    for (const h of handles) expect((await h.exited).status).toBe('killed')
    expect(
      () =>
        new WorkerTeammateExecutor({
          bus: new EventBus(),
          pty: bed.pty,
          prompter: refusingPrompter,
          concurrentStarts: 0
        })
    ).toThrow(/concurrentStarts must be a whole number of at least 1/)
  }, 60_000)
})
