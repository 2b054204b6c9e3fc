import { setTimeout as sleep } from 'node:timers/promises'
import { DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream'
import { toDisposable, type Disposable } from '../../base'
import type { NatsHandles } from './connection'
import { CONSUME_OPTIONS } from './retry'

/** How long a follow waits before it tries again to make its consumer after a failed try, ms. */
const REMAKE_PAUSE_MS = 250

/** Per connection: the callbacks to run on each `reconnect` status, from one status iterator. */
const reconnects = new WeakMap<NatsHandles['nc'], Set<() => void>>()

/**
 * Runs `fn` on each reconnect of `nc` (its `reconnect` status); returns what stops it. One status
 * iterator per connection, whatever the number of listeners.
 */
export function onReconnect(nc: NatsHandles['nc'], fn: () => void): () => void {
  let listeners = reconnects.get(nc)
  if (!listeners) {
    const fresh = new Set<() => void>()
    listeners = fresh
    reconnects.set(nc, fresh)
    void (async () => {
      for await (const s of nc.status()) if (s.type === 'reconnect') for (const f of [...fresh]) f()
    })().catch(() => undefined)
  }
  const mine = listeners
  mine.add(fn)
  return () => void mine.delete(fn)
}

/**
 * Races `work` against the next reconnect of `nc`: `work`'s outcome, or `'reconnected'` when the
 * connection came back first — a request sent while it was away may never be answered (seen with
 * nats-server 2.9: a publish buffered during the outage waits out its whole timeout), so the
 * caller sends it again at once (docs/nats.md#a-server-restart).
 */
export async function orReconnect<T>(nc: NatsHandles['nc'], work: Promise<T>): Promise<T | 'reconnected'> {
  let unlisten = (): void => undefined
  const reconnected = new Promise<'reconnected'>((resolve) => {
    unlisten = onReconnect(nc, () => resolve('reconnected'))
  })
  try {
    return await Promise.race([work, reconnected])
  } finally {
    unlisten()
  }
}

/** A running {@link followStream}. */
export interface StreamFollow {
  /** Settles once the first consumer is made (rejects when it could not be, after the retries of `h`). */
  ready: Promise<void>
  /** Stops the follow: `each` is called no more. */
  stop(): void
}

/**
 * Follows the messages of `filter` in `stream` from stream sequence `fromSeq` (1: the whole
 * stream), each given to `each` once, in stream order, the next only once `each` has settled
 * (docs/nats.md#a-server-restart). It holds an ordered consumer and makes a new one from just past
 * the last message given — at once on each reconnect of the connection, and when the client resets
 * its consumer (a gap in the delivery) or the consume ends while the connection is open — instead
 * of leaving it to the client: @nats-io/jetstream 3.4's ordered consumer re-made after a server
 * restart keeps the dead pull's outstanding count, so its first pull asks for one message and,
 * that pull expired, it pulls no more until two idle heartbeats are missed, about 12 s after the
 * server's return. A message of an abandoned consumer still in flight is dropped (the new one gives
 * it again); none is given twice (each sequence at most once, increasing). `each` throwing (or
 * rejecting) stops the follow and hands the error to `on.error`; the connection closing ends it
 * and calls `on.closed`.
 */
export function followStream(
  h: NatsHandles,
  stream: string,
  filter: string,
  fromSeq: number,
  each: (m: JsMsg) => void | Promise<void>,
  on: { error?: (error: unknown) => void; closed?: () => void } = {}
): StreamFollow {
  let last = Math.max(0, fromSeq - 1)
  let stopped = false
  let generation = 0
  let current: ConsumerMessages | undefined
  let remaking = false

  const abandon = (): void => {
    generation++
    const iter = current
    current = undefined
    iter?.stop()
  }
  const fail = (error: unknown): void => {
    if (stopped) return
    stop()
    on.error?.(error)
  }

  /** Makes a consumer from just past `last`; false when a newer start or a stop superseded it meanwhile. */
  const start = async (): Promise<boolean> => {
    const gen = ++generation
    const consumer = await h.js.consumers.get(stream, {
      filter_subjects: filter,
      ...(last === 0
        ? { deliver_policy: DeliverPolicy.All }
        : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: last + 1 })
    })
    const iter = await consumer.consume(CONSUME_OPTIONS)
    if (stopped || gen !== generation) {
      iter.stop()
      return false
    }
    current = iter
    void (async () => {
      for await (const s of iter.status()) if (s.type === 'reset' && gen === generation && !stopped) remake()
    })().catch(() => undefined)
    void (async () => {
      for await (const m of iter) {
        if (stopped || gen !== generation) break
        if (m.seq <= last) continue
        last = m.seq
        await each(m)
      }
    })().then(
      // a consume that ended on its own while the connection is open is made again
      () => {
        if (stopped || gen !== generation) return
        if (!h.nc.isClosed()) return remake()
        stop()
        on.closed?.()
      },
      (error: unknown) => void (gen === generation && fail(error))
    )
    return true
  }

  // a remake asked for while one runs supersedes that one's start, which then tries again
  const remake = (): void => {
    abandon()
    if (remaking) return
    remaking = true
    void (async () => {
      try {
        while (!stopped && !h.nc.isClosed()) {
          try {
            if (await start()) return
          } catch {
            await sleep(REMAKE_PAUSE_MS)
          }
        }
      } finally {
        remaking = false
      }
    })()
  }

  const unlisten = onReconnect(h.nc, () => void (!stopped && remake()))
  const stop = (): void => {
    stopped = true
    unlisten()
    abandon()
  }
  const ready = start().then(() => undefined)
  ready.catch(() => stop())
  return { ready, stop }
}

/** What {@link startingWatch} gives its `start`: whether the watch was disposed, and where to leave its stop. */
export interface WatchStart {
  disposed(): boolean
  /** Adds what stops a follow or iterator once made (each is called on dispose; at once when disposed already). */
  onStop(stop: () => void): void
}

/**
 * A watch whose follow is made asynchronously (a stream's last sequence read first, a KV watch
 * opened): the port's `Disposable & {ready}` shape. `ready` is what `start` resolves or rejects
 * with (a rejection is also left handled, for callers that never await it); disposing stops the
 * follow as soon as `start` has left its stop, and `disposed()` lets its listener drop what
 * arrives after.
 */
export function startingWatch(start: (watch: WatchStart) => Promise<void>): Disposable & { ready: Promise<void> } {
  let disposed = false
  const stops: Array<() => void> = []
  const ready = start({
    disposed: () => disposed,
    onStop: (fn) => {
      stops.push(fn)
      if (disposed) fn()
    }
  })
  ready.catch(() => undefined)
  return Object.assign(
    toDisposable(() => {
      disposed = true
      for (const stop of stops) stop()
    }),
    { ready }
  )
}
