import { afterAll, beforeAll } from 'vitest'
import { startNatsServer, type NatsServer } from './natsServer.testkit'
import { openTeamStore } from './open'
import type { TeamStorePort } from './port'

/**
 * A nats-server for a test file and one team store on it per name, each its own connection (as
 * two processes of a team), started before the file's tests and closed after them (vitest hooks).
 * Read the fields inside tests: `on.server`, `on[name]`.
 */
export function useNatsStores<K extends string>(
  names: readonly K[]
): { server: NatsServer } & Record<K, TeamStorePort> {
  const on = {} as { server: NatsServer } & Record<K, TeamStorePort>
  beforeAll(async () => {
    on.server = await startNatsServer()
    for (const name of names)
      (on as Record<K, TeamStorePort>)[name] = await openTeamStore('/nonexistent', {
        kind: 'nats',
        servers: [on.server.url]
      })
  }, 60_000)
  afterAll(async () => {
    for (const name of names) await (on as Partial<Record<K, TeamStorePort>>)[name]?.close()
    await on.server?.stop()
  })
  return on
}
