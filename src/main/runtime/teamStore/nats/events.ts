import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { JetStreamApiError, RetentionPolicy, DiscardPolicy, StorageType } from '@nats-io/jetstream'
import { headers } from '@nats-io/transport-node'
import type { RuntimeEvent } from '../../../../shared/events'
import { assertName } from '../../mailbox'
import type { TeammateEventsPort } from '../port'
import type { NatsHandles } from './connection'
import { followStream, orReconnect, startingWatch } from './ordered'
import { OPERATION_RETRY_MS } from './retry'

/** The stream that keeps teammates' events a while: `swarmdesk.events.{team}.{agent}`. */
export const EVENTS_STREAM = 'SWARMDESK_EVENTS'
/** How long a teammate's event is kept, ms (a follower that comes back later than this misses it). */
export const EVENTS_MAX_AGE_MS = 60 * 60 * 1000
/** How many events of one teammate are kept at most (the oldest go first). */
export const EVENTS_MAX_PER_AGENT = 20_000
/** The most the stream holds, bytes, over every team (the oldest events go first). */
export const EVENTS_MAX_BYTES = 256 * 1024 * 1024

/** The subject of `agent`'s events. @throws InvalidNameError */
export function eventsSubject(team: string, agent: string): string {
  return `swarmdesk.events.${assertName('team', team)}.${assertName('agent', agent)}`
}

/**
 * Makes (or finds) the events stream (docs/nats.md#a-teammates-events): file storage, limits by
 * age ({@link EVENTS_MAX_AGE_MS}), per teammate ({@link EVENTS_MAX_PER_AGENT}) and in all
 * ({@link EVENTS_MAX_BYTES}), the oldest discarded first. A stream made earlier is used as it is.
 */
export async function ensureEventsStream(h: NatsHandles, replicas = 1): Promise<void> {
  try {
    await h.jsm.streams.info(EVENTS_STREAM)
    return
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.code !== 10059) throw error
  }
  try {
    await h.jsm.streams.add({
      name: EVENTS_STREAM,
      subjects: ['swarmdesk.events.*.*'],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      num_replicas: replicas,
      max_age: EVENTS_MAX_AGE_MS * 1_000_000,
      max_msgs_per_subject: EVENTS_MAX_PER_AGENT,
      max_bytes: EVENTS_MAX_BYTES
    })
  } catch (error) {
    // another process made it meanwhile
    await h.jsm.streams.info(EVENTS_STREAM).catch(() => {
      throw error
    })
  }
}

/**
 * A teammate's events on JetStream (docs/nats.md#a-teammates-events), kept by the stream
 * {@link EVENTS_STREAM} for an hour. `publish` never waits: it queues the event, and one pump per
 * store sends the queue in order as JetStream publishes, each acknowledged once stored; a batch
 * that fails (a lost connection, a server restarting) is sent again, from its first unacknowledged
 * event, for up to {@link OPERATION_RETRY_MS} (at once when the connection comes back while it waits), each event with the same `Nats-Msg-Id` (a random
 * prefix of this store and a counter), so none is stored twice (what is still queued when the store closes goes out unacknowledged). A follower holds an ordered
 * consumer ({@link followStream}): after a lost connection or a server restart it is made again at
 * once from the last event given, so none is missed and none given twice; one that comes later may
 * start after any position it was given before.
 */
export function natsEvents(h: NatsHandles): TeammateEventsPort & { settled(boundMs: number): Promise<void> } {
  const prefix = randomUUID().slice(0, 8)
  let counter = 0
  const queue: Array<{ subject: string; data: string; id: string }> = []
  let pumping = false
  const pump = async (): Promise<void> => {
    if (pumping) return
    pumping = true
    try {
      while (queue.length > 0 && !h.nc.isClosed()) {
        const batch = queue.slice(0, 256)
        const deadline = Date.now() + OPERATION_RETRY_MS
        for (let from = 0; from < batch.length;) {
          const sent = await orReconnect(
            h.nc,
            Promise.allSettled(
              batch.slice(from).map((e) => h.js.publish(e.subject, e.data, { msgID: e.id, timeout: 5_000 }))
            )
          )
          // the connection came back meanwhile: the rest again at once (stored once, by id)
          if (sent === 'reconnected') continue
          const failed = sent.findIndex((r) => r.status === 'rejected')
          if (failed === -1) break
          if (Date.now() > deadline || h.nc.isClosed()) break
          from += failed
          await sleep(250)
        }
        for (const e of batch) {
          const at = queue.indexOf(e)
          if (at >= 0) queue.splice(at, 1)
        }
      }
    } finally {
      pumping = false
    }
  }
  return {
    /**
     * Before the connection closes: sends what is still queued at once, without waiting for its
     * acknowledgements (the stream still stores each once, by its id), and flushes the connection
     * for at most `boundMs`, so a teammate's last events go out without holding up its exit.
     */
    async settled(boundMs) {
      for (const e of queue.splice(0)) {
        const hdrs = headers()
        hdrs.set('Nats-Msg-Id', e.id)
        try {
          h.nc.publish(e.subject, e.data, { headers: hdrs })
        } catch {
          break // closed: the teammate's own transcript still has them
        }
      }
      // an unref'd bound: the pending timer must not keep an exiting teammate's process alive
      await Promise.race([h.nc.flush().catch(() => undefined), sleep(boundMs, undefined, { ref: false })])
    },
    publish(team, agent, event) {
      try {
        queue.push({ subject: eventsSubject(team, agent), data: JSON.stringify(event), id: `${prefix}-${++counter}` })
      } catch {
        return // a bad name: nobody could follow it
      }
      void pump()
    },
    follow(team, agent, listener, opts = {}) {
      const subject = eventsSubject(team, agent)
      return startingWatch(async (watch) => {
        const after = opts.after ?? (await h.jsm.streams.info(EVENTS_STREAM)).state.last_seq
        if (watch.disposed()) return
        const follow = followStream(h, EVENTS_STREAM, subject, after + 1, (m) => {
          let event: RuntimeEvent
          try {
            event = m.json<RuntimeEvent>()
          } catch {
            return
          }
          try {
            listener(event, m.seq)
          } catch (thrown) {
            setImmediate(() => {
              throw thrown
            })
          }
        })
        watch.onStop(() => follow.stop())
        await follow.ready
      })
    }
  }
}
