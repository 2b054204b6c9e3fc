import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../../shared/events'
import { useNatsStores } from './natsStores.testkit'

// Followers through a nats-server that stays away a few seconds (docs/nats.md#a-server-restart):
// killed with -9, restarted on its store 4 s later. What a teammate publishes and sends during the
// gap, and then every half second for 6 s, reaches the follower once, in order, and soon.
//
// The bounds are correctness bounds, not speed checks: the docs promise a follower back within
// about 5 s, and a leader that hears a teammate's work later than its quiet check thinks the team
// idle and shuts it down mid-task. What was sent during the gap must arrive within 8 s of the
// restart, and what was sent after it within 4 s of its send (delivery is milliseconds; 4 s is room
// for a loaded machine). Before the follow made its consumer again on the reconnect, the client's
// re-made ordered consumer pulled one message and then nothing until its pull expired and two idle
// heartbeats (2.5 s each) were missed: 5–12.5 s of silence after the first message back.
const GAP_BOUND_MS = 8_000
const SEND_BOUND_MS = 4_000
const GAP_MS = 4_000

const on = useNatsStores(['teammate', 'leader'])

const note = (n: number): RuntimeEvent => ({
  type: 'notice',
  level: 'info',
  message: `event ${n}`,
  seq: n,
  time: new Date().toISOString(),
  agentId: 'ann@gap',
  agentName: 'ann'
})
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const until = async (what: string, done: () => boolean): Promise<void> => {
  const deadline = Date.now() + 60_000
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

describe('followers through a server away for a few seconds', () => {
  it('get the events and messages of the gap and of the seconds after it within their bounds, each once, in order', async () => {
    const events: Array<{ n: number; at: number }> = []
    const mail: Array<{ n: number; at: number }> = []
    const sentAt = new Map<number, number>()
    const follow = on.leader.events.follow('gap', 'ann', (e) =>
      events.push({ n: Number((e as { message: string }).message.split(' ')[1]), at: Date.now() })
    )
    const watch = on.leader.mailbox.watch('gap', 'team-lead', (m) =>
      mail.push({ n: Number(m.message.text.split(' ')[1]), at: Date.now() })
    )
    await Promise.all([follow.ready, watch.ready])
    const sends: Array<Promise<unknown>> = []
    const emit = (n: number): void => {
      sentAt.set(n, Date.now())
      on.teammate.events.publish('gap', 'ann', note(n))
      sends.push(on.teammate.mailbox.send('gap', 'team-lead', { from: 'ann', text: `msg ${n}` }))
    }
    emit(1)
    await until('the first', () => events.length === 1 && mail.length === 1)

    await on.server.kill9()
    await until('the connection lost', () => on.leader.connection.state() !== 'connected')
    // during the gap: the teammate's store keeps them until the server is back
    emit(2)
    await sleep(GAP_MS)
    emit(3)
    await on.server.restart()
    const restartedAt = Date.now()
    for (const n of range(4, 15)) {
      emit(n)
      await sleep(500)
    }
    await Promise.all(sends)
    await until('every event and message', () => events.length >= 15 && mail.length >= 15)
    await sleep(1_000) // a duplicate would come meanwhile
    follow.dispose()
    watch.dispose()

    expect(events.map((e) => e.n)).toEqual(range(1, 15))
    expect(mail.map((m) => m.n).sort((a, b) => a - b)).toEqual(range(1, 15))
    const late = (got: Array<{ n: number; at: number }>) =>
      got
        .filter((g) =>
          g.n <= 3 ? g.n > 1 && g.at - restartedAt > GAP_BOUND_MS : g.at - sentAt.get(g.n)! > SEND_BOUND_MS
        )
        .map((g) => `#${g.n} sent at +${sentAt.get(g.n)! - restartedAt} ms, got at +${g.at - restartedAt} ms`)
    expect(late(events), 'events later than their bound').toEqual([])
    expect(late(mail), 'messages later than their bound').toEqual([])
  }, 120_000)
})
