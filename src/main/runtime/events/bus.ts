import type { RuntimeEvent, RuntimeEventInput } from '../../../shared/events'
import { toDisposable, type Disposable } from '../base'

/**
 * The runtime's event bus (docs/events.md#event-stream-and-command-line): emitters hand events without `seq`/`time`; the bus stamps
 * them (seq strictly increasing from 1) and delivers them synchronously, in order, to every
 * listener. A throwing listener is reported on stderr and does not stop delivery to the others.
 */
export class EventBus {
  private seq = 0
  private readonly listeners = new Set<(event: RuntimeEvent) => void>()
  private readonly now: () => Date

  constructor(options: { now?: () => Date } = {}) {
    this.now = options.now ?? (() => new Date())
  }

  /** Stamps and delivers one event; returns it as delivered. */
  emit(input: RuntimeEventInput): RuntimeEvent {
    const event = { ...input, seq: ++this.seq, time: this.now().toISOString() } as RuntimeEvent
    for (const listener of [...this.listeners]) {
      try {
        listener(event)
      } catch (error) {
        process.stderr.write(`swarmdesk: an event listener failed on ${event.type}: ${String(error)}\n`)
      }
    }
    return event
  }

  /** Subscribes to every event from now on. */
  onEvent(listener: (event: RuntimeEvent) => void): Disposable {
    this.listeners.add(listener)
    return toDisposable(() => this.listeners.delete(listener))
  }

  /** Number of subscribers (leak tests). */
  get listenerCount(): number {
    return this.listeners.size
  }
}
