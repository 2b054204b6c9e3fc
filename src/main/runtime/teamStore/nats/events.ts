import type { RuntimeEvent } from '../../../../shared/events'
import { toDisposable } from '../../base'
import { assertName } from '../../mailbox'
import type { TeammateEventsPort } from '../port'
import type { NatsHandles } from './connection'

/** The subject of `agent`'s events. @throws InvalidNameError */
export function eventsSubject(team: string, agent: string): string {
  return `swarmdesk.events.${assertName('team', team)}.${assertName('agent', agent)}`
}

/**
 * A teammate's events on core NATS (docs/nats.md#a-teammates-events): one publish per event on
 * `swarmdesk.events.{team}.{agent}`, not stored by JetStream (the subject is outside the mail
 * stream's). A follower gets what is published while it is subscribed, in order.
 */
export function natsEvents(h: NatsHandles): TeammateEventsPort {
  return {
    publish(team, agent, event) {
      try {
        h.nc.publish(eventsSubject(team, agent), JSON.stringify(event))
      } catch {
        // a closed connection: the teammate's own transcript still has it
      }
    },
    follow(team, agent, listener) {
      const sub = h.nc.subscribe(eventsSubject(team, agent), {
        callback: (error, msg) => {
          if (error) return
          try {
            listener(msg.json<RuntimeEvent>())
          } catch (thrown) {
            setImmediate(() => {
              throw thrown
            })
          }
        }
      })
      return Object.assign(
        toDisposable(() => sub.unsubscribe()),
        { ready: h.nc.flush() }
      )
    }
  }
}
