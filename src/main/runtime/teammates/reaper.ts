import type { Disposable } from '../base'
import type { EventBus } from '../events'
import { LEAD_NAME } from '../teams'
import { reapVanished, type TeamContext } from '../teamStore'

/**
 * The leader's look for teammates that vanished without a word (docs/nats.md#liveness): every
 * `everyMs` (default the store's `liveness.beatEveryMs`) while the session leads a team on a
 * store whose liveness is a heartbeat (JetStream), {@link reapVanished} marks each active teammate
 * that stopped beating inactive and returns its tasks to the list, and a notice says so. So a
 * vanished teammate's tasks are free again within `liveness.boundMs` + `everyMs`. Teammates the
 * supervisor runs (`running`) are left to it: it sees their end itself. On files the supervisor
 * sees every teammate's process end and no timer runs.
 *
 * While the store's connection is lost, and for `liveness.boundMs` after it is back, nobody is
 * reaped (docs/nats.md#liveness): the heartbeats of teammates that kept working expired with the
 * server away, and each is given a whole bound to beat again before it counts as vanished.
 */
export function reapOnTimer(
  context: Pick<TeamContext, 'store' | 'team'>,
  bus: EventBus,
  running: () => string[],
  everyMs = context.store.liveness.beatEveryMs
): Disposable {
  if (context.store.transport === 'files') return { dispose: () => undefined }
  const { connection, liveness } = context.store
  let backAt = -Infinity
  const reconnects = connection.onDidChange((state) => {
    if (state === 'connected') backAt = Date.now()
  })
  let looking = false
  const timer = setInterval(() => {
    const team = context.team()
    if (looking || team === undefined) return
    if (connection.state() !== 'connected' || Date.now() - backAt < liveness.boundMs) return
    looking = true
    reapVanished(context.store, team, Date.now(), new Set(running()))
      .then((gone) => {
        for (const { name, released } of gone) {
          const freed = released.length ? `; tasks ${released.map((t) => `#${t.id}`).join(', ')} are pending again` : ''
          const message = `Teammate ${name} stopped beating: marked inactive${freed}.`
          bus.emit({ type: 'notice', level: 'warning', message, agentId: LEAD_NAME, agentName: LEAD_NAME })
        }
      })
      // a server away for a moment, a team deleted meanwhile: the next look tries again
      .catch(() => undefined)
      .finally(() => (looking = false))
  }, everyMs)
  timer.unref()
  return {
    dispose: () => {
      clearInterval(timer)
      reconnects.dispose()
    }
  }
}
