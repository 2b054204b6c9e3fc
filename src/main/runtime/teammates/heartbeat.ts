import type { TeamStorePort } from '../teamStore'

/**
 * Environment variable: milliseconds after which a teammate whose heartbeat has not reached the
 * server ends itself (docs/hosts.md#liveness). Set by the leader for a teammate on another host,
 * which the leader cannot end once the network between them is gone; unset, a teammate keeps
 * trying for as long as it runs (a server restarting must not end a team).
 */
export const CUT_OFF_EXIT_ENV = 'SWARMDESK_CUT_OFF_EXIT_MS'

/** A teammate's running heartbeat. */
export interface Heartbeat {
  /** The first beat (failures swallowed: the next one tries again). */
  first: Promise<void>
  /** Stops beating and forgets the beat (an orderly exit). */
  stop(): Promise<void>
}

/**
 * Beats `name`'s liveness every `beatEveryMs` while it runs (docs/nats.md#liveness); none on files
 * (undefined), where the leader sees its process instead. With {@link CUT_OFF_EXIT_ENV} in `env`, a
 * teammate none of whose beats succeeded for that long calls `onCutOff` once: by then the leader
 * has marked it `crashed` and released its tasks, so going on would only do the work twice.
 */
export function startHeartbeat(
  store: TeamStorePort,
  team: string,
  name: string,
  env: NodeJS.ProcessEnv,
  onCutOff: (silentMs: number) => void
): Heartbeat | undefined {
  if (store.transport === 'files') return undefined
  const cutOffMs = Number(env[CUT_OFF_EXIT_ENV]) || 0
  let lastOk = Date.now()
  let cut = false
  const beat = (): Promise<void> =>
    store.liveness.beat(team, name).then(
      () => void (lastOk = Date.now()),
      () => undefined
    )
  const timer = setInterval(() => {
    const silent = Date.now() - lastOk
    if (cutOffMs > 0 && silent > cutOffMs) {
      if (!cut) onCutOff(silent)
      cut = true
      return
    }
    void beat()
  }, store.liveness.beatEveryMs)
  timer.unref()
  return {
    first: beat(),
    stop: async () => {
      clearInterval(timer)
      await store.liveness.forget(team, name).catch(() => undefined)
    }
  }
}
