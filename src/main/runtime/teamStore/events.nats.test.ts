import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../../shared/events'
import { useNatsStores } from './natsStores.testkit'

// A teammate's events kept by the server (docs/nats.md#a-teammates-events): a follower that starts
// later replays from a position, and one whose server dies and comes back on its store goes on
// where it left off, every event once, in order.

const on = useNatsStores(['publisher', 'follower'])

const note = (n: number): RuntimeEvent => ({
  type: 'notice',
  level: 'info',
  message: `event ${n}`,
  seq: n,
  time: new Date().toISOString(),
  agentId: 'ann@ev',
  agentName: 'ann'
})
const numbers = (got: Array<{ event: RuntimeEvent }>) =>
  got.map((g) => Number((g.event as { message: string }).message.split(' ')[1]))
const until = async (what: string, done: () => boolean): Promise<void> => {
  const deadline = Date.now() + 60_000
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

describe("a teammate's events on a server (docs/nats.md#a-teammates-events)", () => {
  it('gives a follower each event from now on once, in order; a later follower replays from a position it was given', async () => {
    const got: Array<{ event: RuntimeEvent; position: number }> = []
    const sub = on.follower.events.follow('ev', 'ann', (event, position) => got.push({ event, position }))
    await sub.ready
    for (const n of range(1, 10)) on.publisher.events.publish('ev', 'ann', note(n))
    // another teammate's events are not ann's
    on.publisher.events.publish('ev', 'bob', note(99))
    await until('ten events', () => got.length >= 10)
    sub.dispose()
    expect(numbers(got)).toEqual(range(1, 10))

    // a follower that starts later, after the fourth position it was given, gets the rest
    const later: typeof got = []
    const again = on.follower.events.follow('ev', 'ann', (event, position) => later.push({ event, position }), {
      after: got[3]!.position
    })
    await again.ready
    await until('the rest', () => later.length >= 6)
    again.dispose()
    expect(numbers(later)).toEqual(range(5, 10))
  })

  it('goes on where it left off when the server is killed with -9 and restarted on its store: every event once', async () => {
    const got: Array<{ event: RuntimeEvent; position: number }> = []
    const sub = on.follower.events.follow('ev2', 'ann', (event, position) => got.push({ event, position }))
    await sub.ready
    for (const n of range(1, 20)) on.publisher.events.publish('ev2', 'ann', note(n))
    await until('the first twenty', () => got.length >= 20)
    await on.server.kill9()
    await on.server.restart()
    // sent as the publisher's connection comes back; the follower's consumer is made again
    for (const n of range(21, 40)) on.publisher.events.publish('ev2', 'ann', note(n))
    await until('all forty', () => numbers(got).includes(40))
    sub.dispose()
    expect(numbers(got)).toEqual(range(1, 40))
    expect(new Set(got.map((g) => g.position)).size).toBe(got.length)
  }, 90_000)
})
