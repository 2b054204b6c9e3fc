import type { NatsConnection } from '@nats-io/transport-node'
import type { TeamConnectionState } from '../../../shared/teamConnection'
import { Emitter, type Disposable } from '../base'

/**
 * The state of a team store's connection to its engine (docs/nats.md#connection-state), observed:
 * `state()` now, and `onDidChange` on every change (the listener gets the new state; a state is
 * never reported twice in a row). The files are always `connected`.
 */
export interface TeamConnection {
  state(): TeamConnectionState
  /** Calls `listener` with each new state. Dispose to stop. */
  onDidChange(listener: (state: TeamConnectionState) => void): Disposable
}

/** The files' connection: always `connected`, never changes. */
export const ALWAYS_CONNECTED: TeamConnection = {
  state: () => 'connected',
  onDidChange: () => ({ dispose: () => undefined })
}

/**
 * Follows `nc`'s status iterator (`nc.status()` of @nats-io/nats-core): `disconnect` →
 * `disconnected`, `reconnecting` (each attempt) → `reconnecting`, `reconnect` → `connected`, `close`
 * (and `nc.closed()` resolving) → `closed`. Other statuses (pings, cluster updates, server errors)
 * change nothing. Starts `connected`: call it right after the connection is made.
 */
export function followNatsConnection(nc: NatsConnection): TeamConnection {
  let current: TeamConnectionState = nc.isClosed() ? 'closed' : 'connected'
  const changed = new Emitter<TeamConnectionState>()
  const set = (next: TeamConnectionState): void => {
    if (next === current || current === 'closed') return
    current = next
    changed.fire(next)
    if (next === 'closed') changed.dispose()
  }
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') set('disconnected')
      else if (s.type === 'reconnecting') set('reconnecting')
      else if (s.type === 'reconnect') set('connected')
      else if (s.type === 'close') set('closed')
    }
  })().catch(() => undefined)
  void nc.closed().then(() => set('closed'))
  return { state: () => current, onDidChange: (listener) => changed.event(listener) }
}
