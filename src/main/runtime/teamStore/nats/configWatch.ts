import type { JsMsg } from '@nats-io/jetstream'
import { TeamConfigSchema } from '../../../../shared/teams'
import type { Disposable } from '../../base'
import { safeName, type TeamConfigChange } from '../../teams'
import type { NatsHandles } from './connection'
import { followStream, startingWatch } from './ordered'

/** The stream behind the KV bucket `swarmdesk-teams`, and its subjects' prefix (one subject per key). */
const TEAMS_STREAM = 'KV_swarmdesk-teams'
const TEAMS_SUBJECT = '$KV.swarmdesk-teams'

/**
 * Follows `team`'s config key `{team}.config` in `swarmdesk-teams` (docs/nats.md#team-config): an
 * ordered consumer of the key's subject in the bucket's stream, from just past the stream's end when
 * the watch starts, as an inbox watch does (nats/mailbox.ts). A put is `updated` (a value that is not
 * a team config is skipped), a delete or purge `deleted`. The consumer a server restart took away
 * (it lives in the server's memory) is made again as soon as the connection is back, from the last
 * change delivered ({@link followStream}): nothing is missed, nothing reported twice. A throwing listener's error is rethrown on a later
 * tick. @throws TeamNameError for a bad team name.
 */
export function watchNatsConfig(
  h: NatsHandles,
  team: string,
  listener: (change: TeamConfigChange) => void
): Disposable & { ready: Promise<void> } {
  const name = safeName(team)
  const report = (m: JsMsg): void => {
    const op = m.headers?.get('KV-Operation')
    let change: TeamConfigChange
    if (op === 'DEL' || op === 'PURGE') change = { type: 'deleted', team: name }
    else {
      let parsed: ReturnType<typeof TeamConfigSchema.safeParse>
      try {
        parsed = TeamConfigSchema.safeParse(m.json())
      } catch {
        return
      }
      if (!parsed.success) return
      change = { type: 'updated', team: name, config: parsed.data }
    }
    try {
      listener(change)
    } catch (error) {
      setImmediate(() => {
        throw error
      })
    }
  }
  return startingWatch(async (watch) => {
    const from = (await h.jsm.streams.info(TEAMS_STREAM)).state.last_seq + 1
    if (watch.disposed()) return
    const follow = followStream(h, TEAMS_STREAM, `${TEAMS_SUBJECT}.${name}.config`, from, (m) => {
      if (!watch.disposed()) report(m)
    })
    watch.onStop(() => follow.stop())
    await follow.ready
  })
}
